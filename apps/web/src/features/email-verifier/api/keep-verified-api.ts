import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ZKeepVerifiedData, ZListSyncData, ZReverifyChangesData, type TKeepVerifiedRequest, type TListSyncRequest, type TReverifyPeriod } from '@verilead/contracts';
import { requestApi } from '../../../lib/api-client';
import { verifierQueryKeys } from './verifier-query-keys';

// Lists that stay verified: the schedule (priced for the choice on screen), its runs and their changes, and a
// platform list's automatic verification of new contacts.

const keys = {
  keepVerified: verifierQueryKeys.keepVerified,
  changes: (listId: string, runId: string) => ['email-verifier', 'keep-verified', listId, 'changes', runId] as const,
  listSync: (listId: string) => ['email-verifier', 'list-sync', listId] as const,
};

/** GET /email_verify/list/keep_verified: the schedule, and the cost per run of `choice` when one is being made. */
export function useKeepVerified(listId: string, choice: { schedule: TReverifyPeriod; ageDays: number } | null) {
  return useQuery({
    queryKey: [...keys.keepVerified(listId), choice],
    queryFn: ({ signal }) =>
      requestApi({
        path: '/email_verify/list/keep_verified',
        query: { list_id: listId, ...(choice ? { schedule: choice.schedule, age_days: choice.ageDays } : {}) },
        schema: ZKeepVerifiedData,
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

/** PUT /email_verify/list/keep_verified: on with the cost per run the person saw, or off. */
export function useSetKeepVerified(listId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TKeepVerifiedRequest) => requestApi({ method: 'PUT', path: '/email_verify/list/keep_verified', body, schema: ZKeepVerifiedData }),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: keys.keepVerified(listId) });
      void queryClient.invalidateQueries({ queryKey: verifierQueryKeys.list(listId) });
    },
  });
}

/** GET /email_verify/list/keep_verified/changes: a page of the rows a run changed (or every row it re-checked). */
export function useRunChanges(listId: string, runId: string | null, page: number, all: boolean) {
  return useQuery({
    queryKey: [...keys.changes(listId, runId ?? ''), page, all],
    queryFn: ({ signal }) =>
      requestApi({ path: '/email_verify/list/keep_verified/changes', query: { list_id: listId, run_id: runId, page, per_page: 20, all: String(all) }, schema: ZReverifyChangesData, signal }),
    enabled: runId !== null,
    placeholderData: keepPreviousData,
  });
}

/** GET /integration/list_sync: the platform list this list came from (404: an uploaded list, nothing to show). */
export function useListSync(listId: string, enabled: boolean) {
  return useQuery({
    queryKey: keys.listSync(listId),
    queryFn: ({ signal }) => requestApi({ path: '/integration/list_sync', query: { list_id: listId }, schema: ZListSyncData, signal }),
    enabled,
    retry: false,
  });
}

export function useSetListSync(listId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TListSyncRequest) => requestApi({ method: 'PUT', path: '/integration/list_sync', body, schema: ZListSyncData }),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: keys.listSync(listId) }),
  });
}
