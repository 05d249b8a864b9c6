// The user's contracts. This file holds sign-up, sign-in and the token links (auth), and the account's own edits,
// API key, plan upgrade, activities and deletion; the profile and session, and the credits, live beside it and are
// re-exported here, so `@verilead/contracts` keeps every user name in one place.
import { z } from 'zod';
import { ZSuccess, ZMessageData } from './envelopes';
import { ZDateInput, ZEmail, ZPage, ZPageSize, ZPaged, ZPassword, ZPersonName, ZPhoneNumber, ZTimezone } from './common';
import { ZJobActivityStatus } from './activities';
import { ZActivityType, ZCurrency, ZDeletionReason, ZPlanInterval, ZSignupSource, ZTokenKind } from './enums';
import { ZAddress, ZCurrentPlan, ZLowCreditAlert, ZUserProfile } from './user-profile';

export * from './user-profile';
export { DEFAULT_USER_SESSION } from './user-session';
export * from './user-credits';

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
export const ZSignupData = z.object({
  message: z.string(),
  email: z.string(),
  /**
   * Kept by the browser that signed up: sent with the verification link's token (POST /user/activate), it signs that
   * browser in, once, within an hour of the sign-up, into the account the link verifies. For an address that had an
   * account already it is just as random and opens nothing.
   */
  sign_in_key: z.string(),
});
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

/** The verification link's token, and the sign-up browser's key when this is that browser (ZSignupData.sign_in_key). */
export const ZActivateRequest = z.object({ token: z.string().trim().min(10).max(200), sign_in_key: z.string().trim().min(10).max(200).optional() });
export type TActivateRequest = z.infer<typeof ZActivateRequest>;

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

export { SIGN_IN_LOCKED_MESSAGE, SIGN_IN_MAX_FAILURES, SIGN_IN_WINDOW_MINUTES, ZLoginRequest, type TLoginRequest } from './auth-forms';
export const ZLoginData = z.object({ token: z.string(), user: ZUserProfile });
export const ZLoginResponse = ZSuccess(ZLoginData);
export type TLoginData = z.infer<typeof ZLoginData>;

/** The address is verified; `login` is a new session when the sign-up browser's key came with the token, else null. */
export const ZActivateData = z.object({ message: z.string(), email: z.string(), isEmailVerified: z.literal(true), login: ZLoginData.nullable() });
export const ZActivateResponse = ZSuccess(ZActivateData);
export type TActivateData = z.infer<typeof ZActivateData>;

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
