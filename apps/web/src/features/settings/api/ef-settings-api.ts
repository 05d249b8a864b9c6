import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ZEfSettings, ZUserPreferences, type TEfSettings, type TEfSettingsRequest } from '@verilead/contracts';
import { requestApi } from '../../../lib/api-client';
import { userQueryKeys } from '../../../lib/user-queries';

/** PUT /user_preferences/email_finder_settings; the answer (with setting_last_modified_on) replaces the cached ef_settings. */
export function useEfSettingsUpdate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TEfSettingsRequest) => requestApi({ method: 'PUT', path: '/user_preferences/email_finder_settings', body, schema: ZEfSettings }),
    onSuccess: (settings: TEfSettings) => {
      queryClient.setQueryData(userQueryKeys.preferences, (current: unknown) => {
        const parsed = ZUserPreferences.safeParse(current);
        return parsed.success ? { ...parsed.data, ef_settings: settings } : current;
      });
    },
  });
}
