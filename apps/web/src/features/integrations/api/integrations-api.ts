import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { ZIntegrationImport, ZLinkedAccount, ZRemoteList, type TConnectAccountRequest, type TIntegration, type TVerifyListRequest } from '@verilead/contracts';
import { requestApi } from '../../../lib/api-client';

export const integrationQueryKeys = {
  linked: ['integrations', 'linked'] as const,
  accounts: (p: TIntegration) => ['integrations', 'accounts', p] as const,
  lists: (p: TIntegration, accountId: string) => ['integrations', 'lists', p, accountId] as const,
  imports: ['integrations', 'imports'] as const,
};

const ZItems = z.object({ items: z.array(ZLinkedAccount) });
const ZImports = z.object({ items: z.array(ZIntegrationImport) });
const ZAccountLists = z.object({ account: ZLinkedAccount, lists: z.array(ZRemoteList) });
const ACTIVE = new Set(['importing', 'verifying', 'writing_back']);

/** GET /integration/linked_accounts */
export function useLinkedAccounts() {
  return useQuery({ queryKey: integrationQueryKeys.linked, queryFn: ({ signal }) => requestApi({ path: '/integration/linked_accounts', schema: ZItems, signal }) });
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
    refetchInterval: (q) => (q.state.data?.items.some((i) => ACTIVE.has(i.state)) ? 2_000 : false),
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
