import { z } from 'zod';
import { ZSuccess } from './envelopes';
import { ZPage, ZPageSize, ZPaged } from './common';
import { ZVerificationMode } from './enums';
import { ZGibberishThreshold } from './email-verifier';

// ---------- email verifier settings (ev-settings) ----------

export const ZEvSettings = z.object({
  setting_last_modified_on: z.string().nullable(),
  default_email_verify_mode: ZVerificationMode,
  can_show_email_verify_mode: z.boolean(),
  auto_pilot_status: z.boolean(),
  gibberish_threshold_value: ZGibberishThreshold,
});
export type TEvSettings = z.infer<typeof ZEvSettings>;
export const DEFAULT_EV_SETTINGS: TEvSettings = {
  setting_last_modified_on: null,
  default_email_verify_mode: 'highest_accuracy',
  can_show_email_verify_mode: false,
  auto_pilot_status: false,
  gibberish_threshold_value: 'high',
};
export const ZEvSettingsResponse = ZSuccess(ZEvSettings);

export const ZAutopilotRequest = z.object({ auto_pilot_status: z.boolean() });
export type TAutopilotRequest = z.infer<typeof ZAutopilotRequest>;
export const ZAccuracyRequest = z.object({ default_email_verify_mode: ZVerificationMode, can_show_email_verify_mode: z.boolean().optional() });
export type TAccuracyRequest = z.infer<typeof ZAccuracyRequest>;
export const ZGibberishThresholdRequest = z.object({ gibberish_threshold_value: ZGibberishThreshold });
export type TGibberishThresholdRequest = z.infer<typeof ZGibberishThresholdRequest>;

// ---------- allow / block list (wb_list) ----------

export const ZWbListType = z.enum(['allow', 'block']);
export type TWbListType = z.infer<typeof ZWbListType>;
/** An entry is a full address (a@b.com) or a domain (b.com). */
export const ZWbListEntry = z
  .string()
  .trim()
  .toLowerCase()
  .min(3)
  .max(254)
  .regex(/^([^\s@]+@)?[a-z0-9\u00a1-\uffff]([a-z0-9\u00a1-\uffff-]*[a-z0-9\u00a1-\uffff])?(\.[a-z0-9\u00a1-\uffff]([a-z0-9\u00a1-\uffff-]*[a-z0-9\u00a1-\uffff])?)+$/, {
    message: 'Each entry must be an email address or a domain',
  });
export const WB_LIST_MAX_ENTRIES = 10_000;
export const ZWbListUpdateRequest = z.object({
  action: z.enum(['add', 'remove']),
  list_type: ZWbListType,
  entries: z.array(ZWbListEntry).min(1, { message: 'Please enter at least one entry' }).max(1000, { message: 'At most 1000 entries at once' }),
});
export type TWbListUpdateRequest = z.input<typeof ZWbListUpdateRequest>;
export const ZWbListQuery = z.object({
  list_type: ZWbListType.optional(),
  search: z.string().trim().max(254).optional(),
  page: ZPage.default(1),
  limit: ZPageSize.default(25),
});
export type TWbListQuery = z.input<typeof ZWbListQuery>;
export const ZWbListItem = z.object({ value: z.string(), list_type: ZWbListType, kind: z.enum(['email', 'domain']), created_at: z.string() });
export type TWbListItem = z.infer<typeof ZWbListItem>;
export const ZWbListData = ZPaged(ZWbListItem).extend({
  allow_count: z.number().int().nonnegative(),
  block_count: z.number().int().nonnegative(),
  setting_last_modified_on: z.string().nullable(),
});
export type TWbListData = z.infer<typeof ZWbListData>;
export const ZWbListResponse = ZSuccess(ZWbListData);

// ---------- notifications, finder, prospect ----------

export const ZNotificationSettings = z.object({
  setting_last_modified_on: z.string().nullable(),
  notifications: z.boolean(),
  low_credit_notification: z.boolean(),
});
export type TNotificationSettings = z.infer<typeof ZNotificationSettings>;
export const ZNotificationSettingsRequest = z
  .object({ notifications: z.boolean().optional(), low_credit_notification: z.boolean().optional() })
  .refine((v) => v.notifications !== undefined || v.low_credit_notification !== undefined, { message: 'Nothing to update' });
export type TNotificationSettingsRequest = z.infer<typeof ZNotificationSettingsRequest>;

export const ZEfSettings = z.object({
  setting_last_modified_on: z.string().nullable(),
  include_role_email: z.boolean(),
  strict_domain_check: z.boolean(),
});
export type TEfSettings = z.infer<typeof ZEfSettings>;
export const ZEfSettingsRequest = z
  .object({ include_role_email: z.boolean().optional(), strict_domain_check: z.boolean().optional() })
  .refine((v) => v.include_role_email !== undefined || v.strict_domain_check !== undefined, { message: 'Nothing to update' });
export type TEfSettingsRequest = z.infer<typeof ZEfSettingsRequest>;

/** Enrich options (spec section 9). */
export const ZEnrichPhones = z.enum(['all', 'mobile_only', 'fixed_line_only', 'no_phones']);
export const ZEnrichEmails = z.enum(['all', 'business_only', 'non_role_only']);
export const ZEnrichSettings = z.object({ phones: ZEnrichPhones, emails: ZEnrichEmails });
export type TEnrichSettings = z.infer<typeof ZEnrichSettings>;
export const ZProspectSettings = z.object({
  setting_last_modified_on: z.string().nullable(),
  person_enrich_settings: ZEnrichSettings,
  company_enrich_settings: ZEnrichSettings,
});
export type TProspectSettings = z.infer<typeof ZProspectSettings>;
export const ZProspectEnrichRequest = z
  .object({ person_enrich_settings: ZEnrichSettings.optional(), company_enrich_settings: ZEnrichSettings.optional() })
  .refine((v) => v.person_enrich_settings !== undefined || v.company_enrich_settings !== undefined, { message: 'Nothing to update' });
export type TProspectEnrichRequest = z.infer<typeof ZProspectEnrichRequest>;

// ---------- single sign-on configuration (owner and managers) ----------

export const ZSsoProvider = z.enum(['saml', 'oidc', 'google', 'microsoft']);
export type TSsoProvider = z.infer<typeof ZSsoProvider>;
const ZDomainName = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+$/, { message: 'Please enter a valid domain' });
const ZHttpsUrl = z
  .url({ message: 'Please enter a valid URL' })
  .max(2000)
  // Plain http only on this machine (a local identity provider for tests and demos).
  .refine((v) => v.startsWith('https://') || /^http:\/\/(127\.0\.0\.1|localhost)(:\d+)?(\/|$)/.test(v), { message: 'The URL must start with https://' });

/** The role a member who joins just in time through SSO gets. */
export const ZSsoDefaultRole = z.enum(['admin', 'analyst'], { message: 'Please choose Manager or Executive' });

/**
 * A domain the organisation claims for single sign-on. It counts for discovery and just-in-time membership only once
 * verified: a TXT record `txt_value` published at `txt_name` proves the organisation controls the domain.
 */
export const ZSsoDomainClaim = z.object({
  domain: z.string(),
  status: z.enum(['pending', 'verified']),
  /** Where to publish the TXT record: `_verilead-challenge.<domain>`. */
  txt_name: z.string(),
  /** The TXT record's value: `verilead-domain-verification=<the organisation's token>`. */
  txt_value: z.string(),
  verified_at: z.string().nullable(),
  /** When the record was last looked up, and why that look-up did not verify the domain (null when it did). */
  checked_at: z.string().nullable(),
  failure: z.string().nullable(),
});
export type TSsoDomainClaim = z.infer<typeof ZSsoDomainClaim>;
export const ZSsoDomainClaimResponse = ZSuccess(ZSsoDomainClaim);
/** POST /user_preferences/sso/domains/verify: look the claimed domain's TXT record up now. */
export const ZSsoDomainVerifyRequest = z.object({ domain: ZDomainName });
export type TSsoDomainVerifyRequest = z.infer<typeof ZSsoDomainVerifyRequest>;

export const ZSsoSettings = z.object({
  setting_last_modified_on: z.string().nullable(),
  enabled: z.boolean(),
  enforce: z.boolean(),
  provider: ZSsoProvider.nullable(),
  domains: z.array(z.string()),
  issuer_url: z.string().nullable(),
  sso_url: z.string().nullable(),
  client_id: z.string().nullable(),
  /** The secret is stored encrypted and never sent back. */
  has_client_secret: z.boolean(),
  has_certificate: z.boolean(),
  default_role: ZSsoDefaultRole,
  /** One per domain in `domains`: pending until its TXT record is verified. */
  domain_claims: z.array(ZSsoDomainClaim),
});
export type TSsoSettings = z.infer<typeof ZSsoSettings>;
export const ZSsoSettingsResponse = ZSuccess(ZSsoSettings);

export const ZSsoSettingsRequest = z
  .object({
    enabled: z.boolean(),
    enforce: z.boolean().default(false),
    provider: ZSsoProvider,
    default_role: ZSsoDefaultRole.default('analyst'),
    domains: z.array(ZDomainName).min(1, { message: 'Please enter at least one domain' }).max(20),
    issuer_url: ZHttpsUrl.optional(),
    sso_url: ZHttpsUrl.optional(),
    client_id: z.string().trim().min(1).max(500).optional(),
    /** Omit to keep the stored secret. */
    client_secret: z.string().min(1).max(2000).optional(),
    certificate: z
      .string()
      .trim()
      .max(20_000)
      .regex(/^-----BEGIN CERTIFICATE-----[\s\S]+-----END CERTIFICATE-----$/, { message: 'The certificate must be PEM encoded' })
      .optional(),
  })
  .superRefine((v, ctx) => {
    if (v.provider === 'saml' && !v.sso_url) ctx.addIssue({ code: 'custom', path: ['sso_url'], message: 'SAML needs the identity provider SSO URL' });
    if (v.provider === 'oidc' && !v.issuer_url) ctx.addIssue({ code: 'custom', path: ['issuer_url'], message: 'OpenID Connect needs the issuer URL' });
    if (v.provider !== 'saml' && !v.client_id) ctx.addIssue({ code: 'custom', path: ['client_id'], message: 'Please enter the client id' });
  });
export type TSsoSettingsRequest = z.input<typeof ZSsoSettingsRequest>;

// ---------- everything at once ----------

/** GET /user_preferences: the caller's settings. */
export const ZUserPreferences = z.object({
  ev_settings: ZEvSettings,
  ef_settings: ZEfSettings,
  prospect_settings: ZProspectSettings,
  notification_settings: ZNotificationSettings,
});
export type TUserPreferences = z.infer<typeof ZUserPreferences>;
export const ZUserPreferencesResponse = ZSuccess(ZUserPreferences);
export const ZNotificationSettingsResponse = ZSuccess(ZNotificationSettings);
export const ZEfSettingsResponse = ZSuccess(ZEfSettings);
export const ZProspectSettingsResponse = ZSuccess(ZProspectSettings);
