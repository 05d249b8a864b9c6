import { useMemo } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  ZCheckDuplicateData,
  ZDownload,
  ZInstantVerifyData,
  ZListColumnsData,
  ZListRemoveCheckData,
  ZMessageData,
  ZProgressStatusData,
  ZRecentInstantData,
  ZUserPreferences,
  ZVerifyList,
  ZVerifyListsData,
  type TExportRequest,
  type TListVerifyRequest,
  type TVerifyList,
  type TVerifyListsRequest,
} from '@verilead/contracts';
import { requestApi } from '../../../lib/api-client';
import { pollWhile } from '../../../lib/poll-while';
import { userQueryKeys } from '../../../lib/user-queries';
import { useRefreshWhenJobsEnd } from './use-job-end-refresh';
import { verifierQueryKeys } from './verifier-query-keys';

/** Recent instant results shown under Quick Validation. */
export const RECENT_INSTANT_LIMIT = 10;
/** How often a running list or a file being analysed is polled. */
export const PROGRESS_POLL_MS = 1_500;

/** POST /email_verify/instant: one address, charged by the billing rule; 402 when out of credits. */
export function useInstantVerify() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (email: string) => requestApi({ method: 'POST', path: '/email_verify/instant', body: { email }, schema: ZInstantVerifyData }),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: verifierQueryKeys.recent });
      void queryClient.invalidateQueries({ queryKey: userQueryKeys.creditsAndLimits });
    },
  });
}

/** GET /email_verify/instant/recent?source=app: the caller's latest instant results made in the app (not through the API), newest first. */
export function useRecentInstant(limit = RECENT_INSTANT_LIMIT) {
  return useQuery({
    queryKey: [...verifierQueryKeys.recent, limit],
    queryFn: ({ signal }) => requestApi({ path: '/email_verify/instant/recent', query: { limit, source: 'app' }, schema: ZRecentInstantData, signal }),
  });
}

/** True while a list's file is analysed or a job runs on it (the screens poll then). */
export function isListBusy(list: Pick<TVerifyList, 'state' | 'analysis' | 'activity'>): boolean {
  return list.state === 'in_progress' || list.analysis.state === 'pending' || list.analysis.state === 'processing' || list.activity !== null;
}

/** POST /email_verify/list: paged, searched and sorted lists; polled while one of them is busy. */
export function useVerifyLists(params: TVerifyListsRequest) {
  const query = useQuery({
    queryKey: [...verifierQueryKeys.lists, params],
    queryFn: ({ signal }) => requestApi({ method: 'POST', path: '/email_verify/list', body: params, schema: ZVerifyListsData, signal }),
    placeholderData: keepPreviousData,
    refetchInterval: pollWhile((d: { items: TVerifyList[] } | undefined) => d?.items.some(isListBusy) ?? false, PROGRESS_POLL_MS * 2),
  });
  useRefreshWhenJobsEnd(useMemo(() => query.data?.items.map((list) => ({ id: list.id, busy: isListBusy(list) })), [query.data]));
  return query;
}

/** One list (POST /email_verify/list with list_id); polled while the file is analysed or verified. */
export function useVerifyList(listId: string) {
  const query = useQuery({
    queryKey: verifierQueryKeys.list(listId),
    queryFn: async ({ signal }) => {
      const page = await requestApi({ method: 'POST', path: '/email_verify/list', body: { list_id: listId, page: 1, limit: 25 }, schema: ZVerifyListsData, signal });
      const list = page.items[0];
      if (!list) throw new Error('This list does not exist or was removed.');
      return ZVerifyList.parse(list);
    },
    refetchInterval: pollWhile((d: TVerifyList | undefined) => d !== undefined && isListBusy(d), PROGRESS_POLL_MS),
  });
  useRefreshWhenJobsEnd(useMemo(() => (query.data ? [{ id: query.data.id, busy: isListBusy(query.data) }] : undefined), [query.data]));
  return query;
}

/** GET /email_verify/bulk/progress_status?list_id, polled while `enabled`. */
export function useProgressStatus(listId: string, enabled: boolean) {
  return useQuery({
    queryKey: verifierQueryKeys.progress(listId),
    queryFn: ({ signal }) => requestApi({ path: '/email_verify/bulk/progress_status', query: { list_id: listId }, schema: ZProgressStatusData, signal }),
    enabled,
    refetchInterval: enabled ? PROGRESS_POLL_MS : false,
    staleTime: 0,
  });
}

/** POST /email_verify/bulk_upload/check_duplicate: was a file of this name uploaded before? */
export function checkDuplicateFileName(fileName: string) {
  return requestApi({ method: 'POST', path: '/email_verify/bulk_upload/check_duplicate', body: { file_name: fileName }, schema: ZCheckDuplicateData });
}

function useListMutation<TBody>(path: string, invalidateCredits: boolean) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TBody) => requestApi({ method: 'POST', path, body }),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: verifierQueryKeys.all });
      if (invalidateCredits) void queryClient.invalidateQueries({ queryKey: userQueryKeys.creditsAndLimits });
    },
  });
}

/** POST /email_verify/list/verify: starts the verify job; 402 with required_credits when short. */
export function useStartListVerify() {
  return useListMutation<TListVerifyRequest>('/email_verify/list/verify', true);
}

/** POST /email_verify/list/cancel: stops the job; only finished addresses are billed. */
export function useCancelList() {
  return useListMutation<{ list_id: string }>('/email_verify/list/cancel', true);
}

/** GET /email_verify/list/remove?list_id: whether the list may be removed now. */
export function checkListRemovable(listId: string) {
  return requestApi({ path: '/email_verify/list/remove', query: { list_id: listId }, schema: ZListRemoveCheckData });
}

/** POST /email_verify/list/remove. */
export function useRemoveList() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (listId: string) => requestApi({ method: 'POST', path: '/email_verify/list/remove', body: { list_id: listId }, schema: ZMessageData }),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: verifierQueryKeys.all }),
  });
}

/** POST /email_verify/list/export: queues a result file; poll it with `waitForDownload` (lib/download-status). */
export function startListExport(body: TExportRequest, signal?: AbortSignal) {
  return requestApi({ method: 'POST', path: '/email_verify/list/export', body, schema: ZDownload, signal });
}

/** GET /email_verify/list/columns?list_id: the uploaded file's column names, for a custom download. */
export function useListColumns(listId: string | null) {
  return useQuery({
    queryKey: [...verifierQueryKeys.all, 'columns', listId],
    queryFn: ({ signal }) => requestApi({ path: '/email_verify/list/columns', query: { list_id: listId ?? '' }, schema: ZListColumnsData, signal }),
    enabled: listId !== null,
    staleTime: 5 * 60_000,
  });
}

/** GET /user_preferences, for the verification mode choice before verifying a list. */
export function useVerifierPreferences(enabled: boolean) {
  return useQuery({
    queryKey: [...verifierQueryKeys.all, 'preferences'],
    queryFn: ({ signal }) => requestApi({ path: '/user_preferences', schema: ZUserPreferences, signal }),
    enabled,
    staleTime: 60_000,
  });
}
