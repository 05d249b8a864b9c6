import type { TDeps } from '../../platform/deps';
import type Stripe from 'stripe';
import { ZCardBrand, type TCard } from '@verilead/contracts';
import { AppError } from '../../platform/errors/app-error';
import { recordAudit } from '../../platform/audit/record';
import type { TCallerContext } from '../../platform/tenancy/context';
import { selectCustomer, setDefaultPaymentMethod } from './queries';
import type { TStripeGateway } from './stripe-gateway';
import { callStripe, ensureCustomer } from './payments';
import { getPublicBaseUrl } from '../../platform/http/public-url';

/** Saved cards: Stripe payment methods of the organisation's customer, the default card, SetupIntents. */
export function cardToApi(pm: Stripe.PaymentMethod, defaultId: string | null): TCard {
  const brand = ZCardBrand.safeParse(pm.card?.brand);
  return {
    id: pm.id,
    brand: brand.success ? brand.data : 'unknown',
    last4: pm.card?.last4 ?? '',
    exp_month: pm.card?.exp_month ?? 0,
    exp_year: pm.card?.exp_year ?? 0,
    is_default: pm.id === defaultId,
  };
}

export async function cardsOf(deps: TDeps, gw: TStripeGateway, ctx: TCallerContext) {
  const customer = await ensureCustomer(deps, gw, ctx);
  const list = await callStripe(() => gw.stripe.paymentMethods.list({ customer, type: 'card' }));
  const saved = await selectCustomer(deps.database.db, ctx.orgId);
  return { customer, methods: list.data, defaultId: saved?.defaultPaymentMethod ?? null };
}

export async function listCards(deps: TDeps, ctx: TCallerContext) {
  const gw = await deps.payments.stripe.get();
  const { methods, defaultId } = await cardsOf(deps, gw, ctx);
  return { items: methods.map((m) => cardToApi(m, defaultId)), default_card: defaultId };
}

export async function ownCard(deps: TDeps, gw: TStripeGateway, ctx: TCallerContext, id: string) {
  const cards = await cardsOf(deps, gw, ctx);
  const pm = cards.methods.find((m) => m.id === id);
  if (!pm) throw new AppError('not_found', 'This card was not found.');
  return { pm, ...cards };
}

export async function makeDefault(deps: TDeps, gw: TStripeGateway, ctx: TCallerContext, customer: string, pmId: string) {
  await callStripe(() => gw.stripe.customers.update(customer, { invoice_settings: { default_payment_method: pmId } }));
  await setDefaultPaymentMethod(deps.database.db, ctx.orgId, pmId);
}

/** POST /payment/card/add: attaches a card (a payment method id) to the organisation; the first card becomes the default. */
export async function addCard(deps: TDeps, ctx: TCallerContext, input: { payment_method: string }) {
  const gw = await deps.payments.stripe.get();
  const customer = await ensureCustomer(deps, gw, ctx);
  const pm = await callStripe(() => gw.stripe.paymentMethods.attach(input.payment_method, { customer }));
  const saved = await selectCustomer(deps.database.db, ctx.orgId);
  let defaultId = saved?.defaultPaymentMethod ?? null;
  if (!defaultId) {
    await makeDefault(deps, gw, ctx, customer, pm.id);
    defaultId = pm.id;
  }
  await recordAudit(deps.database.db, ctx, { action: 'billing.payment_method_changed', targetType: 'card', targetId: pm.id, details: { change: 'added', brand: pm.card?.brand ?? null, last4: pm.card?.last4 ?? null } });
  return cardToApi(pm, defaultId);
}

export async function deleteCard(deps: TDeps, ctx: TCallerContext, input: { payment_method: string }) {
  const gw = await deps.payments.stripe.get();
  const { pm, defaultId } = await ownCard(deps, gw, ctx, input.payment_method);
  await callStripe(() => gw.stripe.paymentMethods.detach(pm.id));
  if (defaultId === pm.id) await setDefaultPaymentMethod(deps.database.db, ctx.orgId, null);
  await recordAudit(deps.database.db, ctx, { action: 'billing.payment_method_changed', targetType: 'card', targetId: pm.id, details: { change: 'removed', last4: pm.card?.last4 ?? null } });
  return { message: 'The card was removed.' };
}

export async function setDefaultCard(deps: TDeps, ctx: TCallerContext, input: { payment_method: string }) {
  const gw = await deps.payments.stripe.get();
  const { pm, customer } = await ownCard(deps, gw, ctx, input.payment_method);
  await makeDefault(deps, gw, ctx, customer, pm.id);
  await recordAudit(deps.database.db, ctx, { action: 'billing.payment_method_changed', targetType: 'card', targetId: pm.id, details: { change: 'made_default', last4: pm.card?.last4 ?? null } });
  return cardToApi(pm, pm.id);
}

export async function getDefaultCard(deps: TDeps, ctx: TCallerContext) {
  const gw = await deps.payments.stripe.get();
  const { methods, defaultId } = await cardsOf(deps, gw, ctx);
  const pm = methods.find((m) => m.id === defaultId);
  return { card: pm ? cardToApi(pm, defaultId) : null };
}

/**
 * POST /payment/setup_intent/create: a Stripe Checkout Session in setup mode, whose hosted page takes the card
 * (checkout.stripe.com with live keys, the fake's page in test mode); it returns to the billing page with the session
 * id, which the confirm call below accepts in place of a SetupIntent id.
 */
const SETUP_RETURN_PATHS = { billing: '/account/billing', pricing: '/pricing', plan: '/account/plan' } as const;

export async function createSetupIntent(deps: TDeps, ctx: TCallerContext, input: { return_to?: keyof typeof SETUP_RETURN_PATHS; plan_id?: string } = {}) {
  const gw = await deps.payments.stripe.get();
  const customer = await ensureCustomer(deps, gw, ctx);
  const back = `${getPublicBaseUrl(deps.config)}${SETUP_RETURN_PATHS[input.return_to ?? 'billing']}`;
  // Coming back to subscribe: the screen opens the plan's confirmation once the card is saved.
  const subscribe = input.plan_id ? `&subscribe=${encodeURIComponent(input.plan_id)}` : '';
  const session = await callStripe(() =>
    gw.stripe.checkout.sessions.create({
      mode: 'setup',
      customer,
      currency: 'usd',
      success_url: `${back}?setup_intent={CHECKOUT_SESSION_ID}&redirect_status=succeeded${subscribe}`,
      cancel_url: back,
      metadata: { org_id: ctx.orgId },
    }),
  );
  return { setup_intent_id: session.id, client_secret: session.client_secret ?? '', checkout_url: session.url ?? back, test_mode: gw.testMode };
}

/** The SetupIntent behind a set-up id: a SetupIntent's own, or a setup-mode Checkout Session's. */
async function setupIntentOf(gw: TStripeGateway, id: string): Promise<Stripe.SetupIntent | null> {
  if (!id.startsWith('cs_')) return gw.stripe.setupIntents.retrieve(id);
  const session = await gw.stripe.checkout.sessions.retrieve(id, { expand: ['setup_intent'] });
  if (session.mode !== 'setup') return null;
  if (!session.setup_intent) return { id, object: 'setup_intent', customer: session.customer, status: 'requires_payment_method', payment_method: null } as unknown as Stripe.SetupIntent;
  return typeof session.setup_intent === 'string' ? gw.stripe.setupIntents.retrieve(session.setup_intent) : session.setup_intent;
}

export async function confirmSetupIntent(deps: TDeps, ctx: TCallerContext, input: { setup_intent_id: string }) {
  const gw = await deps.payments.stripe.get();
  const customer = await ensureCustomer(deps, gw, ctx);
  const si = await callStripe(() => setupIntentOf(gw, input.setup_intent_id)).catch((err: unknown) => {
    if (err instanceof AppError && err.code === 'not_found') throw new AppError('not_found', 'This card set-up was not found.');
    throw err;
  });
  if (!si || si.customer !== customer) throw new AppError('not_found', 'This card set-up was not found.');
  if (si.status !== 'succeeded' || typeof si.payment_method !== 'string') throw new AppError('conflict', 'The card set-up is not finished yet.');
  const saved = await selectCustomer(deps.database.db, ctx.orgId);
  if (!saved?.defaultPaymentMethod) await makeDefault(deps, gw, ctx, customer, si.payment_method);
  const { pm, defaultId } = await ownCard(deps, gw, ctx, si.payment_method);
  return cardToApi(pm, defaultId);
}
