import { z } from 'zod';
import { ZSuccess, ZMessageData } from './envelopes';
import { ZDateInput, ZEmail, ZPage, ZPageSize, ZPaged, ZPassword, ZPersonName, ZPhoneNumber, ZTimezone } from './common';
import { ZJobActivityStatus } from './activities';
import {
  ZActivityType,
  ZCreditTransactionKind,
  ZCurrency,
  ZDashboardType,
  ZDeletionReason,
  ZPlanInterval,
  ZRole,
  ZSignupSource,
  ZSourceAgent,
  ZTokenKind,
  ZUserType,
} from './enums';

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
export { DEFAULT_USER_SESSION } from './user-session';

// ---------- auth ----------

export const ZSignupRequest = z
  .object({
    name: ZPersonName,
    email: ZEmail,
    password: ZPassword,
    signup_source: z.enum(ZSignupSource.options, { error: 'Please choose how you heard about us' }),
    signup_source_other: z.string().trim().max(200).optional(),
  })
  .superRefine((v, ctx) => {
    if (v.signup_source === 'others' && !v.signup_source_other) {
      ctx.addIssue({ code: 'custom', path: ['signup_source_other'], message: 'Please specify how you heard about us' });
    }
  });
export type TSignupRequest = z.input<typeof ZSignupRequest>;
/** The same answer whether the address was new or had an account (sign-up never tells which). */
export const ZSignupData = z.object({ message: z.string(), email: z.string() });
export const ZSignupResponse = ZSuccess(ZSignupData);
export type TSignupData = z.infer<typeof ZSignupData>;

/** What the sign-in pages show about this server: the quick start's demo (NODE_ENV not production) and its accounts. */
export const ZInstanceData = z.object({
  demo: z.boolean(),
  demo_accounts: z.array(z.object({ role: z.string(), email: z.string() })),
  demo_password: z.string().nullable(),
});
export const ZInstanceResponse = ZSuccess(ZInstanceData);
export type TInstanceData = z.infer<typeof ZInstanceData>;

export const ZTokenRequest = z.object({ token: z.string().trim().min(10).max(200) });
export type TTokenRequest = z.infer<typeof ZTokenRequest>;

export const ZActivateData = z.object({ message: z.string(), email: z.string(), isEmailVerified: z.literal(true) });
export const ZActivateResponse = ZSuccess(ZActivateData);
export type TActivateData = z.infer<typeof ZActivateData>;

export const ZVerifyTokenRequest = z.object({ token: z.string().trim().min(1).max(200), kind: ZTokenKind.optional() });
export type TVerifyTokenRequest = z.infer<typeof ZVerifyTokenRequest>;
export const ZVerifyTokenData = z.object({
  valid: z.boolean(),
  kind: ZTokenKind.nullable(),
  email: z.string().nullable(),
  expires_at: z.string().nullable(),
  reason: z.enum(['ok', 'not_found', 'expired', 'used', 'wrong_kind']),
});
export const ZVerifyTokenResponse = ZSuccess(ZVerifyTokenData);
export type TVerifyTokenData = z.infer<typeof ZVerifyTokenData>;

export { ZLoginRequest, type TLoginRequest } from './auth-forms';
export const ZLoginData = z.object({ token: z.string(), user: ZUserProfile });
export const ZLoginResponse = ZSuccess(ZLoginData);
export type TLoginData = z.infer<typeof ZLoginData>;

export const ZForgotPasswordRequest = z.object({ email: ZEmail });
export type TForgotPasswordRequest = z.input<typeof ZForgotPasswordRequest>;

/** Reset with a password_reset token, or change an expired password with a password_change token. */
export const ZResetPasswordRequest = z.object({ token: z.string().trim().min(10).max(200), password: ZPassword });
export type TResetPasswordRequest = z.infer<typeof ZResetPasswordRequest>;

export const ZPasswordSetupRequest = z.object({
  token: z.string().trim().min(10).max(200),
  password: ZPassword,
  name: ZPersonName.optional(),
});
export type TPasswordSetupRequest = z.input<typeof ZPasswordSetupRequest>;

export const ZMessageResponse = ZSuccess(ZMessageData);

// ---------- account ----------

export const ZProfileResponse = ZSuccess(ZUserProfile);

export const ZEmailEditRequest = z.object({ email: ZEmail, password: z.string().min(1).max(200) });
export type TEmailEditRequest = z.input<typeof ZEmailEditRequest>;
export const ZEmailEditData = z.object({ message: z.string(), pending_email: z.string() });
export const ZEmailEditResponse = ZSuccess(ZEmailEditData);

export const ZEmailUpdateData = z.object({ message: z.string(), email: z.string() });
export const ZEmailUpdateResponse = ZSuccess(ZEmailUpdateData);

export const ZPhoneEditRequest = z.object({ phone_number: ZPhoneNumber });
export type TPhoneEditRequest = z.infer<typeof ZPhoneEditRequest>;
export const ZNameEditRequest = z.object({ name: ZPersonName });
export type TNameEditRequest = z.infer<typeof ZNameEditRequest>;
export const ZAddressEditRequest = z.object({ address: ZAddress });
export type TAddressEditRequest = z.input<typeof ZAddressEditRequest>;
export const ZTimezoneEditRequest = z.object({ timezone: ZTimezone });
export type TTimezoneEditRequest = z.infer<typeof ZTimezoneEditRequest>;
export const ZPasswordEditRequest = z.object({ current_password: z.string().min(1).max(200), new_password: ZPassword });
export type TPasswordEditRequest = z.infer<typeof ZPasswordEditRequest>;
export const ZFreshchatUpdateRequest = z.object({ restore_id: z.string().trim().min(1).max(200) });
export type TFreshchatUpdateRequest = z.infer<typeof ZFreshchatUpdateRequest>;

/** Single-field edits answer the updated profile so the session store can take the new value. */
export const ZProfileUpdateResponse = ZSuccess(ZUserProfile);

export const ZApiKeyData = z.object({
  api_key: z.string(),
  prefix: z.string(),
  created_at: z.string(),
  message: z.string(),
});
export const ZApiKeyResponse = ZSuccess(ZApiKeyData);
export type TApiKeyData = z.infer<typeof ZApiKeyData>;

export const ZCurrentPlanResponse = ZSuccess(ZCurrentPlan);

export const ZUpgradeRequest = z.object({
  plan: z.enum(['one_time', 'monthly', 'annual']),
  credits: z.number().int().min(1000).max(10_000_000).optional(),
  seats: z.number().int().min(1).max(50).optional(),
  currency: ZCurrency.default('USD'),
});
export type TUpgradeRequest = z.input<typeof ZUpgradeRequest>;
export const ZUpgradeData = z.object({
  request_id: z.string(),
  status: z.literal('requested'),
  current_plan: ZPlanInterval,
  target_plan: z.enum(['one_time', 'monthly', 'annual']),
  credits: z.number().int().nullable(),
  seats: z.number().int().nullable(),
  currency: ZCurrency,
  message: z.string(),
});
export const ZUpgradeResponse = ZSuccess(ZUpgradeData);
export type TUpgradeData = z.infer<typeof ZUpgradeData>;

export const ZActivitiesRequest = z.object({
  page: ZPage.default(1),
  limit: ZPageSize.default(25),
  type: z.union([ZActivityType, z.array(ZActivityType).max(30)]).optional(),
  from: ZDateInput.optional(),
  to: ZDateInput.optional(),
});
export type TActivitiesRequest = z.input<typeof ZActivitiesRequest>;
export const ZActivity = z.object({
  id: z.string(),
  type: ZActivityType,
  description: z.string(),
  metadata: z.record(z.string(), z.unknown()),
  created_at: z.string(),
  /** Job activities: queued or in_progress while the job runs, then completed, failed or cancelled; null for account actions. */
  status: ZJobActivityStatus.nullable(),
  /** 0–100 while a job that reports progress runs; null otherwise. */
  progress: z.number().int().min(0).max(100).nullable(),
});
export type TActivity = z.infer<typeof ZActivity>;
export const ZActivitiesData = ZPaged(ZActivity);
export const ZActivitiesResponse = ZSuccess(ZActivitiesData);
export type TActivitiesData = z.infer<typeof ZActivitiesData>;

export const ZLowCreditAlertUpdateRequest = z.object({
  enabled: z.boolean(),
  threshold: z.number().int().min(0).max(100_000_000),
});
export type TLowCreditAlertUpdateRequest = z.infer<typeof ZLowCreditAlertUpdateRequest>;
export const ZLowCreditAlertResponse = ZSuccess(ZLowCreditAlert);

export const ZDeleteAccountRequest = z
  .object({
    reason: ZDeletionReason,
    reason_other: z.string().trim().max(1000).optional(),
    password: z.string().min(1).max(200),
  })
  .superRefine((v, ctx) => {
    if (v.reason === 'others' && !v.reason_other) {
      ctx.addIssue({ code: 'custom', path: ['reason_other'], message: 'Please tell us the reason' });
    }
  });
export type TDeleteAccountRequest = z.infer<typeof ZDeleteAccountRequest>;

// ---------- credits ----------

export const ZCreditsAndLimitsData = z.object({
  credits: z.number().int().nonnegative(),
  org_credits: z.number().int().nonnegative(),
  limits: ZMemberLimits,
  show_daily_limits: z.boolean(),
  low_credit_alert: ZLowCreditAlert,
  org_low_credit_alert: ZLowCreditAlert,
});
export const ZCreditsAndLimitsResponse = ZSuccess(ZCreditsAndLimitsData);
export type TCreditsAndLimitsData = z.infer<typeof ZCreditsAndLimitsData>;

export const ZCreditTransactionsQuery = z.object({
  page: ZPage.default(1),
  limit: ZPageSize.default(25),
  from: ZDateInput.optional(),
  to: ZDateInput.optional(),
  kind: ZCreditTransactionKind.optional(),
});
export type TCreditTransactionsQuery = z.input<typeof ZCreditTransactionsQuery>;
export const ZCreditTransaction = z.object({
  id: z.string(),
  kind: ZCreditTransactionKind,
  /** Signed change of the balance: a charge is negative, a grant, purchase or refund positive. */
  amount: z.number().int(),
  reason: z.string(),
  source_agent: ZSourceAgent.nullable(),
  object_type: z.string().nullable(),
  object_id: z.string().nullable(),
  balance_after: z.number().int(),
  user_id: z.string().nullable(),
  user_name: z.string().nullable(),
  created_at: z.string(),
});
export type TCreditTransaction = z.infer<typeof ZCreditTransaction>;
export const ZCreditTransactionsData = ZPaged(ZCreditTransaction);
export const ZCreditTransactionsResponse = ZSuccess(ZCreditTransactionsData);
export type TCreditTransactionsData = z.infer<typeof ZCreditTransactionsData>;

/**
 * GET /user/credits_and_limits/ledger: the ledger one line per job (a verified or found list, an enrichment: its rows
 * totalled), per day and source for instant calls, and one line per purchase, grant or refund; newest first in the
 * order rows were written, so each line's balance follows from the one below it. Its rows:
 * GET /user/credits_and_limits/ledger/rows?key=….
 */
export const ZCreditLedgerGroup = z.object({
  key: z.string(),
  group: z.enum(['job', 'day', 'single']),
  kind: ZCreditTransactionKind,
  /** Signed total of the line's rows. */
  amount: z.number().int(),
  count: z.number().int(),
  reason: z.string(),
  source_agent: ZSourceAgent.nullable(),
  object_type: z.string().nullable(),
  /** The list or enrichment a job line belongs to. */
  job_id: z.string().nullable(),
  /** The day (the caller's time zone) of an instant-calls line. */
  day: z.string().nullable(),
  /** The balance after the line's newest row. */
  balance_after: z.number().int(),
  user_name: z.string().nullable(),
  first_at: z.string(),
  last_at: z.string(),
});
export type TCreditLedgerGroup = z.infer<typeof ZCreditLedgerGroup>;
export const ZCreditLedgerData = ZPaged(ZCreditLedgerGroup);
export const ZCreditLedgerResponse = ZSuccess(ZCreditLedgerData);
export type TCreditLedgerData = z.infer<typeof ZCreditLedgerData>;
export const ZCreditLedgerRowsQuery = z.object({
  key: z.string({ message: 'Please choose a ledger line' }).trim().min(1, { message: 'Please choose a ledger line' }).max(300, { message: 'Unknown ledger line' }),
  page: ZPage.default(1),
  limit: ZPageSize.default(25),
});

export const ZCreditStatusData = z.object({
  credits: z.number().int().nonnegative(),
  has_credits: z.boolean(),
  low_credit: z.boolean(),
  threshold: z.number().int().nonnegative(),
  daily_remaining: z.number().int().nonnegative().nullable(),
  life_time_remaining: z.number().int().nonnegative().nullable(),
});
export const ZCreditStatusResponse = ZSuccess(ZCreditStatusData);
export type TCreditStatusData = z.infer<typeof ZCreditStatusData>;

/** GET /email_verify/getusercredits: what the verifier screens show. */
export const ZUserCreditsData = z.object({
  credits: z.number().int().nonnegative(),
  available: z.number().int().nonnegative(),
  daily_remaining: z.number().int().nonnegative().nullable(),
  life_time_remaining: z.number().int().nonnegative().nullable(),
});
export const ZUserCreditsResponse = ZSuccess(ZUserCreditsData);
export type TUserCreditsData = z.infer<typeof ZUserCreditsData>;

// ---------- announcements ----------

export const ZAnnouncement = z.object({
  message: z.string(),
  dismissable: z.boolean(),
  styles: z.object({ top_container: z.record(z.string(), z.string()), close_btn: z.record(z.string(), z.string()) }),
  timestamp: z.number().int().nonnegative(),
});
export type TAnnouncement = z.infer<typeof ZAnnouncement>;
export const ZAnnouncementData = z.object({ announcement: ZAnnouncement.nullable(), timestamp: z.number().int().nonnegative() });
export const ZAnnouncementResponse = ZSuccess(ZAnnouncementData);
export type TAnnouncementData = z.infer<typeof ZAnnouncementData>;
