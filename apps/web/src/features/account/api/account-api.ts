import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  ZApiKeyData,
  ZEmailEditData,
  ZUserProfile,
  type TAddressEditRequest,
  type TDeleteAccountRequest,
  type TEmailEditRequest,
  type TNameEditRequest,
  type TPasswordEditRequest,
  type TPhoneEditRequest,
  type TTimezoneEditRequest,
  type TUserProfile,
} from '@verilead/contracts';
import { requestApi } from '../../../lib/api-client';
import { useSessionStore } from '../../../lib/session-store';
import { userQueryKeys } from '../../../lib/user-queries';

type TProfileEdit =
  | { path: '/user/name/edit'; body: TNameEditRequest }
  | { path: '/user/phone/edit'; body: TPhoneEditRequest }
  | { path: '/user/address/edit'; body: TAddressEditRequest }
  | { path: '/user/timezone/edit'; body: TTimezoneEditRequest };

/** The single-field edits that answer the updated profile; the session store takes the new values. */
export function useProfileEdit() {
  const queryClient = useQueryClient();
  const updateFromProfile = useSessionStore((state) => state.updateFromProfile);
  return useMutation({
    mutationFn: (edit: TProfileEdit) => requestApi({ method: 'POST', path: edit.path, body: edit.body, schema: ZUserProfile }),
    onSuccess: (profile: TUserProfile) => {
      updateFromProfile(profile);
      queryClient.setQueryData(userQueryKeys.profile, profile);
    },
  });
}

/** POST /user/email/edit: the new address must be confirmed from the link mailed to it. */
export function useEmailEdit() {
  const queryClient = useQueryClient();
  const setPendingEmail = useSessionStore((state) => state.setPendingEmail);
  return useMutation({
    mutationFn: (body: TEmailEditRequest) => requestApi({ method: 'POST', path: '/user/email/edit', body, schema: ZEmailEditData }),
    onSuccess: (data) => {
      setPendingEmail(data.pending_email);
      void queryClient.invalidateQueries({ queryKey: userQueryKeys.profile });
    },
  });
}

export function usePasswordEdit() {
  const queryClient = useQueryClient();
  const setHasPassword = useSessionStore((state) => state.setHasPassword);
  return useMutation({
    mutationFn: (body: TPasswordEditRequest) => requestApi({ method: 'POST', path: '/user/password/edit', body }),
    onSuccess: () => {
      setHasPassword(true);
      void queryClient.invalidateQueries({ queryKey: userQueryKeys.profile });
    },
  });
}

/** GET /user/generateapikey: creates (or rotates) the key; the full key is only in this answer. */
export function useGenerateApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => requestApi({ path: '/user/generateapikey', schema: ZApiKeyData }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: userQueryKeys.profile }),
  });
}

/** PATCH /user/account: deletes the account; the caller signs out afterwards. */
export function useDeleteAccount() {
  return useMutation({
    mutationFn: (body: TDeleteAccountRequest) => requestApi({ method: 'PATCH', path: '/user/account', body }),
  });
}
