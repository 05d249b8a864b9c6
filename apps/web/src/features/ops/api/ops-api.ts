import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import {
  ZMessageData,
  ZOperatorInvitation,
  ZOperator,
  ZOpsAction,
  ZOpsCreditAdjustment,
  ZOpsOrgDetail,
  ZOpsOrgLists,
  ZOpsOrgSummary,
  ZPaged,
  type TOpsCreditAdjustmentRequest,
} from '@verilead/contracts';
import { requestOps } from './ops-client';

const ZOrgPage = ZPaged(ZOpsOrgSummary);
const ZActionPage = ZPaged(ZOpsAction);
const ZPriceConfigData = z.record(z.string(), z.unknown());

export const opsKeys = {
  orgs: (q: string, page: number) => ['ops', 'orgs', q, page] as const,
  org: (id: string) => ['ops', 'org', id] as const,
  orgLists: (id: string) => ['ops', 'org', id, 'lists'] as const,
  operators: ['ops', 'operators'] as const,
  actions: (page: number) => ['ops', 'actions', page] as const,
  pricing: ['ops', 'pricing'] as const,
};

/** GET /ops/orgs: organisations by name, member e-mail or domain. */
export function useOpsOrgs(q: string, page: number) {
  return useQuery({
    queryKey: opsKeys.orgs(q, page),
    queryFn: ({ signal }) => requestOps({ path: '/orgs', query: { q, page, limit: 25 }, schema: ZOrgPage, signal }),
    placeholderData: keepPreviousData,
  });
}

/** GET /ops/orgs/:id: plan, balance, members, activity counts. */
export function useOpsOrg(id: string) {
  return useQuery({ queryKey: opsKeys.org(id), queryFn: ({ signal }) => requestOps({ path: `/orgs/${id}`, schema: ZOpsOrgDetail, signal }) });
}

/** GET /ops/orgs/:id/lists: only with the owner's support access (403 otherwise). */
export function useOpsOrgLists(id: string, enabled: boolean) {
  return useQuery({ queryKey: opsKeys.orgLists(id), queryFn: ({ signal }) => requestOps({ path: `/orgs/${id}/lists`, schema: ZOpsOrgLists, signal }), enabled });
}

/** POST actions on an organisation or one of its users (suspend, restore, reset sessions): refreshes the organisation. */
export function useOpsOrgAction(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { path: string; reason?: string }) =>
      requestOps({ method: 'POST', path: `/orgs/${orgId}${input.path}`, body: input.reason ? { reason: input.reason } : {}, schema: ZMessageData }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['ops'] }),
  });
}

/** POST /ops/orgs/:id/credits: grant or remove with a reason; the key makes a retry harmless. */
export function useOpsCreditAdjustment(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TOpsCreditAdjustmentRequest) => requestOps({ method: 'POST', path: `/orgs/${orgId}/credits`, body, schema: ZOpsCreditAdjustment }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['ops'] }),
  });
}

export function useOperators() {
  return useQuery({ queryKey: opsKeys.operators, queryFn: ({ signal }) => requestOps({ path: '/operators', schema: z.object({ items: z.array(ZOperator) }), signal }) });
}

export function useInviteOperator() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { email: string; name?: string }) => requestOps({ method: 'POST', path: '/operators/invite', body, schema: ZOperatorInvitation }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: opsKeys.operators }),
  });
}

/** POST /ops/operators/:id/disable or /enable: disabling signs them out everywhere and voids their links. */
export function useSetOperatorStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { id: string; disabled: boolean }) =>
      requestOps({ method: 'POST', path: `/operators/${input.id}/${input.disabled ? 'disable' : 'enable'}`, body: {}, schema: z.object({ operator: ZOperator, message: z.string() }) }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['ops'] }),
  });
}

export function useOperatorLog(page: number) {
  return useQuery({
    queryKey: opsKeys.actions(page),
    queryFn: ({ signal }) => requestOps({ path: '/actions', query: { page, limit: 25 }, schema: ZActionPage, signal }),
    placeholderData: keepPreviousData,
  });
}

export function usePricing() {
  return useQuery({ queryKey: opsKeys.pricing, queryFn: ({ signal }) => requestOps({ path: '/pricing', schema: ZPriceConfigData, signal }) });
}

export function useSavePricing() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (config: unknown) =>
      requestOps({ method: 'PUT', path: '/pricing', body: { config }, schema: z.object({ applied: z.record(z.string(), z.unknown()), config: ZPriceConfigData }) }),
    onSuccess: (saved) => queryClient.setQueryData(opsKeys.pricing, saved.config),
  });
}
