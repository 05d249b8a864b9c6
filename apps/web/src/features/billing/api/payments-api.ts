import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import {
  API_BASE_PATH,
  APP_VERSION,
  APP_VERSION_HEADER,
  ZBuyCreditsInfoData,
  ZCard,
  ZCardsResponse,
  ZCouponApplyData,
  ZCouponHistoryData,
  ZFailure,
  ZPayment,
  ZPaymentIntentData,
  ZPaymentOutcomeData,
  ZPlan,
  ZPriceCompareData,
  ZPriceQuote,
  ZPriceSlabData,
  ZSetupIntentData,
  ZSubscription,
  ZPayPalOrderResponse,
  type TCurrency,
} from '@verilead/contracts';
import { requestApi } from '../../../lib/api-client';
import { readFileName, saveBlob } from '../../../lib/fetch-download';
import { getSessionToken } from '../../../lib/session-store';
import { userQueryKeys } from '../../../lib/user-queries';

export const billingKeys = {
  info: ['billing', 'info'] as const,
  slabs: ['billing', 'slabs'] as const,
  price: ['billing', 'price'] as const,
  compare: ['billing', 'compare'] as const,
  plans: ['billing', 'plans'] as const,
  cards: ['billing', 'cards'] as const,
  payments: ['billing', 'payments'] as const,
  coupons: ['billing', 'coupons'] as const,
  planStatus: ['billing', 'plan-status'] as const,
  planPreview: ['billing', 'plan-preview'] as const,
  billingDetails: ['billing', 'details'] as const,
};

const ZCardsData = ZCardsResponse.shape.data;
const ZPaymentList = z.object({ items: z.array(ZPayment), total: z.number() });

export function useBuyCreditsInfo(enabled = true) {
  return useQuery({ queryKey: billingKeys.info, queryFn: ({ signal }) => requestApi({ path: '/payment/buyCredits', schema: ZBuyCreditsInfoData, signal }), enabled });
}

export function usePriceSlabs(currency: TCurrency) {
  return useQuery({ queryKey: [...billingKeys.slabs, currency], queryFn: ({ signal }) => requestApi({ path: '/price/slab', query: { currency }, schema: ZPriceSlabData, signal }) });
}

/** GET /price: the quote for a valid number of credits (disabled until then). */
export function usePriceQuote(credits: number | null, currency: TCurrency, couponCode?: string) {
  return useQuery({
    queryKey: [...billingKeys.price, credits, currency, couponCode ?? ''],
    queryFn: ({ signal }) => requestApi({ path: '/price', query: { credits, currency, coupon_code: couponCode || undefined }, schema: ZPriceQuote, signal }),
    enabled: credits !== null,
    placeholderData: keepPreviousData,
    retry: false,
  });
}

export function usePriceCompare(credits: number | null, currency: TCurrency) {
  return useQuery({
    queryKey: [...billingKeys.compare, credits, currency],
    queryFn: ({ signal }) => requestApi({ path: '/price/compare', query: { credits, currency }, schema: ZPriceCompareData, signal }),
    enabled: credits !== null,
    placeholderData: keepPreviousData,
    retry: false,
  });
}

export function usePlans(currency: TCurrency) {
  return useQuery({
    queryKey: [...billingKeys.plans, currency],
    queryFn: ({ signal }) => requestApi({ path: '/price/products', query: { currency }, schema: z.object({ items: z.array(ZPlan) }), signal }),
  });
}

/** POST /payment/getPaymentIntent: the browser then completes the payment on the checkout page. */
export function useStartPayment() {
  return useMutation({
    mutationFn: (body: { credits: number; currency: TCurrency; coupon_code?: string }) =>
      requestApi({ method: 'POST', path: '/payment/getPaymentIntent', body, schema: ZPaymentIntentData }),
  });
}

/** POST /payment/confirm: settles a payment after the checkout page; refreshes the balance. */
export function useConfirmPayment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (paymentId: string) => requestApi({ method: 'POST', path: '/payment/confirm', body: { payment_id: paymentId }, schema: ZPaymentOutcomeData }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: userQueryKeys.creditsAndLimits });
      void queryClient.invalidateQueries({ queryKey: billingKeys.payments });
    },
  });
}

export function useCards() {
  return useQuery({ queryKey: billingKeys.cards, queryFn: ({ signal }) => requestApi({ path: '/payment/cards', schema: ZCardsData, signal }) });
}

function useCardMutation(path: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (paymentMethod: string) => requestApi({ method: 'POST', path, body: { payment_method: paymentMethod }, schema: path === '/payment/card/delete' ? undefined : ZCard }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: billingKeys.cards }),
  });
}

export const useSetDefaultCard = () => useCardMutation('/payment/card/default');
export const useDeleteCard = () => useCardMutation('/payment/card/delete');

export function useStartSetupIntent() {
  return useMutation({
    mutationFn: (body: { return_to?: 'billing' | 'pricing' | 'plan'; plan_id?: string } | void) =>
      requestApi({ method: 'POST', path: '/payment/setup_intent/create', body: body ?? {}, schema: ZSetupIntentData }),
  });
}

export function useConfirmSetupIntent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (setupIntentId: string) => requestApi({ method: 'POST', path: '/payment/setup_intent/confirm', body: { setup_intent_id: setupIntentId }, schema: ZCard }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: billingKeys.cards }),
  });
}

export function usePaymentList(which: 'invoice/list' | 'invoice/pending_list' | 'receipt/list', page: number, limit: number) {
  return useQuery({
    queryKey: [...billingKeys.payments, which, page, limit],
    queryFn: ({ signal }) => requestApi({ path: `/${which}`, query: { page, limit }, schema: ZPaymentList, signal }),
    placeholderData: keepPreviousData,
  });
}

export function useApplyCoupon() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { code: string }) => requestApi({ method: 'POST', path: '/coupon/apply', body, schema: ZCouponApplyData }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: userQueryKeys.creditsAndLimits });
      void queryClient.invalidateQueries({ queryKey: billingKeys.coupons });
    },
  });
}

/** GET /coupon/history: the coupons the organisation redeemed, newest first. */
export function useCouponHistory(page: number, limit: number) {
  return useQuery({
    queryKey: [...billingKeys.coupons, page, limit],
    queryFn: ({ signal }) => requestApi({ path: '/coupon/history', query: { page, limit }, schema: ZCouponHistoryData, signal }),
    placeholderData: keepPreviousData,
  });
}

/** Downloads an invoice or receipt PDF with the session's token. */
export async function downloadPaymentDocument(kind: 'invoice' | 'receipt', id: string): Promise<void> {
  const token = getSessionToken();
  const res = await fetch(`${API_BASE_PATH}/${kind}/download?id=${encodeURIComponent(id)}`, {
    headers: { [APP_VERSION_HEADER]: APP_VERSION, ...(token ? { authorization: `Bearer ${token}` } : {}) },
  });
  if (!res.ok) {
    const parsed = ZFailure.safeParse(await res.json().catch(() => null));
    throw new Error(parsed.success ? parsed.data.error.message : `The ${kind} could not be downloaded.`);
  }
  saveBlob(await res.blob(), readFileName(res.headers.get('content-disposition'), `${kind}.pdf`));
}

/** POST /payment/paypal/order/create: the browser then approves the order on PayPal's page. */
export function useStartPayPalOrder() {
  return useMutation({
    mutationFn: (body: { credits: number; currency: TCurrency; coupon_code?: string }) =>
      requestApi({ method: 'POST', path: '/payment/paypal/order/create', body, schema: ZPayPalOrderResponse.shape.data }),
  });
}

/** After PayPal's page: captures the order (`token`) or activates the subscription, then reads the payment. */
export async function settlePayPalReturn(params: URLSearchParams): Promise<void> {
  const subscriptionId = params.get('subscription_id');
  const orderId = params.get('token');
  if (subscriptionId) await requestApi({ method: 'POST', path: '/payment/paypal/subscription', body: { subscription_id: subscriptionId }, schema: ZPaymentOutcomeData });
  else if (orderId) await requestApi({ method: 'POST', path: '/payment/paypal/capture', body: { order_id: orderId }, schema: ZPaymentOutcomeData });
}

export function useRefreshAfterPlanChange() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: userQueryKeys.currentPlan });
    void queryClient.invalidateQueries({ queryKey: userQueryKeys.creditsAndLimits });
    void queryClient.invalidateQueries({ queryKey: billingKeys.payments });
    void queryClient.invalidateQueries({ queryKey: billingKeys.planStatus });
    void queryClient.invalidateQueries({ queryKey: billingKeys.planPreview });
  };
}

/** GET /payment/upgrade: subscribes or changes plan, charged to the default card. */
export function useUpgradePlan() {
  const refresh = useRefreshAfterPlanChange();
  return useMutation({
    // The amount the person confirmed goes with the change: the server charges nothing when it would now differ.
    mutationFn: (v: { planId: string; expectedAmount: number; prorationDate: number | null }) =>
      requestApi({ path: '/payment/upgrade', query: { plan_id: v.planId, expected_amount: v.expectedAmount, proration_date: v.prorationDate ?? undefined }, schema: ZPaymentOutcomeData }),
    onSuccess: refresh,
  });
}

/** GET /payment/subscription/cancel: the plan ends with its paid period. */
export function useCancelSubscription() {
  const refresh = useRefreshAfterPlanChange();
  return useMutation({
    mutationFn: (reason: string) => requestApi({ path: '/payment/subscription/cancel', query: { reason }, schema: ZSubscription }),
    onSuccess: refresh,
  });
}
