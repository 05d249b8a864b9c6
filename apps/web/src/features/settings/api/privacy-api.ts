import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ZDataRetention, ZDownload, type TDataRetentionUpdateRequest, type TOrganisationDeleteRequest } from '@verilead/contracts';
import { requestApi } from '../../../lib/api-client';

const RETENTION = '/user_preferences/data_retention';
export const privacyQueryKeys = { retention: ['settings', 'data-retention'] as const };

/** GET /user_preferences/data_retention (owner): how long files and results are kept. */
export function useDataRetention(enabled: boolean) {
  return useQuery({
    queryKey: privacyQueryKeys.retention,
    queryFn: ({ signal }) => requestApi({ path: RETENTION, schema: ZDataRetention, signal }),
    enabled,
  });
}

/** PUT /user_preferences/data_retention (owner). */
export function useDataRetentionUpdate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TDataRetentionUpdateRequest) => requestApi({ method: 'PUT', path: RETENTION, body, schema: ZDataRetention }),
    onSuccess: (saved) => queryClient.setQueryData(privacyQueryKeys.retention, saved),
  });
}

/** POST /user_preferences/data_export (owner): queues the organisation's archive; poll it like any download. */
export function requestOrganisationExport(signal?: AbortSignal) {
  return requestApi({ method: 'POST', path: '/user_preferences/data_export', schema: ZDownload, signal });
}

/** POST /user_preferences/organisation/delete (owner): the organisation and all its data are deleted. */
export function useDeleteOrganisation() {
  return useMutation({
    mutationFn: (body: TOrganisationDeleteRequest) => requestApi({ method: 'POST', path: '/user_preferences/organisation/delete', body }),
  });
}
