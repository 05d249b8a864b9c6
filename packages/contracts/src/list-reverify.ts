import { z } from 'zod';
import { ZVerificationStatus } from './enums';
import { ZSuccess } from './envelopes';

// Lists that stay verified (issue 32 point 3): a list's re-verification schedule, its runs and what each changed,
// and the automatic verification of contacts newly added to a connected platform list.

export const REVERIFY_PERIODS = ['off', 'monthly', 'quarterly'] as const;
export const ZReverifyPeriod = z.enum(REVERIFY_PERIODS, { message: 'schedule must be one of off, monthly or quarterly' });
export type TReverifyPeriod = z.infer<typeof ZReverifyPeriod>;

/** The days a schedule's period stands for: the default age of the results it re-checks. */
export const REVERIFY_PERIOD_DAYS: Record<Exclude<TReverifyPeriod, 'off'>, number> = { monthly: 30, quarterly: 90 };
export const REVERIFY_MAX_AGE_DAYS = 730;

const ZListId = z.uuid({ message: 'list_id must be a list id' });

/** GET /email_verify/list/keep_verified?list_id (and `age_days`/`schedule` to price a choice before saving it). */
export const ZKeepVerifiedQuery = z.object({
  list_id: ZListId,
  schedule: ZReverifyPeriod.optional(),
  age_days: z.coerce.number({ message: 'age_days must be a number of days' }).int('age_days must be a whole number of days').min(1, 'age_days must be at least 1').max(REVERIFY_MAX_AGE_DAYS, `age_days must be at most ${REVERIFY_MAX_AGE_DAYS}`).optional(),
});
export type TKeepVerifiedQuery = z.infer<typeof ZKeepVerifiedQuery>;

/**
 * PUT /email_verify/list/keep_verified: turns the schedule on (or changes it) or off. Turning it on needs the cost
 * per run the person was shown (`accepted_cost_per_run`): when the estimate is now higher, 409 with the new figure.
 */
export const ZKeepVerifiedRequest = z
  .object({
    list_id: ZListId,
    schedule: ZReverifyPeriod,
    age_days: z.number({ message: 'age_days must be a number of days' }).int('age_days must be a whole number of days').min(1, 'age_days must be at least 1').max(REVERIFY_MAX_AGE_DAYS, `age_days must be at most ${REVERIFY_MAX_AGE_DAYS}`).optional(),
    accepted_cost_per_run: z.number().int().min(0).optional(),
  })
  .refine((b) => b.schedule === 'off' || b.accepted_cost_per_run !== undefined, {
    message: 'Confirm the cost per run (accepted_cost_per_run) to turn the schedule on',
    path: ['accepted_cost_per_run'],
  });
export type TKeepVerifiedRequest = z.infer<typeof ZKeepVerifiedRequest>;

export const ZReverifyRunState = z.enum(['queued', 'running', 'completed', 'skipped', 'stopped']);
export const ZReverifyRunKind = z.enum(['scheduled', 'new_contacts']);
export type TReverifyRunKind = z.infer<typeof ZReverifyRunKind>;

/** One transition a run saw, e.g. valid → invalid, with how many rows made it (`from` null: never verified before). */
export const ZReverifyTransition = z.object({ from: ZVerificationStatus.nullable(), to: ZVerificationStatus, count: z.number().int() });
export type TReverifyTransition = z.infer<typeof ZReverifyTransition>;

export const ZReverifyRun = z.object({
  id: z.string(),
  kind: ZReverifyRunKind,
  state: ZReverifyRunState,
  reason: z.string().nullable(),
  due_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  planned: z.number().int(),
  rechecked: z.number().int(),
  charged: z.number().int(),
  changed: z.number().int(),
  transitions: z.array(ZReverifyTransition),
});
export type TReverifyRun = z.infer<typeof ZReverifyRun>;

export const ZKeepVerifiedData = z.object({
  list_id: z.string(),
  schedule: ZReverifyPeriod,
  age_days: z.number().int(),
  /** What a run at the next run date would re-check and charge at most (1 credit per aged address). */
  cost_per_run: z.number().int(),
  /** The credits of the schedule's confirmed cost (null while off). */
  confirmed_cost_per_run: z.number().int().nullable(),
  next_run_at: z.string().nullable(),
  last_run_at: z.string().nullable(),
  /** Why the last due run did not happen (e.g. not enough credits), until a run completes. */
  skipped_reason: z.string().nullable(),
  credits_balance: z.number().int(),
  /** Whether the list can be kept verified now (a list being verified or never verified cannot yet). */
  available: z.boolean(),
  unavailable_reason: z.string().nullable(),
  runs: z.array(ZReverifyRun),
});
export type TKeepVerifiedData = z.infer<typeof ZKeepVerifiedData>;
export const ZKeepVerifiedResponse = ZSuccess(ZKeepVerifiedData);

/** GET /email_verify/list/keep_verified/changes?list_id&run_id&page: the rows a run (default: the latest) changed (or `all=true`: every row it re-checked). */
export const ZReverifyChangesQuery = z.object({
  list_id: ZListId,
  run_id: z.uuid({ message: 'run_id must be a run id' }).optional(),
  page: z.coerce.number().int().min(1, 'page must be at least 1').default(1),
  per_page: z.coerce.number().int().min(1).max(500, 'per_page must be at most 500').default(50),
  all: z.enum(['true', 'false'], { message: 'all must be true or false' }).default('false'),
});
export type TReverifyChangesQuery = z.infer<typeof ZReverifyChangesQuery>;
export const ZReverifyChange = z.object({
  row_number: z.number().int(),
  email: z.string(),
  previous_status: ZVerificationStatus.nullable(),
  previous_verified_at: z.string().nullable(),
  status: ZVerificationStatus,
});
export type TReverifyChange = z.infer<typeof ZReverifyChange>;
export const ZReverifyChangesData = z.object({ total: z.number().int(), page: z.number().int(), per_page: z.number().int(), rows: z.array(ZReverifyChange) });
export type TReverifyChangesData = z.infer<typeof ZReverifyChangesData>;
export const ZReverifyChangesResponse = ZSuccess(ZReverifyChangesData);

/** GET /integration/list_sync?list_id: the platform list a verifier list came from (if any), and its automatic verification. */
export const ZListSyncQuery = z.object({ list_id: ZListId });
export const ZListSyncData = z.object({
  list_id: z.string(),
  /** False for a list that was not imported from a connected platform (the rest is then empty). */
  from_platform: z.boolean(),
  import_id: z.string().nullable(),
  platform: z.string().nullable(),
  remote_list_name: z.string().nullable(),
  auto_verify: z.boolean(),
  /** Credits per new contact verified (each charged once). */
  cost_per_contact: z.number().int(),
  polled_at: z.string().nullable(),
  added: z.number().int(),
  last_error: z.string().nullable(),
});
export type TListSyncData = z.infer<typeof ZListSyncData>;
export const ZListSyncResponse = ZSuccess(ZListSyncData);
/** PUT /integration/list_sync: turns the automatic verification of new contacts on (with the cost per contact shown) or off. */
export const ZListSyncRequest = z
  .object({ list_id: ZListId, auto_verify: z.boolean({ message: 'auto_verify must be true or false' }), accepted_cost_per_contact: z.number().int().min(0).optional() })
  .refine((b) => !b.auto_verify || b.accepted_cost_per_contact !== undefined, {
    message: 'Confirm the cost per new contact (accepted_cost_per_contact) to turn automatic verification on',
    path: ['accepted_cost_per_contact'],
  });
export type TListSyncRequest = z.infer<typeof ZListSyncRequest>;
