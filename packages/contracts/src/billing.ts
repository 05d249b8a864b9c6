import { z } from 'zod';
import { ZSuccess } from './envelopes';
import { ZPage, ZPaged, ZPageSize } from './common';
import { ZCurrency, ZPaymentProvider, ZPlanInterval, ZPriceKind } from './enums';

// ---------- pricing ----------

/** Credits one purchase may buy. */
export const MIN_PURCHASE_CREDITS = 1_000;
export const MAX_PURCHASE_CREDITS = 10_000_000;
/** Tax added to INR prices (spec section 9: 18%, rounded down to 2 decimals). */
export const INR_TAX_PERCENT = 18;
/** Annual plans are this much cheaper than buying the same credits once (spec section 9). */
export const ANNUAL_DISCOUNT_PERCENT = 20;

export const ZCardBrand = z.enum(['visa', 'mastercard', 'discover', 'amex', 'diners', 'jcb', 'unknown']);
export type TCardBrand = z.infer<typeof ZCardBrand>;

const ZCredits = z.coerce
  .number({ message: 'Please enter the number of credits' })
  .int({ message: 'Credits must be a whole number' })
  .min(MIN_PURCHASE_CREDITS, { message: `You can buy at least ${MIN_PURCHASE_CREDITS.toLocaleString('en-US')} credits` })
  .max(MAX_PURCHASE_CREDITS, { message: `You can buy at most ${MAX_PURCHASE_CREDITS.toLocaleString('en-US')} credits at once` });
const ZCurrencyInput = z.enum(['USD', 'INR'], { message: 'Please choose USD or INR' }).default('USD');

export const ZPriceSlab = z.object({
  id: z.string(),
  currency: ZCurrency,
  min_credits: z.number().int(),
  max_credits: z.number().int().nullable(),
  /** Price of one credit in the currency (e.g. 0.008). */
  unit_price: z.number(),
  kind: ZPriceKind,
  bonus_percent: z.number().int(),
});
export type TPriceSlab = z.infer<typeof ZPriceSlab>;
export const ZPriceSlabQuery = z.object({ currency: ZCurrencyInput });
export const ZPriceSlabData = z.object({ currency: ZCurrency, min_credit: z.number().int(), slabs: z.array(ZPriceSlab) });
export const ZPriceSlabResponse = ZSuccess(ZPriceSlabData);

export const ZPriceQuery = z.object({ credits: ZCredits, currency: ZCurrencyInput, coupon_code: z.string().trim().max(64).optional() });
export const ZPriceQuote = z.object({
  currency: ZCurrency,
  credits: z.number().int(),
  bonus_credits: z.number().int(),
  kind: ZPriceKind,
  unit_price: z.number(),
  subtotal: z.number(),
  discount: z.number(),
  tax: z.number(),
  tax_percent: z.number(),
  total: z.number(),
  coupon_code: z.string().nullable(),
});
export type TPriceQuote = z.infer<typeof ZPriceQuote>;
export const ZPriceResponse = ZSuccess(ZPriceQuote);
/** GET /public/price: the public credits calculator's quote from the same price slabs (no coupon, no account). */
export const ZPublicPriceQuery = z.object({ credits: ZCredits, currency: ZCurrencyInput });
export type TPublicPriceQuery = z.input<typeof ZPublicPriceQuery>;

export const ZSoldPlanInterval = ZPlanInterval.exclude(['free']);
export const ZPlan = z.object({
  id: z.string(),
  name: z.string(),
  interval: ZSoldPlanInterval,
  currency: ZCurrency,
  price: z.number(),
  credits: z.number().int(),
  seats: z.number().int(),
});
export type TPlan = z.infer<typeof ZPlan>;
export const ZPlanQuery = z.object({ currency: ZCurrencyInput, interval: ZSoldPlanInterval.optional() });
export const ZPlansResponse = ZSuccess(z.object({ items: z.array(ZPlan) }));

export const ZPriceCompareQuery = z.object({ credits: ZCredits, currency: ZCurrencyInput });
export const ZPriceCompareData = z.object({
  currency: ZCurrency,
  credits: z.number().int(),
  one_time: z.object({ total: z.number(), unit_price: z.number() }),
  annual: z.object({ total: z.number(), unit_price: z.number(), per_month: z.number(), saving_percent: z.number() }),
});
export const ZPriceCompareResponse = ZSuccess(ZPriceCompareData);

// ---------- coupons ----------

export const ZCouponApplyRequest = z.object({
  code: z.string({ message: 'Please enter a coupon code' }).trim().min(1, { message: 'Please enter a coupon code' }).max(64, { message: 'This coupon code is too long' }),
  credits: ZCredits.optional(),
  currency: ZCurrencyInput,
});
export const ZCouponApplyData = z.object({
  code: z.string(),
  kind: z.enum(['percent', 'credits']),
  message: z.string(),
  credits_granted: z.number().int(),
  quote: ZPriceQuote.nullable(),
});
export const ZCouponApplyResponse = ZSuccess(ZCouponApplyData);

/** GET /coupon/history: the coupons the caller's organisation redeemed, newest first. */
export const ZCouponHistoryQuery = z.object({ page: ZPage.default(1), limit: ZPageSize.default(25) });
export const ZCouponRedemption = z.object({
  id: z.string(),
  code: z.string(),
  kind: z.enum(['percent', 'credits']),
  /** The coupon's value: a percentage off (percent) or free credits (credits). */
  value: z.number().int(),
  /** Credits the coupon added to the balance (credits coupons; 0 for a percent coupon). */
  credits_granted: z.number().int(),
  /** For a percent coupon: the paid invoice it took money off, the amount off and its currency. */
  invoice_number: z.string().nullable(),
  discount: z.number().nullable(),
  currency: ZCurrency.nullable(),
  redeemed_at: z.string(),
  /** Who redeemed it (null once that user was deleted). */
  redeemed_by: z.object({ id: z.string(), name: z.string(), email: z.string() }).nullable(),
});
export type TCouponRedemption = z.infer<typeof ZCouponRedemption>;
export const ZCouponHistoryData = ZPaged(ZCouponRedemption);
export const ZCouponHistoryResponse = ZSuccess(ZCouponHistoryData);

// ---------- payments ----------

export const ZPaymentStatus = z.enum(['pending', 'requires_action', 'paid', 'failed', 'cancelled']);
export type TPaymentStatus = z.infer<typeof ZPaymentStatus>;

export const ZBuyCreditsRequest = z.object({
  credits: ZCredits,
  currency: ZCurrencyInput,
  coupon_code: z.string().trim().max(64).optional(),
});
export const ZPayment = z.object({
  id: z.string(),
  /** The invoice number, given when the payment is made (numbers have no gaps); null while it is unpaid. */
  number: z.string().nullable(),
  provider: ZPaymentProvider,
  kind: z.enum(['credits', 'plan']),
  status: ZPaymentStatus,
  credits: z.number().int(),
  bonus_credits: z.number().int(),
  currency: ZCurrency,
  subtotal: z.number(),
  discount: z.number(),
  tax: z.number(),
  total: z.number(),
  failure_message: z.string().nullable(),
  /** A page where the payer confirms a payment their bank asks to authenticate (a subscription renewal), or null. */
  action_url: z.string().nullable(),
  created_at: z.string(),
  paid_at: z.string().nullable(),
  /** A plan payment: the plan's name and the period it pays for. */
  plan_name: z.string().nullable().default(null),
  period_start: z.string().nullable().default(null),
  period_end: z.string().nullable().default(null),
});
export type TPayment = z.infer<typeof ZPayment>;
export const ZPaymentResponse = ZSuccess(ZPayment);
export const ZPaymentIntentData = z.object({
  payment: ZPayment,
  client_secret: z.string(),
  /** Where the browser completes the payment (the provider's page; the local fake's in test mode). */
  checkout_url: z.string(),
  test_mode: z.boolean(),
});
export const ZPaymentIntentResponse = ZSuccess(ZPaymentIntentData);
export const ZPaymentRef = z.object({ payment_id: z.uuid({ message: 'Please choose a payment' }) });
export const ZConfirmPaymentIntentRequest = ZPaymentRef.extend({
  payment_method: z.string({ message: 'Please choose a card' }).trim().min(1, { message: 'Please choose a card' }).max(255),
});
export const ZPaymentOutcomeData = z.object({ payment: ZPayment, balance: z.number().int(), next_action_url: z.string().nullable() });
export const ZPaymentOutcomeResponse = ZSuccess(ZPaymentOutcomeData);

export const ZBuyCreditsInfoData = z.object({
  /** A payment provider can take payments (its keys are set, or test mode is allowed); false: payments answer 503. */
  configured: z.boolean(),
  /** The providers in use run against local fakes or sandboxes: no money moves. */
  test_mode: z.boolean(),
  /** The providers that can take payments now. */
  providers: z.array(ZPaymentProvider),
  currencies: z.array(ZCurrency),
  min_credit: z.number().int(),
  max_credit: z.number().int(),
  tax_percent: z.object({ USD: z.number(), INR: z.number() }),
  has_card: z.boolean(),
  balance: z.number().int(),
});
export type TBuyCreditsInfoData = z.infer<typeof ZBuyCreditsInfoData>;
export const ZBuyCreditsInfoResponse = ZSuccess(ZBuyCreditsInfoData);

// ---------- cards ----------

export const ZCard = z.object({
  id: z.string(),
  brand: ZCardBrand,
  last4: z.string(),
  exp_month: z.number().int(),
  exp_year: z.number().int(),
  is_default: z.boolean(),
});
export type TCard = z.infer<typeof ZCard>;
export const ZCardsResponse = ZSuccess(z.object({ items: z.array(ZCard), default_card: z.string().nullable() }));
const ZPaymentMethodId = z.string({ message: 'Please choose a card' }).trim().min(1, { message: 'Please choose a card' }).max(255, { message: 'Unknown card' });
export const ZCardRef = z.object({ payment_method: ZPaymentMethodId });
export const ZCardResponse = ZSuccess(ZCard);
export const ZDefaultCardResponse = ZSuccess(z.object({ card: ZCard.nullable() }));
/** Where the card set-up page comes back to: the billing screen (default), or the pricing / plan screen to subscribe to `plan_id` once the card is saved. */
export const ZSetupIntentCreateRequest = z.object({
  return_to: z.enum(['billing', 'pricing', 'plan'], { message: 'Please choose billing, pricing or plan' }).default('billing'),
  plan_id: z.string().trim().max(100, { message: 'Unknown plan' }).regex(/^[A-Za-z0-9_.-]*$/, { message: 'Unknown plan' }).optional(),
});
export const ZSetupIntentData = z.object({ setup_intent_id: z.string(), client_secret: z.string(), checkout_url: z.string(), test_mode: z.boolean() });
export const ZSetupIntentResponse = ZSuccess(ZSetupIntentData);
export const ZSetupIntentConfirmRequest = z.object({
  setup_intent_id: z.string({ message: 'Please give the card set-up id' }).trim().min(1, { message: 'Please give the card set-up id' }).max(255),
});

// ---------- invoices and receipts ----------

export const ZInvoiceListQuery = z.object({ page: ZPage.default(1), limit: ZPageSize.default(25) });
export const ZPaymentListResponse = ZSuccess(z.object({ items: z.array(ZPayment), total: z.number().int() }));
export const ZInvoiceDownloadQuery = z.object({ id: z.uuid({ message: 'Please choose an invoice' }) });

// ---------- subscriptions ----------

const ZPlanId = z.string({ message: 'Please choose a plan' }).trim().min(1, { message: 'Please choose a plan' }).max(100, { message: 'Unknown plan' });
export const ZUpgradeQuery = z.object({
  plan_id: ZPlanId,
  /**
   * The amount the person confirmed (what the preview showed). When given and the charge would now differ (a price or
   * period changed meanwhile), nothing is charged and the answer is 409 with the new preview to confirm.
   */
  expected_amount: z.coerce.number({ message: 'The confirmed amount must be a number' }).nonnegative({ message: 'The confirmed amount must be a number' }).optional(),
  /** The preview's `proration_date`: the unused time is counted from that instant, so the charge is the amount shown. */
  proration_date: z.coerce.number({ message: 'The proration date must be a Unix time' }).int({ message: 'The proration date must be a Unix time' }).positive({ message: 'The proration date must be a Unix time' }).optional(),
});
/** GET /payment/upgrade/preview: what subscribing or changing plan would charge today, before anything is charged. */
export const ZPlanPreviewQuery = z.object({
  plan_id: ZPlanId,
  proration_date: z.coerce.number({ message: 'The proration date must be a Unix time' }).int({ message: 'The proration date must be a Unix time' }).positive({ message: 'The proration date must be a Unix time' }).optional(),
});
export const ZPlanPreviewLine = z.object({ description: z.string(), amount: z.number(), proration: z.boolean() });
export const ZPlanPreview = z.object({
  plan: ZPlan,
  /** subscribe: no plan yet; upgrade / downgrade: a change now, the unused time credited; resume: a plan set to end continues. */
  change: z.enum(['subscribe', 'upgrade', 'downgrade', 'resume']),
  /** A change: the instant (Unix seconds) the unused time is counted from; send it back with the change. */
  proration_date: z.number().int().nullable(),
  currency: ZCurrency,
  lines: z.array(ZPlanPreviewLine),
  /** The unused time of the current plan, credited (0 when none). */
  proration_credit: z.number(),
  /** Credit kept from earlier changes, used on this charge. */
  balance_applied: z.number(),
  /** Charged today to the card. */
  amount_due: z.number(),
  /** What is left over (a downgrade): kept as credit for the next invoices. */
  credit_carried: z.number(),
  credits_granted: z.number().int(),
  /** The day the plan renews (charged again) after this change. */
  renews_on: z.string(),
  /** The card charged, or null: then a card is entered on the checkout page. */
  card: z.object({ brand: z.string(), last4: z.string() }).nullable(),
});
export type TPlanPreview = z.infer<typeof ZPlanPreview>;
export const ZPlanPreviewResponse = ZSuccess(ZPlanPreview);
/** GET /payment/plan: the organisation's plan as the plan screen shows it (owners and managers). */
export const ZPlanStatus = z.object({
  /** The plan subscribed to; null on the free plan. */
  plan: ZPlan.nullable(),
  provider: ZPaymentProvider.nullable(),
  status: z.enum(['active', 'past_due', 'cancelled']).nullable(),
  current_period_start: z.string().nullable(),
  current_period_end: z.string().nullable(),
  /** Set to end at the period end: `cancels_on` is that day and `renews_on` is null. */
  cancel_at_period_end: z.boolean(),
  renews_on: z.string().nullable(),
  cancels_on: z.string().nullable(),
  payment_method: z.object({ kind: z.enum(['card', 'paypal']), brand: z.string().nullable(), last4: z.string().nullable() }).nullable(),
});
export type TPlanStatus = z.infer<typeof ZPlanStatus>;
export const ZPlanStatusResponse = ZSuccess(ZPlanStatus);
/** The buyer's billing details printed on invoices (owner). */
export const ZBillingDetails = z.object({
  name: z.string({ message: 'Please enter the name to bill' }).trim().min(1, { message: 'Please enter the name to bill' }).max(200, { message: 'Please keep the name under 200 characters' }),
  address: z.string().trim().max(500, { message: 'Please keep the address under 500 characters' }).default(''),
  tax_id: z.string().trim().max(64, { message: 'Please keep the tax id under 64 characters' }).default(''),
});
export type TBillingDetails = z.infer<typeof ZBillingDetails>;
export const ZBillingDetailsResponse = ZSuccess(z.object({ details: ZBillingDetails.nullable() }));
export const ZSubscriptionCancelQuery = z.object({
  reason: z
    .string({ message: 'Please tell us why you cancel' })
    .trim()
    .min(3, { message: 'Please tell us why you cancel' })
    .max(500, { message: 'Please keep the reason under 500 characters' }),
});
export const ZSubscription = z.object({
  id: z.string(),
  plan_id: z.string(),
  status: z.enum(['active', 'past_due', 'cancelled']),
  current_period_end: z.string(),
  cancel_at_period_end: z.boolean(),
  cancel_reason: z.string().nullable(),
});
export const ZSubscriptionResponse = ZSuccess(ZSubscription);

// ---------- PayPal ----------

const ZPayPalRef = (what: string) =>
  z
    .string({ message: `Please give the PayPal ${what} id` })
    .trim()
    .min(1, { message: `Please give the PayPal ${what} id` })
    .max(64, { message: `Unknown PayPal ${what}` })
    .regex(/^[A-Za-z0-9-]+$/, { message: `Unknown PayPal ${what}` });
export const ZPayPalOrderRef = z.object({ order_id: ZPayPalRef('order') });
export const ZPayPalSubscriptionRef = z.object({ subscription_id: ZPayPalRef('subscription') });
export const ZPayPalPlanRequest = ZUpgradeQuery;
export const ZPayPalOrderResponse = ZSuccess(z.object({ payment: ZPayment, order_id: z.string(), approve_url: z.string(), test_mode: z.boolean() }));
export const ZPayPalVerifyResponse = ZSuccess(z.object({ order_id: z.string(), order_status: z.string(), payment: ZPayment }));
export const ZPayPalPlanResponse = ZSuccess(z.object({ plan_id: z.string(), paypal_plan_id: z.string(), test_mode: z.boolean() }));
export const ZPayPalSubscriptionCreateResponse = ZSuccess(z.object({ payment: ZPayment, subscription_id: z.string(), approve_url: z.string(), test_mode: z.boolean() }));
