import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import {
  ZIntegrationImport,
  ZLeadsSourceList,
  ZLinkedAccount,
  ZOAuthResult,
  ZRemoteList,
  ZIntegrationTestMode,
  type TConnectAccountRequest,
  type TIntegration,
  type TLeadsVerifyRequest,
  type TVerifyListRequest,
} from '@verilead/contracts';
import { requestApi } from '../../../lib/api-client';
import { pollWhile } from '../../../lib/poll-while';

export const integrationQueryKeys = {
  linked: ['integrations', 'linked'] as const,
  accounts: (p: TIntegration) => ['integrations', 'accounts', p] as const,
  lists: (p: TIntegration, accountId: string) => ['integrations', 'lists', p, accountId] as const,
  imports: ['integrations', 'imports'] as const,
  leads: ['integrations', 'leads'] as const,
  testMode: ['integrations', 'test-mode'] as const,
};

const ZItems = z.object({ items: z.array(ZLinkedAccount) });
const ZImports = z.object({ items: z.array(ZIntegrationImport) });
const ZAccountLists = z.object({ account: ZLinkedAccount, lists: z.array(ZRemoteList) });
const ZLeadsLists = z.object({ items: z.array(ZLeadsSourceList) });
const ACTIVE = new Set(['importing', 'verifying', 'writing_back']);

/** GET /integration/linked_accounts */
export function useLinkedAccounts() {
  return useQuery({ queryKey: integrationQueryKeys.linked, queryFn: ({ signal }) => requestApi({ path: '/integration/linked_accounts', schema: ZItems, signal }) });
}

/** GET /integration/test_mode: whether platforms are local stand-ins here, and their credentials. */
export function useIntegrationTestMode() {
  return useQuery({ queryKey: integrationQueryKeys.testMode, queryFn: ({ signal }) => requestApi({ path: '/integration/test_mode', schema: ZIntegrationTestMode, signal }), staleTime: Infinity, retry: false });
}

/** GET /integration/account/{integration} */
export function usePlatformAccounts(platform: TIntegration) {
  return useQuery({ queryKey: integrationQueryKeys.accounts(platform), queryFn: ({ signal }) => requestApi({ path: `/integration/account/${platform}`, schema: ZItems, signal }) });
}

/** GET /integration/account/{integration}/{account id}: the lists on the platform. */
export function useAccountLists(platform: TIntegration, accountId: string | null) {
  return useQuery({
    queryKey: integrationQueryKeys.lists(platform, accountId ?? ''),
    queryFn: ({ signal }) => requestApi({ path: `/integration/account/${platform}/${accountId}`, schema: ZAccountLists, signal }),
    enabled: Boolean(accountId),
    retry: false,
  });
}

/** GET /integration/imports, polled while one is running. */
export function useImports() {
  return useQuery({
    queryKey: integrationQueryKeys.imports,
    queryFn: ({ signal }) => requestApi({ path: '/integration/imports', schema: ZImports, signal }),
    refetchInterval: pollWhile((d: { items: { state: string }[] } | undefined) => d?.items.some((i) => ACTIVE.has(i.state)) ?? false, 2_000),
  });
}

/** POST /integration/imports/cancel: stops a running import (its verification and write-back too); what was done stays. */
export function useCancelImport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (importId: string) => requestApi({ method: 'POST', path: '/integration/imports/cancel', body: { import_id: importId }, schema: ZIntegrationImport }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['integrations'] }),
  });
}

export function useConnectAccount(platform: TIntegration) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TConnectAccountRequest) => requestApi({ method: 'POST', path: `/integration/account/${platform}`, body, schema: ZLinkedAccount }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['integrations'] }),
  });
}

export function useDisconnectAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (a: { platform: TIntegration; accountId: string }) => requestApi({ method: 'DELETE', path: `/integration/account/${a.platform}`, query: { account_id: a.accountId } }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['integrations'] }),
  });
}

export function useVerifyList(platform: TIntegration) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TVerifyListRequest) => requestApi({ method: 'POST', path: `/integration/account/${platform}/verify_list`, body, schema: ZIntegrationImport }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: integrationQueryKeys.imports }),
  });
}

/** GET /oauth/{platform}: the consent URL to send the browser to (with `name`, Zoho `region`), or, with the platform's `code` and `state`, the connected account. */
export function useOAuthConnect(platform: TIntegration) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (query: Record<string, string>) => requestApi({ path: `/oauth/${platform}`, query, schema: ZOAuthResult }),
    onSuccess: (r) => {
      if (r.account) void queryClient.invalidateQueries({ queryKey: ['integrations'] });
    },
  });
}

/** GET /integration/leads/lists: prospect lists that can be verified (the `leads` source). */
export function useLeadsSources() {
  return useQuery({ queryKey: integrationQueryKeys.leads, queryFn: ({ signal }) => requestApi({ path: '/integration/leads/lists', schema: ZLeadsLists, signal }) });
}

/** POST /integration/leads/verify_list */
export function useVerifyLeads() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TLeadsVerifyRequest) => requestApi({ method: 'POST', path: '/integration/leads/verify_list', body, schema: ZIntegrationImport }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: integrationQueryKeys.imports }),
  });
}
