import { z } from 'zod';
import { ZPage, ZPageSize, ZPaged } from './common';
import { ZSuccess } from './envelopes';

// ---------- bounces fed back (issue 32 point 2) ----------

/** A hard bounce (the address does not exist: 5.x.x) or a soft one (a passing refusal: 4.x.x, mailbox full). */
export const ZBounceKind = z.enum(['hard', 'soft']);
export type TBounceKind = z.infer<typeof ZBounceKind>;
/** Where a bounce came from: an uploaded report, or a connected ESP's webhook. */
export const ZBounceSource = z.enum(['upload', 'sendgrid', 'mailchimp']);
export type TBounceSource = z.infer<typeof ZBounceSource>;
/** The ESPs whose bounce webhooks the product takes. */
export const ZBounceWebhookPlatform = z.enum(['sendgrid', 'mailchimp']);
export type TBounceWebhookPlatform = z.infer<typeof ZBounceWebhookPlatform>;

/** The evidence a hard bounce adds to a result of the organisation (the result then reads invalid). */
export const ZBounceEvidence = z.object({
  kind: ZBounceKind,
  bounced_at: z.string(),
  source: ZBounceSource,
  /** The ESP's reason text, as it gave it. */
  reason: z.string().nullable(),
  /** The SMTP status or code the ESP gave (5.1.1, 550…). */
  code: z.string().nullable(),
});
export type TBounceEvidence = z.infer<typeof ZBounceEvidence>;

const ZColumn = z.number().int().min(0).max(999).nullable();
/** Which column of a bounce report holds what (0-based); the email column is required. */
export const ZBounceMapping = z.object({
  email_column: z.number().int().min(0, { message: 'Please choose the email column' }).max(999),
  type_column: ZColumn,
  code_column: ZColumn,
  reason_column: ZColumn,
  date_column: ZColumn,
});
export type TBounceMapping = z.infer<typeof ZBounceMapping>;

/** One sample row as the mapping reads it. */
export const ZBounceSampleRow = z.object({ cells: z.array(z.string()), email: z.string(), kind: ZBounceKind.nullable() });

/** POST /bounces/reports/upload: the stored report's columns, a sample and the detected mapping (nothing applied yet). */
export const ZBounceReportPreview = z.object({
  report_id: z.string(),
  file_name: z.string(),
  columns: z.array(z.string()),
  has_header: z.boolean(),
  /** The ESP whose export the header looks like, when recognised. */
  detected_esp: z.string().nullable(),
  mapping: ZBounceMapping,
  sample: z.array(ZBounceSampleRow),
});
export type TBounceReportPreview = z.infer<typeof ZBounceReportPreview>;
export const ZBounceReportPreviewResponse = ZSuccess(ZBounceReportPreview);

export const ZBounceApplyRequest = z.object({ report_id: z.uuid({ message: 'Please choose an uploaded report' }), mapping: ZBounceMapping });
export type TBounceApplyRequest = z.infer<typeof ZBounceApplyRequest>;

/** What applying a report (or a batch of webhook events) did. */
export const ZBounceTotals = z.object({
  rows: z.number().int().nonnegative(),
  hard: z.number().int().nonnegative(),
  soft: z.number().int().nonnegative(),
  /** Rows without an address or a bounce type the mapping could read. */
  ignored: z.number().int().nonnegative(),
  /** Hard bounces of addresses the organisation verified (any verdict). */
  matched: z.number().int().nonnegative(),
  /** Valid verdicts credited back (within the guarantee, the bounce confirmed by a re-check of the address). */
  credited: z.number().int().nonnegative(),
  credits_returned: z.number().int().nonnegative(),
  /** Claims whose re-check is still to come (the credit comes back once the address's mail server refuses it). */
  credit_backs_pending: z.number().int().nonnegative(),
  /** Claims the re-check declined: the mail server still accepted the address, or the domain accepts any address, or the check never could tell. */
  credit_backs_declined: z.number().int().nonnegative(),
});
export type TBounceTotals = z.infer<typeof ZBounceTotals>;

export const ZBounceReportState = z.enum(['preview', 'applied']);
export const ZBounceReport = ZBounceTotals.extend({
  id: z.string(),
  file_name: z.string(),
  state: ZBounceReportState,
  created_at: z.string(),
  applied_at: z.string().nullable(),
});
export type TBounceReport = z.infer<typeof ZBounceReport>;
export const ZBounceReportResponse = ZSuccess(ZBounceReport);

export const ZBounceReportsQuery = z.object({ page: ZPage.default(1), limit: ZPageSize.default(25) });
export const ZBounceReportsData = ZPaged(ZBounceReport).extend({
  /** BOUNCE_GUARANTEE_DAYS: a valid verdict that hard-bounced within this many days is credited back (0: no guarantee). */
  guarantee_days: z.number().int().nonnegative(),
});
export type TBounceReportsData = z.infer<typeof ZBounceReportsData>;
export const ZBounceReportsResponse = ZSuccess(ZBounceReportsData);

/**
 * A connected ESP's bounce webhook. Its address is a secret stored hashed: it is answered once, when the webhook is
 * created or its address rotated (ZBounceWebhookSet), never in the list.
 */
export const ZBounceWebhook = z.object({
  platform: ZBounceWebhookPlatform,
  /** SendGrid: a verification key is stored, so every event's ECDSA signature is checked. */
  signed: z.boolean(),
  events: z.number().int().nonnegative(),
  created_at: z.string(),
});
export type TBounceWebhook = z.infer<typeof ZBounceWebhook>;
export const ZBounceWebhooksData = z.object({ items: z.array(ZBounceWebhook) });
export type TBounceWebhooksData = z.infer<typeof ZBounceWebhooksData>;
export const ZBounceWebhooksResponse = ZSuccess(ZBounceWebhooksData);

/** POST /bounces/webhooks: creates (or updates) the ESP's webhook; SendGrid's verification key turns signature checks on. */
export const ZBounceWebhookSetRequest = z.object({
  platform: ZBounceWebhookPlatform,
  verification_key: z
    .string()
    .trim()
    .max(1_000, { message: 'The verification key is too long' })
    .regex(/^[A-Za-z0-9+/=\s-]*$/, { message: 'Paste the verification key as SendGrid shows it (base64)' })
    .optional(),
  /** Give the webhook a new address (the old one stops working). */
  rotate: z.boolean().optional(),
});
export type TBounceWebhookSetRequest = z.infer<typeof ZBounceWebhookSetRequest>;
/** What POST /bounces/webhooks answers: the webhook and, when this call made its address (created or rotated), the address, shown this once; null otherwise. */
export const ZBounceWebhookSet = ZBounceWebhook.extend({ url: z.string().nullable() });
export type TBounceWebhookSet = z.infer<typeof ZBounceWebhookSet>;
export const ZBounceWebhookResponse = ZSuccess(ZBounceWebhookSet);

/** What a bounce webhook answers the ESP; `claimed`: valid verdicts whose credit-back awaits its re-check. */
export const ZBounceWebhookReceipt = z.object({ received: z.number().int().nonnegative(), hard: z.number().int().nonnegative(), soft: z.number().int().nonnegative(), claimed: z.number().int().nonnegative() });
export const ZBounceWebhookReceiptResponse = ZSuccess(ZBounceWebhookReceipt);
