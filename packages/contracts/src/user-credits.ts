// The user's credits: balance and limits, the transactions and the grouped ledger, the credit checks the screens
// make, and the announcement banner shown to every signed-in user.
import { z } from 'zod';
import { ZSuccess } from './envelopes';
import { ZDateInput, ZPage, ZPageSize, ZPaged } from './common';
import { ZCreditTransactionKind, ZSourceAgent } from './enums';
import { ZLowCreditAlert, ZMemberLimits } from './user-profile';

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
