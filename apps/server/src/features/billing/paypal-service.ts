import type { TDeps } from '../../platform/deps';
import type { TCurrency } from '@verilead/contracts';
import { AppError } from '../../platform/errors/app-error';
import type { TCallerContext } from '../../platform/tenancy/context';
import { planPaymentFields } from './pricing';
import { insertPayment, selectOrgPaymentByRef, selectPayment, updatePayment, updateUnpaidStatus, type TPaymentRow } from './queries';
import { selectActivePlan, type TPlanRow } from './subscription-queries';
import { markPaid, newCreditsPayment, paymentOutcome, paymentToApi } from './payments';
import { approveLink, PayPalApiError, type TPayPalClient } from './paypal-client';
import { getPublicBaseUrl } from '../../platform/http/public-url';

function minorToValue(minor: number): string {
  return (minor / 100).toFixed(2);
}

async function callPayPal<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof PayPalApiError) {
      if (err.status === 404) throw new AppError('not_found', 'PayPal does not know this order or subscription.');
      if (err.issue === 'ORDER_NOT_APPROVED') throw new AppError('conflict', 'The order is not approved yet: finish on the PayPal page first.');
      if (err.issue === 'INSTRUMENT_DECLINED') throw new AppError('card_declined', 'PayPal declined the payment. Please choose another way to pay.');
      throw new AppError('payment_provider_error', 'PayPal could not complete the request. Please try again in a moment.');
    }
    if (err instanceof AppError) throw err;
    throw new AppError('payment_provider_error', 'PayPal could not be reached. Please try again in a moment.');
  }
}

async function paypalPayment(deps: TDeps, ctx: TCallerContext, ref: string): Promise<TPaymentRow> {
  const payment = await selectOrgPaymentByRef(deps.database.db, ctx.orgId, 'paypal', ref);
  if (!payment) throw new AppError('not_found', 'Payment not found');
  return payment;
}

function returnUrl(deps: TDeps, payment: TPaymentRow): string {
  return `${getPublicBaseUrl(deps.config)}/payment/thank-you?payment_id=${payment.id}&provider=paypal`;
}

/** POST /payment/paypal/order/create: a payment and its PayPal order (USD only); the buyer approves it on PayPal's page. */
export async function createPayPalOrder(deps: TDeps, ctx: TCallerContext, input: { credits: number; currency: TCurrency; coupon_code?: string }) {
  if (input.currency !== 'USD') throw new AppError('validation_failed', 'PayPal takes payments in USD only. Please pay INR by card.');
  const client = await deps.payments.paypal.get();
  const payment = await newCreditsPayment(deps, ctx, input, 'paypal');
  const back = returnUrl(deps, payment);
  const order = await callPayPal(() => client.createOrder({ paymentId: payment.id, description: `${payment.credits} Verilead credits`, value: minorToValue(payment.totalMinor), returnUrl: back }));
  await updatePayment(deps.database.db, payment.id, { providerRef: order.id });
  return { payment: paymentToApi(payment), order_id: order.id, approve_url: approveLink(order.links), test_mode: client.testMode };
}

/** POST /payment/paypal/verify: the order's state at PayPal. */
export async function verifyPayPalOrder(deps: TDeps, ctx: TCallerContext, input: { order_id: string }) {
  const payment = await paypalPayment(deps, ctx, input.order_id);
  const client = await deps.payments.paypal.get();
  const order = await callPayPal(() => client.getOrder(input.order_id));
  return { order_id: order.id, order_status: order.status, payment: paymentToApi(payment) };
}

/** POST /payment/paypal/capture: captures an approved order; the credits are granted once (a second capture changes nothing). */
export async function capturePayPalOrder(deps: TDeps, ctx: TCallerContext, input: { order_id: string }) {
  const payment = await paypalPayment(deps, ctx, input.order_id);
  if (payment.status === 'paid') return paymentOutcome(deps, ctx, payment.id, null);
  const client = await deps.payments.paypal.get();
  try {
    const order = await callPayPal(() => client.captureOrder(input.order_id, `capture-${payment.id}`));
    const amount = order.amount;
    if (order.status === 'COMPLETED' && amount?.currency_code === payment.currency && amount.value === minorToValue(payment.totalMinor)) await markPaid(deps.database, payment.id);
  } catch (err) {
    if (err instanceof AppError && err.code === 'card_declined') await updateUnpaidStatus(deps.database.db, payment.id, 'failed', err.message);
    throw err;
  }
  return paymentOutcome(deps, ctx, payment.id, null);
}

async function ensurePayPalPlan(client: TPayPalClient, plan: TPlanRow): Promise<string> {
  const product = await client.createProduct({ name: `Verilead ${plan.name}`, requestId: `product-${plan.id}` });
  const created = await client.createPlan({
    productId: product.id,
    name: `${plan.name} (${plan.interval})`,
    interval: plan.interval === 'annual' ? 'YEAR' : 'MONTH',
    value: minorToValue(planPaymentFields(plan).totalMinor),
    currency: plan.currency,
    requestId: `plan-${plan.id}-${plan.priceMinor}`,
  });
  return created.id;
}

async function salePlan(deps: TDeps, planId: string) {
  const plan = await selectActivePlan(deps.database.db, planId);
  if (!plan || plan.interval === 'one_time') throw new AppError('not_found', 'This plan is not on sale.');
  if (plan.currency !== 'USD') throw new AppError('validation_failed', 'PayPal takes payments in USD only. Please choose a USD plan.');
  return plan;
}

/** POST /payment/paypal/plan/subscription: the PayPal billing plan of one of our plans (made on first use). */
export async function getPayPalPlan(deps: TDeps, input: { plan_id: string }) {
  const plan = await salePlan(deps, input.plan_id);
  const client = await deps.payments.paypal.get();
  return { plan_id: plan.id, paypal_plan_id: await callPayPal(() => ensurePayPalPlan(client, plan)), test_mode: client.testMode };
}

/** POST /payment/paypal/create/subscription: a PayPal subscription to approve on PayPal's page. */
export async function createPayPalSubscription(deps: TDeps, ctx: TCallerContext, input: { plan_id: string }) {
  const plan = await salePlan(deps, input.plan_id);
  const client = await deps.payments.paypal.get();
  const paypalPlanId = await callPayPal(() => ensurePayPalPlan(client, plan));
  const payment = await insertPayment(deps.database.db, { orgId: ctx.orgId, userId: ctx.userId, provider: 'paypal', ...planPaymentFields(plan) });
  const back = returnUrl(deps, payment);
  const sub = await callPayPal(() => client.createSubscription({ planId: paypalPlanId, customId: payment.id, returnUrl: back, requestId: `subscription-${payment.id}` }));
  await updatePayment(deps.database.db, payment.id, { providerRef: sub.id });
  return { payment: paymentToApi(payment), subscription_id: sub.id, approve_url: approveLink(sub.links), test_mode: client.testMode };
}

/** POST /payment/paypal/subscription: after approval, activates the plan once PayPal says the subscription is active. */
export async function activatePayPalSubscription(deps: TDeps, ctx: TCallerContext, input: { subscription_id: string }) {
  const payment = await paypalPayment(deps, ctx, input.subscription_id);
  const client = await deps.payments.paypal.get();
  const sub = await callPayPal(() => client.getSubscription(input.subscription_id));
  if (sub.status === 'ACTIVE' && sub.custom_id === payment.id) await markPaid(deps.database, payment.id);
  else if (sub.status === 'CANCELLED' || sub.status === 'EXPIRED') await updateUnpaidStatus(deps.database.db, payment.id, 'cancelled', null);
  const fresh = await selectPayment(deps.database.db, ctx.orgId, payment.id);
  if (fresh?.status !== 'paid' && sub.status === 'APPROVAL_PENDING') throw new AppError('conflict', 'The subscription is not approved yet: finish on the PayPal page first.');
  return paymentOutcome(deps, ctx, payment.id, null);
}
