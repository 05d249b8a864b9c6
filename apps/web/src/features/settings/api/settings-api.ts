import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ZLowCreditAlert, type TLowCreditAlertUpdateRequest } from '@verilead/contracts';
import { requestApi } from '../../../lib/api-client';
import { userQueryKeys } from '../../../lib/user-queries';

/** POST /user/low_credit_alert/update (own alert) or /admin/low_credit_alert/update (organisation alert). */
export function useLowCreditAlertUpdate(scope: 'user' | 'admin') {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TLowCreditAlertUpdateRequest) =>
      requestApi({ method: 'POST', path: `/${scope}/low_credit_alert/update`, body, schema: ZLowCreditAlert }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: userQueryKeys.creditsAndLimits }),
  });
}
