import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  ZAddProfilesData,
  ZDownload,
  ZEnrichLeadsData,
  ZEnrichRequest,
  ZListDetailsData,
  ZListLeadsData,
  ZMessageData,
  ZProspectList,
  ZProspectListsData,
  ZProspectMetaData,
  ZProspectPeoplePage,
  ZProspectProfileData,
  ZProspectSearchData,
  ZPublicPersonData,
  ZRecentActivitiesData,
  ZRecentAddedData,
  ZRequestsData,
  ZReverseHistoryData,
  ZReverseLookupData,
  ZSavedSearch,
  ZSavedSearchesData,
  type TDownloadFileType,
  type TEnrichSettings,
  type TProspectFilters,
  type TProspectSearchRequest,
} from '@verilead/contracts';
import { requestApi } from '../../../lib/api-client';
import { pollWhile } from '../../../lib/poll-while';
import { userQueryKeys } from '../../../lib/user-queries';

export const PROSPECT_POLL_MS = 1_000;

export const prospectKeys = {
  all: ['prospect'] as const,
  search: (req: TProspectSearchRequest) => ['prospect', 'search', req] as const,
  meta: (filters: TProspectFilters) => ['prospect', 'meta', filters] as const,
  lists: (q: string, page: number) => ['prospect', 'lists', q, page] as const,
  list: (id: string) => ['prospect', 'list', id] as const,
  leads: (id: string, q: string, page: number) => ['prospect', 'leads', id, q, page] as const,
  filters: ['prospect', 'filters'] as const,
  profile: (kind: string, id: string) => ['prospect', 'profile', kind, id] as const,
  home: ['prospect', 'home'] as const,
  history: (kind: string) => ['reverse-lookup', 'history', kind] as const,
};

export function useProspectSearch(req: TProspectSearchRequest) {
  return useQuery({
    queryKey: prospectKeys.search(req),
    queryFn: ({ signal }) => requestApi({ method: 'POST', path: '/prospect/search', body: req, schema: ZProspectSearchData, signal }),
    placeholderData: keepPreviousData,
  });
}

/** Facet counts of a search: over people (people search) or companies (company search). */
export function useProspectMeta(filters: TProspectFilters, type: 'people' | 'companies' = 'people') {
  return useQuery({
    queryKey: [...prospectKeys.meta(filters), type],
    queryFn: ({ signal }) => requestApi({ path: '/prospect/search/meta', query: { filters: JSON.stringify(filters), type }, schema: ZProspectMetaData, signal }),
    placeholderData: keepPreviousData,
  });
}

export function useProfile(kind: 'person' | 'company', id: string) {
  return useQuery({
    queryKey: prospectKeys.profile(kind, id),
    queryFn: ({ signal }) =>
      requestApi({ method: 'POST', path: '/prospect/view', body: kind === 'person' ? { person_id: id } : { company_id: id }, schema: ZProspectProfileData, signal }),
  });
}

export function useCompanyPeople(companyId: string, page: number) {
  return useQuery({
    queryKey: ['prospect', 'company-people', companyId, page],
    queryFn: ({ signal }) => requestApi({ path: '/prospect/search/profiles', query: { company_id: companyId, page, limit: 25 }, schema: ZProspectPeoplePage, signal }),
    placeholderData: keepPreviousData,
  });
}

function useInvalidate() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: prospectKeys.all });
    void queryClient.invalidateQueries({ queryKey: userQueryKeys.creditsAndLimits });
  };
}

export function useEnrichLeads() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (body: { person_ids: string[]; options?: TEnrichSettings }) => requestApi({ method: 'POST', path: '/prospect/enrich', body, schema: ZEnrichLeadsData }),
    onSuccess: invalidate,
  });
}

export function useSavedSearches() {
  return useQuery({ queryKey: prospectKeys.filters, queryFn: ({ signal }) => requestApi({ path: '/prospect/search/filters', schema: ZSavedSearchesData, signal }) });
}

export function useSaveSearch() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (body: { name: string; filters: TProspectFilters }) => requestApi({ method: 'POST', path: '/prospect/search/save_filter', body, schema: ZSavedSearch }),
    onSuccess: invalidate,
  });
}

export function useRemoveSearch() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (filterId: string) => requestApi({ method: 'POST', path: '/prospect/search/remove_filter', body: { filter_id: filterId }, schema: ZMessageData }),
    onSuccess: invalidate,
  });
}

export function useProspectLists(q: string, page: number, limit = 25) {
  return useQuery({
    queryKey: prospectKeys.lists(q, page),
    queryFn: ({ signal }) => requestApi({ path: '/prospect/list', query: { q: q || undefined, page, limit }, schema: ZProspectListsData, signal }),
    placeholderData: keepPreviousData,
  });
}

export function useAddProfiles() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (body: { list_id?: string; list_name?: string; person_ids: string[] }) => requestApi({ method: 'POST', path: '/prospect/search/add_profiles', body, schema: ZAddProfilesData }),
    onSuccess: invalidate,
  });
}

export function useListDetails(listId: string) {
  return useQuery({
    queryKey: prospectKeys.list(listId),
    queryFn: ({ signal }) => requestApi({ path: '/prospect/list/details', query: { list_id: listId }, schema: ZListDetailsData, signal }),
    refetchInterval: pollWhile((d: { enrichment?: { state: string } | null } | undefined) => d?.enrichment?.state === 'queued' || d?.enrichment?.state === 'in_progress', PROSPECT_POLL_MS),
  });
}

export function useListLeads(listId: string, q: string, page: number, refreshKey: string) {
  return useQuery({
    queryKey: [...prospectKeys.leads(listId, q, page), refreshKey],
    queryFn: ({ signal }) => requestApi({ path: '/prospect/list/search/leads', query: { list_id: listId, q: q || undefined, page, limit: 25 }, schema: ZListLeadsData, signal }),
    placeholderData: keepPreviousData,
  });
}

export function useListMutations() {
  const invalidate = useInvalidate();
  const opts = { onSuccess: invalidate };
  return {
    rename: useMutation({ mutationFn: (b: { list_id: string; name: string }) => requestApi({ method: 'POST', path: '/prospect/list/update', body: b, schema: ZProspectList }), ...opts }),
    remove: useMutation({ mutationFn: (listId: string) => requestApi({ method: 'POST', path: '/prospect/list/remove', body: { list_id: listId }, schema: ZMessageData }), ...opts }),
    removeLead: useMutation({
      mutationFn: (b: { list_id: string; person_ids: string[] }) => requestApi({ method: 'POST', path: '/prospect/list/remove_lead', body: b }),
      ...opts,
    }),
    enrich: useMutation({
      mutationFn: (b: { list_id: string; cancel?: boolean; options?: TEnrichSettings }) => requestApi({ method: 'POST', path: '/prospect/list/enrich', body: b, schema: ZEnrichRequest }),
      ...opts,
    }),
    exportList: useMutation({
      mutationFn: (b: { list_id: string; file_type: TDownloadFileType }) => requestApi({ method: 'POST', path: '/prospect/list/export', body: b, schema: ZDownload }),
    }),
  };
}

export function useProspectHome() {
  return useQuery({
    queryKey: prospectKeys.home,
    queryFn: async ({ signal }) => {
      const [inProgress, requests, recent, activities] = await Promise.all([
        requestApi({ path: '/prospect/inprogress_requests', query: { page: 1, limit: 25 }, schema: ZRequestsData, signal }),
        requestApi({ path: '/prospect/requests', query: { page: 1, limit: 25 }, schema: ZRequestsData, signal }),
        requestApi({ path: '/prospect/recent_added', schema: ZRecentAddedData, signal }),
        requestApi({ path: '/prospect/recent_activities', schema: ZRecentActivitiesData, signal }),
      ]);
      return { inProgress, requests, recent, activities };
    },
    refetchInterval: pollWhile((d: { inProgress: { total: number } } | undefined) => (d?.inProgress.total ?? 0) > 0, PROSPECT_POLL_MS * 2),
  });
}

export function useReverseLookup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { email?: string; linkedin_url?: string }) => requestApi({ method: 'POST', path: '/reverse_lookup/person', body, schema: ZReverseLookupData }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['reverse-lookup'] });
      void queryClient.invalidateQueries({ queryKey: userQueryKeys.creditsAndLimits });
    },
  });
}

export function useReverseHistory(kind: 'email' | 'linkedin') {
  return useQuery({
    queryKey: prospectKeys.history(kind),
    queryFn: ({ signal }) => requestApi({ path: '/reverse_lookup/history', query: { kind, page: 1, limit: 25 }, schema: ZReverseHistoryData, signal }),
  });
}

export function usePublicLookup() {
  return useMutation({
    mutationFn: (body: { email?: string; linkedin_url?: string }) =>
      requestApi({ method: 'POST', path: body.email ? '/public/person/search_by_email' : '/public/person/search_by_linkedin', body, schema: ZPublicPersonData, auth: false }),
  });
}
