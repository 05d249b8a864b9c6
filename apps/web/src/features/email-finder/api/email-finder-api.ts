import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  ZFinderCheckDuplicateData,
  ZFinderDownloadData,
  ZFinderHistoryData,
  ZFinderList,
  ZFinderListsData,
  ZFinderProgressData,
  ZInstantFindData,
  ZMessageData,
  ZQueueStatusData,
  type TFinderDownloadResultRequest,
  type TFinderHistoryDownloadRequest,
  type TFinderStatus,
  type TFinderListsRequest,
  type TInstantFindRequest,
} from '@verilead/contracts';
import { requestApi } from '../../../lib/api-client';
import { pollWhile } from '../../../lib/poll-while';
import { userQueryKeys } from '../../../lib/user-queries';
import { isFinderListBusy } from '../utils/finder-list-rules';

/** How often a queued instant search, a running list or its progress is polled. */
export const FINDER_POLL_MS = 1_500;

export const finderQueryKeys = {
  all: ['email-finder'] as const,
  history: ['email-finder', 'history'] as const,
  lists: ['email-finder', 'lists'] as const,
  list: (listId: string) => ['email-finder', 'list', listId] as const,
  progress: (listId: string) => ['email-finder', 'progress', listId] as const,
  queue: (qid: string) => ['email-finder', 'queue', qid] as const,
};

/** POST /email_finder/instant: the result, or a `qid` to poll when the search outlives its timeout. */
export function useInstantFind() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TInstantFindRequest) => requestApi({ method: 'POST', path: '/email_finder/instant', body, schema: ZInstantFindData }),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: finderQueryKeys.history });
      void queryClient.invalidateQueries({ queryKey: userQueryKeys.creditsAndLimits });
    },
  });
}

/** GET /email_finder/instant/queue_status?qid, polled until the search completed or failed. */
export function useInstantQueueStatus(qid: string | null) {
  return useQuery({
    queryKey: finderQueryKeys.queue(qid ?? ''),
    queryFn: ({ signal }) => requestApi({ path: '/email_finder/instant/queue_status', query: { qid: qid ?? '' }, schema: ZQueueStatusData, signal }),
    enabled: qid !== null,
    refetchInterval: (query) => (query.state.data && (query.state.data.state === 'completed' || query.state.data.state === 'failed') ? false : FINDER_POLL_MS),
    staleTime: 0,
  });
}

export type TFinderHistoryParams = { page: number; limit: number; search?: string; status?: TFinderStatus; from?: string; to?: string };

/** GET /email_finder/history: paged and filtered past finds. */
export function useFinderHistory(params: TFinderHistoryParams) {
  return useQuery({
    queryKey: [...finderQueryKeys.history, params],
    queryFn: ({ signal }) => requestApi({ path: '/email_finder/history', query: { ...params }, schema: ZFinderHistoryData, signal }),
    placeholderData: keepPreviousData,
  });
}

/** POST /email_finder/history/download: the prepared file (polled through the shared status while not final). */
export function startHistoryDownload(body: TFinderHistoryDownloadRequest, signal?: AbortSignal) {
  return requestApi({ method: 'POST', path: '/email_finder/history/download', body, schema: ZFinderDownloadData, signal });
}

/** POST /email_finder/download/result: the prepared result file. */
export function startFinderResultDownload(body: TFinderDownloadResultRequest, signal?: AbortSignal) {
  return requestApi({ method: 'POST', path: '/email_finder/download/result', body, schema: ZFinderDownloadData, signal });
}

/** POST /email_finder/list: paged, searched and sorted lists; polled while one of them is busy. */
export function useFinderLists(params: TFinderListsRequest) {
  return useQuery({
    queryKey: [...finderQueryKeys.lists, params],
    queryFn: ({ signal }) => requestApi({ method: 'POST', path: '/email_finder/list', body: params, schema: ZFinderListsData, signal }),
    placeholderData: keepPreviousData,
    refetchInterval: pollWhile((d: { items: Parameters<typeof isFinderListBusy>[0][] } | undefined) => d?.items.some(isFinderListBusy) ?? false, FINDER_POLL_MS * 2),
  });
}

/** One list (POST /email_finder/list with list_id); polled while its job runs. */
export function useFinderList(listId: string) {
  return useQuery({
    queryKey: finderQueryKeys.list(listId),
    queryFn: async ({ signal }) => {
      const page = await requestApi({ method: 'POST', path: '/email_finder/list', body: { list_id: listId, page: 1, limit: 25 }, schema: ZFinderListsData, signal });
      const list = page.items[0];
      if (!list) throw new Error('This list does not exist or was removed.');
      return ZFinderList.parse(list);
    },
    refetchInterval: pollWhile((d: Parameters<typeof isFinderListBusy>[0] | undefined) => d !== undefined && isFinderListBusy(d), FINDER_POLL_MS),
  });
}

/** GET /email_finder/bulk/progress_status?list_id, polled while `enabled`. */
export function useFinderProgress(listId: string, enabled: boolean) {
  return useQuery({
    queryKey: finderQueryKeys.progress(listId),
    queryFn: ({ signal }) => requestApi({ path: '/email_finder/bulk/progress_status', query: { list_id: listId }, schema: ZFinderProgressData, signal }),
    enabled,
    refetchInterval: enabled ? FINDER_POLL_MS : false,
    staleTime: 0,
  });
}

/** POST /email_finder/bulk_upload/check_duplicate. */
export function checkFinderDuplicate(fileName: string) {
  return requestApi({ method: 'POST', path: '/email_finder/bulk_upload/check_duplicate', body: { file_name: fileName }, schema: ZFinderCheckDuplicateData });
}

function useFinderListMutation(path: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (listId: string) => requestApi({ method: 'POST', path, body: { list_id: listId } }),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: finderQueryKeys.all });
      void queryClient.invalidateQueries({ queryKey: userQueryKeys.creditsAndLimits });
    },
  });
}

/** POST /email_finder/list/find_emails: starts (or resumes) the search; 402 when out of credits. */
export function useFindEmails() {
  return useFinderListMutation('/email_finder/list/find_emails');
}

/** POST /email_finder/list/cancel: stops the job; only what finished is billed. */
export function useCancelFinderList() {
  return useFinderListMutation('/email_finder/list/cancel');
}

/** POST /email_finder/list/remove. */
export function useRemoveFinderList() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (listId: string) => requestApi({ method: 'POST', path: '/email_finder/list/remove', body: { list_id: listId }, schema: ZMessageData }),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: finderQueryKeys.all }),
  });
}
