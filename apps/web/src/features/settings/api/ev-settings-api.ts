import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  ZEvSettings,
  ZUserPreferences,
  ZWbListData,
  type TAccuracyRequest,
  type TAutopilotRequest,
  type TEvSettings,
  type TGibberishThresholdRequest,
  type TWbListType,
  type TWbListUpdateRequest,
} from '@verilead/contracts';
import { requestApi } from '../../../lib/api-client';
import { userQueryKeys } from '../../../lib/user-queries';

const EV = '/user_preferences/email_verification_settings';

export const settingsQueryKeys = {
  wbList: ['settings', 'wb-list'] as const,
};

type TEvUpdate =
  | { path: 'autopilot'; body: TAutopilotRequest }
  | { path: 'accuracy'; body: TAccuracyRequest }
  | { path: 'gibberish_threshold'; body: TGibberishThresholdRequest };

/** PUT one of the ev-settings calls; the answer (with setting_last_modified_on) replaces the cached settings. */
export function useEvSettingsUpdate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (update: TEvUpdate) => requestApi({ method: 'PUT', path: `${EV}/${update.path}`, body: update.body, schema: ZEvSettings }),
    onSuccess: (settings: TEvSettings) => {
      queryClient.setQueryData(userQueryKeys.preferences, (current: unknown) => {
        const parsed = ZUserPreferences.safeParse(current);
        return parsed.success ? { ...parsed.data, ev_settings: settings } : current;
      });
    },
  });
}

/** GET the allow / block list, paged and searchable. */
export function useWbList(query: { list_type: TWbListType; search?: string; page: number; limit: number }) {
  return useQuery({
    queryKey: [...settingsQueryKeys.wbList, query],
    queryFn: ({ signal }) => requestApi({ path: `${EV}/wb_list`, query: { ...query }, schema: ZWbListData, signal }),
    placeholderData: keepPreviousData,
  });
}

/** PUT wb_list: add or remove entries. */
export function useWbListUpdate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TWbListUpdateRequest) => requestApi({ method: 'PUT', path: `${EV}/wb_list`, body, schema: ZWbListData }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: settingsQueryKeys.wbList }),
  });
}
