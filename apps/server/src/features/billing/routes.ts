import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZBuyCreditsInfoResponse,
  ZBuyCreditsRequest,
  ZCardRef,
  ZCardResponse,
  ZCardsResponse,
  ZConfirmPaymentIntentRequest,
  ZCouponApplyRequest,
  ZCouponApplyResponse,
  ZCouponHistoryQuery,
  ZCouponHistoryResponse,
  ZDefaultCardResponse,
  ZInvoiceDownloadQuery,
  ZInvoiceListQuery,
  ZMessageData,
  ZPaymentIntentResponse,
  ZPaymentListResponse,
  ZPaymentOutcomeResponse,
  ZPaymentRef,
  ZPaymentResponse,
  ZPlanQuery,
  ZPlansResponse,
  ZPriceCompareQuery,
  ZPriceCompareResponse,
  ZPriceQuery,
  ZPriceResponse,
  ZPriceSlabQuery,
  ZPriceSlabResponse,
  ZSetupIntentConfirmRequest,
  ZSetupIntentResponse,
  ZSubscriptionCancelQuery,
  ZSubscriptionResponse,
  ZSuccess,
  ZUpgradeQuery,
  ZPlanPreviewQuery,
  ZPlanPreviewResponse,
  ZPlanStatusResponse,
  ZBillingDetails,
  ZBillingDetailsResponse,
  ZSetupIntentCreateRequest,
  ZPayPalOrderRef,
  ZPayPalOrderResponse,
  ZPayPalPlanRequest,
  ZPayPalPlanResponse,
  ZPayPalSubscriptionCreateResponse,
  ZPayPalSubscriptionRef,
  ZPayPalVerifyResponse,
} from '@verilead/contracts';
import { getCaller, type TGuards } from '../../platform/auth/guards';
import type { TDeps } from '../../platform/deps';
import { ok, withErrorResponses } from '../../platform/http/responses';
import { buyWithDefaultCard, cancelPayment, confirmPayment, confirmPaymentIntent, createPaymentIntent, getBuyCreditsInfo, requestInvoice } from './buy-credits';
import { addCard, confirmSetupIntent, createSetupIntent, deleteCard, getDefaultCard, listCards, setDefaultCard } from './cards';
import { applyCoupon, listCouponHistory } from './coupons';
import { listPayments, renderPaymentDocument } from './documents';
import { comparePrices, getPrice, getSlabs, listPlans } from './pricing-service';
import { stripeAvailable } from './stripe-gateway';
import { registerPayPalWebhookRoute, registerStripeWebhookRoute } from './webhook-route';
import { cancelSubscription } from './subscriptions';
import { confirmPlanChange, getPlanStatus, previewPlanChange, resumeSubscription } from './plan-change';
import { getBillingDetails, saveBillingDetails } from './billing-details';
import { activatePayPalSubscription, capturePayPalOrder, createPayPalOrder, createPayPalSubscription, getPayPalPlan, verifyPayPalOrder } from './paypal-service';
import { paypalAvailable } from './paypal-client';

const ZMessageResponse = ZSuccess(ZMessageData);

export function registerBillingRoutes(app: FastifyInstance, deps: TDeps, guards: TGuards) {
  if (!stripeAvailable(deps.config) && !paypalAvailable(deps.config)) {
    app.log.warn('Payments are not configured: no Stripe or PayPal keys, and test mode is off (NODE_ENV=production, or a HOST beyond loopback, without PAYMENTS_TEST_MODE=true).');
  }
  app.addHook('onClose', async () => {
    await deps.payments.stripe.close();
    await deps.payments.paypal.close();
  });
  const db = deps.database.db;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const auth = { onRequest: guards.requireAuth };
  const pay = { tags: ['payment'], security: [{ bearer: [] }] };
  const price = { tags: ['pricing'], security: [{ bearer: [] }] };

  // ----- pricing -----
  r.get('/price/slab', { ...auth, schema: { ...price, summary: 'Price slabs of a currency', querystring: ZPriceSlabQuery, response: withErrorResponses({ 200: ZPriceSlabResponse }) } }, async (req) =>
    ok(await getSlabs(db, req.query.currency)),
  );
  r.get('/price', { ...auth, schema: { ...price, summary: 'Price of a number of credits (tax and coupon included)', querystring: ZPriceQuery, response: withErrorResponses({ 200: ZPriceResponse }) } }, async (req) =>
    ok(await getPrice(db, getCaller(req), req.query)),
  );
  r.get('/price/products', { ...auth, schema: { ...price, summary: 'Plans on sale', querystring: ZPlanQuery, response: withErrorResponses({ 200: ZPlansResponse }) } }, async (req) =>
    ok(await listPlans(db, req.query)),
  );
  r.get(
    '/price/compare',
    { ...auth, schema: { ...price, summary: 'One time against annual for the same credits', querystring: ZPriceCompareQuery, response: withErrorResponses({ 200: ZPriceCompareResponse }) } },
    async (req) => ok(await comparePrices(db, req.query)),
  );
  r.post('/coupon/apply', { ...auth, schema: { ...price, summary: 'Apply a coupon code', body: ZCouponApplyRequest, response: withErrorResponses({ 200: ZCouponApplyResponse }) } }, async (req) =>
    ok(await applyCoupon(deps, getCaller(req), req.body)),
  );
  r.get(
    '/coupon/history',
    { ...auth, schema: { ...price, summary: 'Coupons the organisation redeemed', querystring: ZCouponHistoryQuery, response: withErrorResponses({ 200: ZCouponHistoryResponse }) } },
    async (req) => ok(await listCouponHistory(db, getCaller(req), req.query)),
  );

  // ----- invoices and receipts -----
  r.get('/invoice/list', { ...auth, schema: { ...price, summary: 'Invoices', querystring: ZInvoiceListQuery, response: withErrorResponses({ 200: ZPaymentListResponse }) } }, async (req) =>
    ok(await listPayments(db, getCaller(req), 'invoices', req.query)),
  );
  r.get(
    '/invoice/pending_list',
    { ...auth, schema: { ...price, summary: 'Invoices waiting for payment', querystring: ZInvoiceListQuery, response: withErrorResponses({ 200: ZPaymentListResponse }) } },
    async (req) => ok(await listPayments(db, getCaller(req), 'pending', req.query)),
  );
  r.get('/receipt/list', { ...auth, schema: { ...price, summary: 'Receipts of paid invoices', querystring: ZInvoiceListQuery, response: withErrorResponses({ 200: ZPaymentListResponse }) } }, async (req) =>
    ok(await listPayments(db, getCaller(req), 'receipts', req.query)),
  );
  for (const kind of ['invoice', 'receipt'] as const) {
    r.get(
      `/${kind}/download`,
      { ...auth, schema: { ...price, summary: `Download the ${kind} as PDF`, querystring: ZInvoiceDownloadQuery, response: withErrorResponses({ 200: z.any() }) } },
      async (req, reply) => {
        const doc = await renderPaymentDocument(db, getCaller(req), req.query.id, kind);
        return reply
          .header('content-type', 'application/pdf')
          .header('content-disposition', `attachment; filename="${doc.fileName}"`)
          .header('cache-control', 'no-store')
          .send(doc.pdf);
      },
    );
  }

  // ----- payments -----
  r.get('/payment/buyCredits', { ...auth, schema: { ...pay, summary: 'What the buy-credits modal needs', response: withErrorResponses({ 200: ZBuyCreditsInfoResponse }) } }, async (req) =>
    ok(await getBuyCreditsInfo(deps, getCaller(req))),
  );
  r.post(
    '/payment/getPaymentIntent',
    { ...auth, schema: { ...pay, summary: 'Start buying credits: a payment and its checkout page', body: ZBuyCreditsRequest, response: withErrorResponses({ 200: ZPaymentIntentResponse }) } },
    async (req) => ok(await createPaymentIntent(deps, getCaller(req), req.body)),
  );
  r.post(
    '/payment/confirmPaymentIntent',
    { ...auth, schema: { ...pay, summary: 'Pay a payment or pending invoice with a card', body: ZConfirmPaymentIntentRequest, response: withErrorResponses({ 200: ZPaymentOutcomeResponse }) } },
    async (req) => ok(await confirmPaymentIntent(deps, getCaller(req), req.body)),
  );
  r.post('/payment/buy', { ...auth, schema: { ...pay, summary: 'Buy credits with the default card', body: ZBuyCreditsRequest, response: withErrorResponses({ 200: ZPaymentOutcomeResponse }) } }, async (req) =>
    ok(await buyWithDefaultCard(deps, getCaller(req), req.body)),
  );
  r.post(
    '/payment/buy/request',
    { ...auth, schema: { ...pay, summary: 'Ask for an invoice to pay later', body: ZBuyCreditsRequest, response: withErrorResponses({ 200: ZPaymentResponse }) } },
    async (req) => ok(await requestInvoice(deps, getCaller(req), req.body)),
  );
  r.post(
    '/payment/confirm',
    { ...auth, schema: { ...pay, summary: 'Settle a payment after the checkout page', body: ZPaymentRef, response: withErrorResponses({ 200: ZPaymentOutcomeResponse }) } },
    async (req) => ok(await confirmPayment(deps, getCaller(req), req.body)),
  );
  r.patch('/payment/cancel', { ...auth, schema: { ...pay, summary: 'Cancel an unpaid payment', body: ZPaymentRef, response: withErrorResponses({ 200: ZPaymentOutcomeResponse }) } }, async (req) =>
    ok(await cancelPayment(deps, getCaller(req), req.body)),
  );

  // ----- cards -----
  r.get('/payment/cards', { ...auth, schema: { ...pay, summary: 'Saved cards', response: withErrorResponses({ 200: ZCardsResponse }) } }, async (req) => ok(await listCards(deps, getCaller(req))));
  r.post('/payment/card/add', { ...auth, schema: { ...pay, summary: 'Save a card', body: ZCardRef, response: withErrorResponses({ 200: ZCardResponse }) } }, async (req) =>
    ok(await addCard(deps, getCaller(req), req.body)),
  );
  r.post('/payment/card/delete', { ...auth, schema: { ...pay, summary: 'Remove a card', body: ZCardRef, response: withErrorResponses({ 200: ZMessageResponse }) } }, async (req) =>
    ok(await deleteCard(deps, getCaller(req), req.body)),
  );
  r.post('/payment/card/default', { ...auth, schema: { ...pay, summary: 'Make a card the default', body: ZCardRef, response: withErrorResponses({ 200: ZCardResponse }) } }, async (req) =>
    ok(await setDefaultCard(deps, getCaller(req), req.body)),
  );
  r.post('/payment/defaultcard', { ...auth, schema: { ...pay, summary: 'The default card', response: withErrorResponses({ 200: ZDefaultCardResponse }) } }, async (req) =>
    ok(await getDefaultCard(deps, getCaller(req))),
  );
  r.post(
    '/payment/setup_intent/create',
    { ...auth, schema: { ...pay, summary: 'Start saving a card (on the checkout page), coming back to the billing, pricing or plan screen', body: ZSetupIntentCreateRequest.nullish(), response: withErrorResponses({ 200: ZSetupIntentResponse }) } },
    async (req) => ok(await createSetupIntent(deps, getCaller(req), req.body ?? {})),
  );
  r.post(
    '/payment/setup_intent/confirm',
    { ...auth, schema: { ...pay, summary: 'Finish saving a card', body: ZSetupIntentConfirmRequest, response: withErrorResponses({ 200: ZCardResponse }) } },
    async (req) => ok(await confirmSetupIntent(deps, getCaller(req), req.body)),
  );

  // ----- subscriptions -----
  r.get(
    '/payment/upgrade',
    { ...auth, schema: { ...pay, summary: 'Subscribe to a plan or change plan (prorated), charged to the default card', querystring: ZUpgradeQuery, response: withErrorResponses({ 200: ZPaymentOutcomeResponse }) } },
    async (req) => ok(await confirmPlanChange(deps, getCaller(req), req.query)),
  );
  r.get(
    '/payment/upgrade/preview',
    { ...auth, schema: { ...pay, summary: 'What subscribing or changing plan charges today (proration included), before any charge', querystring: ZPlanPreviewQuery, response: withErrorResponses({ 200: ZPlanPreviewResponse }) } },
    async (req) => ok(await previewPlanChange(deps, getCaller(req), req.query)),
  );
  r.get(
    '/payment/subscription/resume',
    { ...auth, schema: { ...pay, summary: 'Resume a subscription set to end at the period end', response: withErrorResponses({ 200: ZSubscriptionResponse }) } },
    async (req) => ok(await resumeSubscription(deps, getCaller(req))),
  );
  r.get('/payment/plan', { ...auth, schema: { ...pay, summary: 'The organisation plan: period, renewal or end, payment method', response: withErrorResponses({ 200: ZPlanStatusResponse }) } }, async (req) =>
    ok(await getPlanStatus(deps, getCaller(req))),
  );
  r.get('/payment/billing_details', { ...auth, schema: { ...pay, summary: 'The billing details invoices print', response: withErrorResponses({ 200: ZBillingDetailsResponse }) } }, async (req) =>
    ok(await getBillingDetails(db, getCaller(req))),
  );
  r.post(
    '/payment/billing_details',
    { ...auth, schema: { ...pay, summary: 'Set the billing details invoices print (name, address, tax id)', body: ZBillingDetails, response: withErrorResponses({ 200: ZBillingDetailsResponse }) } },
    async (req) => ok(await saveBillingDetails(db, getCaller(req), req.body)),
  );
  r.get(
    '/payment/subscription/cancel',
    { ...auth, schema: { ...pay, summary: 'Cancel the subscription at the end of the period, with a reason', querystring: ZSubscriptionCancelQuery, response: withErrorResponses({ 200: ZSubscriptionResponse }) } },
    async (req) => ok(await cancelSubscription(deps, getCaller(req), req.query)),
  );

  // ----- PayPal -----
  r.post(
    '/payment/paypal/order/create',
    { ...auth, schema: { ...pay, summary: 'Start buying credits with PayPal (USD): an order to approve', body: ZBuyCreditsRequest, response: withErrorResponses({ 200: ZPayPalOrderResponse }) } },
    async (req) => ok(await createPayPalOrder(deps, getCaller(req), req.body)),
  );
  r.post('/payment/paypal/verify', { ...auth, schema: { ...pay, summary: 'The state of a PayPal order', body: ZPayPalOrderRef, response: withErrorResponses({ 200: ZPayPalVerifyResponse }) } }, async (req) =>
    ok(await verifyPayPalOrder(deps, getCaller(req), req.body)),
  );
  r.post(
    '/payment/paypal/capture',
    { ...auth, schema: { ...pay, summary: 'Capture an approved PayPal order (credits granted once)', body: ZPayPalOrderRef, response: withErrorResponses({ 200: ZPaymentOutcomeResponse }) } },
    async (req) => ok(await capturePayPalOrder(deps, getCaller(req), req.body)),
  );
  r.post(
    '/payment/paypal/plan/subscription',
    { ...auth, schema: { ...pay, summary: 'The PayPal billing plan of a plan', body: ZPayPalPlanRequest, response: withErrorResponses({ 200: ZPayPalPlanResponse }) } },
    async (req) => ok(await getPayPalPlan(deps, req.body)),
  );
  r.post(
    '/payment/paypal/create/subscription',
    { ...auth, schema: { ...pay, summary: 'Start a PayPal subscription to approve', body: ZPayPalPlanRequest, response: withErrorResponses({ 200: ZPayPalSubscriptionCreateResponse }) } },
    async (req) => ok(await createPayPalSubscription(deps, getCaller(req), req.body)),
  );
  r.post(
    '/payment/paypal/subscription',
    { ...auth, schema: { ...pay, summary: 'Activate an approved PayPal subscription', body: ZPayPalSubscriptionRef, response: withErrorResponses({ 200: ZPaymentOutcomeResponse }) } },
    async (req) => ok(await activatePayPalSubscription(deps, getCaller(req), req.body)),
  );

  registerStripeWebhookRoute(app, deps);
  registerPayPalWebhookRoute(app, deps);
}
