import { z } from 'zod';
import { ZSuccess } from './envelopes';

// ---------- extension uninstall survey ----------

export const EXTENSION_UNINSTALL_REASONS = [
  'not_useful',
  'inaccurate_results',
  'too_expensive',
  'hard_to_use',
  'privacy_concern',
  'found_alternative',
  'temporary',
  'others',
] as const;
export const ZExtensionUninstallReason = z.enum(EXTENSION_UNINSTALL_REASONS, { message: 'Please choose a reason from the list' });
export const EXTENSION_UNINSTALL_REASON_LABELS: Record<(typeof EXTENSION_UNINSTALL_REASONS)[number], string> = {
  not_useful: 'It was not useful for me',
  inaccurate_results: 'The results were not accurate',
  too_expensive: 'It is too expensive',
  hard_to_use: 'It was hard to use',
  privacy_concern: 'I am worried about my privacy',
  found_alternative: 'I found an alternative',
  temporary: 'I will install it again later',
  others: 'Something else',
};
export const ZExtensionUninstallRequest = z
  .object({
    reasons: z.array(ZExtensionUninstallReason).min(1, { message: 'Please choose at least one reason' }).max(EXTENSION_UNINSTALL_REASONS.length),
    other_reason: z.string().trim().max(1000, { message: 'Please keep it under 1000 characters' }).optional(),
    comment: z.string().trim().max(2000, { message: 'Please keep it under 2000 characters' }).optional(),
    email: z.string().trim().max(320).optional(),
    extension_version: z.string().trim().max(40).optional(),
  })
  .superRefine((v, ctx) => {
    if (v.reasons.includes('others') && !v.other_reason) ctx.addIssue({ code: 'custom', path: ['other_reason'], message: 'Please tell us the reason' });
  });
export type TExtensionUninstallRequest = z.input<typeof ZExtensionUninstallRequest>;
export const ZExtensionUninstallResponse = ZSuccess(z.object({ message: z.string() }));

// ---------- where the visitor is, from the request alone ----------

export const ZIpLocation = z.object({
  ip: z.string().nullable(),
  /** ISO 3166-1 alpha-2, or null when unknown (private addresses, no hint in the request). */
  country_code: z.string().nullable(),
  /** How the country was found. */
  source: z.enum(['geoip', 'proxy_header', 'accept_language', 'unknown']),
  /** The currency the price lists use for this visitor (INR for India, otherwise USD). */
  currency: z.enum(['USD', 'INR']),
});
export type TIpLocation = z.infer<typeof ZIpLocation>;
export const ZIpLocationResponse = ZSuccess(ZIpLocation);

// ---------- marketing figures ----------

export const ZMarketingStats = z.object({
  emails_verified: z.number().int().nonnegative(),
  emails_found: z.number().int().nonnegative(),
  organisations: z.number().int().nonnegative(),
  users: z.number().int().nonnegative(),
  generated_at: z.string(),
});
export type TMarketingStats = z.infer<typeof ZMarketingStats>;
export const ZMarketingStatsResponse = ZSuccess(ZMarketingStats);

// ---------- the browser extension's version check ----------

export const ZExtensionVersionQuery = z.object({
  v: z
    .string()
    .trim()
    .regex(/^\d+(\.\d+){0,3}$/, { message: 'Please send the extension version as numbers and dots, e.g. 1.4.0' })
    .optional(),
});
export const ZExtensionVersion = z.object({
  latest_version: z.string(),
  min_supported_version: z.string(),
  /** The caller's version (v) is older than the latest one. */
  update_available: z.boolean(),
  /** The caller's version is older than the oldest one still supported. */
  update_required: z.boolean(),
});
export type TExtensionVersion = z.infer<typeof ZExtensionVersion>;
export const ZExtensionVersionResponse = ZSuccess(ZExtensionVersion);

// ---------- review link ----------

export const ZG2CrowdUrl = z.object({ url: z.string() });
export const ZG2CrowdUrlResponse = ZSuccess(ZG2CrowdUrl);
