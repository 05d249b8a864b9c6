import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ZBillingDetailsResponse, ZPlanPreview, ZPlanStatus, ZSubscription, type TBillingDetails } from '@verilead/contracts';
import { requestApi } from '../../../lib/api-client';
import { billingKeys, useRefreshAfterPlanChange } from './payments-api';

/** GET /payment/upgrade/preview: what a plan charges today (proration included), fetched while the confirmation is open. */
export function usePlanPreview(planId: string | null) {
  return useQuery({
    queryKey: [...billingKeys.planPreview, planId],
    queryFn: ({ signal }) => requestApi({ path: '/payment/upgrade/preview', query: { plan_id: planId! }, schema: ZPlanPreview, signal }),
    enabled: Boolean(planId),
    staleTime: 0,
    gcTime: 0,
  });
}

/** GET /payment/plan: the organisation's plan for the plan screen. */
export function usePlanStatus() {
  return useQuery({ queryKey: billingKeys.planStatus, queryFn: ({ signal }) => requestApi({ path: '/payment/plan', schema: ZPlanStatus, signal }) });
}

/** GET /payment/subscription/resume: a plan set to end renews again. */
export function useResumeSubscription() {
  const refresh = useRefreshAfterPlanChange();
  return useMutation({ mutationFn: () => requestApi({ path: '/payment/subscription/resume', schema: ZSubscription }), onSuccess: refresh });
}

const ZDetailsData = ZBillingDetailsResponse.shape.data;

export function useBillingDetails() {
  return useQuery({ queryKey: billingKeys.billingDetails, queryFn: ({ signal }) => requestApi({ path: '/payment/billing_details', schema: ZDetailsData, signal }) });
}

export function useSaveBillingDetails() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TBillingDetails) => requestApi({ method: 'POST', path: '/payment/billing_details', body, schema: ZDetailsData }),
    onSuccess: (data) => queryClient.setQueryData(billingKeys.billingDetails, data),
  });
}
