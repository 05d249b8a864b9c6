// The signed-in user as the server describes it (the profile) and as the web app keeps it (the session), with the
// shapes they share: address, member limits, current plan, the organisation's summary and the low-credit alert.
import { z } from 'zod';
import { ZCurrency, ZDashboardType, ZPlanInterval, ZRole, ZUserType } from './enums';

// ---------- shared shapes ----------

export const ZAddress = z.object({
  line1: z.string().trim().max(200).default(''),
  line2: z.string().trim().max(200).default(''),
  city: z.string().trim().max(100).default(''),
  state: z.string().trim().max(100).default(''),
  postal_code: z.string().trim().max(20).default(''),
  country: z.string().trim().max(100).default(''),
});
export type TAddress = z.infer<typeof ZAddress>;

/** One member limit (daily or life_time): null limit means unlimited. */
export const ZLimitUsage = z.object({
  limit: z.number().int().nonnegative().nullable(),
  used: z.number().int().nonnegative(),
  remaining: z.number().int().nonnegative().nullable(),
});
export type TLimitUsage = z.infer<typeof ZLimitUsage>;
export const ZMemberLimits = z.object({ daily: ZLimitUsage, life_time: ZLimitUsage });
export type TMemberLimits = z.infer<typeof ZMemberLimits>;

export const ZRecur = z.object({ credits: z.number().int().nonnegative(), interval: z.enum(['monthly', 'annual']) });
export type TRecur = z.infer<typeof ZRecur>;

export const ZCurrentPlan = z.object({
  plan_id: z.string(),
  name: z.string(),
  interval: ZPlanInterval,
  credits: z.number().int().nonnegative(),
  price: z.number().nonnegative(),
  currency: ZCurrency,
  user_create_limit: z.number().int().positive(),
  started_on: z.string().nullable(),
  renews_on: z.string().nullable(),
  /** Seats of the plan subscribed to (null on the free plan). */
  seats: z.number().int().nullable().default(null),
  /** The plan is set to end at the period end (`ends_on`); it does not renew. */
  cancel_at_period_end: z.boolean().default(false),
  ends_on: z.string().nullable().default(null),
  pending_upgrade: z
    .object({ request_id: z.string(), target_plan: ZPlanInterval, requested_on: z.string() })
    .nullable(),
});
export type TCurrentPlan = z.infer<typeof ZCurrentPlan>;

export const ZOrganisationSummary = z.object({
  id: z.string(),
  name: z.string(),
  org_website_url: z.string().nullable(),
  org_tel: z.string().nullable(),
  credits: z.number().int().nonnegative(),
  limits: ZMemberLimits,
  recur: ZRecur.nullable(),
  plan: z.object({ user_create_limit: z.number().int().positive() }),
});
export type TOrganisationSummary = z.infer<typeof ZOrganisationSummary>;

export const ZLowCreditAlert = z.object({ enabled: z.boolean(), threshold: z.number().int().nonnegative() });
export type TLowCreditAlert = z.infer<typeof ZLowCreditAlert>;

/** The user as the server describes it: the spec's session minus the client-only fields. */
export const ZUserProfile = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  pending_email: z.string().nullable(),
  address: ZAddress.nullable(),
  isEmailVerified: z.boolean(),
  credits: z.number().int().nonnegative(),
  locale: z.string(),
  timezone: z.string(),
  payment: z.object({ stripe: z.object({ is_valid_card: z.boolean() }) }),
  integrations: z.array(z.string()),
  user_role: ZRole,
  org_id: z.string(),
  user_type: ZUserType,
  organisation: ZOrganisationSummary,
  show_daily_limits: z.boolean(),
  current_plan: ZCurrentPlan,
  phone_number: z.string().nullable(),
  activated_on: z.string().nullable(),
  recur: ZRecur.nullable(),
  performance_stats: z.record(z.string(), z.number()),
  limits: ZMemberLimits,
  has_password: z.boolean(),
  dashboard_type: ZDashboardType,
  announcement_timestamp: z.number().int().nonnegative(),
  last_password_updated: z.string().nullable(),
  restoreId: z.string().nullable(),
  low_credit_alert: ZLowCreditAlert,
  org_low_credit_alert: ZLowCreditAlert,
  has_api_key: z.boolean(),
});
export type TUserProfile = z.infer<typeof ZUserProfile>;

/** The client's session store (spec section 3): the profile plus token and login flag; everything may be empty. */
export const ZUserSession = ZUserProfile.partial().extend({
  name: z.string(),
  jwtToken: z.string().nullable(),
  isLogged: z.boolean(),
  isEmailVerified: z.boolean(),
  dashboard_type: ZDashboardType,
  announcement_timestamp: z.number().int().nonnegative(),
});
export type TUserSession = z.infer<typeof ZUserSession>;
