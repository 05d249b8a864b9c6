import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  ZOrgDefaultSettings,
  ZOrgDefaultSettingsChangeData,
  type TOrgEfSettingsRequest,
  type TOrgEvSettingsRequest,
  type TOrgProspectSettingsRequest,
} from '@verilead/contracts';
import { requestApi } from '../../../lib/api-client';

export const adminSettingsQueryKey = ['admin', 'settings'] as const;

/** GET /admin/settings: the organisation defaults members inherit. */
export function useOrgDefaultSettings() {
  return useQuery({
    queryKey: adminSettingsQueryKey,
    queryFn: ({ signal }) => requestApi({ path: '/admin/settings', schema: ZOrgDefaultSettings, signal }),
  });
}

export type TOrgSettingsChange =
  | { section: 'email_verifier'; body: TOrgEvSettingsRequest }
  | { section: 'email_finder'; body: TOrgEfSettingsRequest }
  | { section: 'prospect'; body: TOrgProspectSettingsRequest };

/** PUT /admin/settings/{section}: answers the whole defaults, which replace the cached ones. */
export function useUpdateOrgDefaultSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: TOrgSettingsChange) =>
      requestApi({ method: 'PUT', path: `/admin/settings/${change.section}`, body: change.body, schema: ZOrgDefaultSettingsChangeData }),
    onSuccess: ({ message: _message, ...settings }) => queryClient.setQueryData(adminSettingsQueryKey, settings),
  });
}
