import { ZJobActivityType, type TActivitiesData, type TActivity, type TActivityType, type TJobActivityStatus, type TJobActivityType } from '@verilead/contracts';
import { ZActivitiesRequest } from '@verilead/contracts';
import type { z } from 'zod';
import type { TDb } from '../../platform/db/database';
import { AppError } from '../../platform/errors/app-error';
import { parseDateEndExclusive, parseDateStart } from '../../platform/http/dates';
import type { TCallerContext } from '../../platform/tenancy/context';
import { selectUserTimeZone } from '../../platform/tenancy/time-zone';
import { deleteUserActivities, insertActivity, selectActivities } from './queries';

type TActivitiesInput = z.output<typeof ZActivitiesRequest>;

/**
 * A job that is queued or running, as its feature reads it from the state it already keeps (list, download, import
 * or enrichment rows): the activities screen shows it above the history until it ends and records its history row.
 */
export type TRunningJobActivity = {
  /** Unique among running jobs, e.g. `verify:<list id>`. */
  key: string;
  type: TJobActivityType;
  status: 'queued' | 'in_progress';
  progress: number | null;
  description: string;
  metadata: Record<string, unknown>;
  /** When the job was queued or last moved. */
  since: Date;
};

/** Records one of the user's notable actions (pass the transaction when inside one). */
export async function recordActivity(
  exec: TDb,
  input: { orgId: string; userId: string; type: TActivityType; description: string; metadata?: Record<string, unknown> },
): Promise<void> {
  await insertActivity(exec, { ...input, metadata: input.metadata ?? {} });
}

const JOB_TYPES = new Set<string>(ZJobActivityType.options);

/** How a history row of a job ended: `failed` rows failed, rows marked cancelled were cancelled, the rest completed. */
function historyStatus(type: string, metadata: Record<string, unknown>): TJobActivityStatus | null {
  if (!JOB_TYPES.has(type)) return null;
  if (type === 'failed') return 'failed';
  return metadata.cancelled === true ? 'cancelled' : 'completed';
}

/** The instants a request's plain dates stand for, in the caller's time zone (400 when `from` is not before `to`). */
export async function resolveActivityRange(exec: TDb, ctx: TCallerContext, input: Pick<TActivitiesInput, 'from' | 'to'>): Promise<{ from?: Date; toExclusive?: Date }> {
  const timeZone = input.from || input.to ? await selectUserTimeZone(exec, ctx.userId) : 'UTC';
  const from = input.from ? parseDateStart(input.from, timeZone) : undefined;
  const toExclusive = input.to ? parseDateEndExclusive(input.to, timeZone) : undefined;
  if (from && toExclusive && from >= toExclusive) {
    throw new AppError('validation_failed', 'from must be before to', { reasons: [{ field: 'from', location: 'body', messages: ['from must be before to'] }] });
  }
  return { from, toExclusive };
}

export function toActivityTypes(type: TActivitiesInput['type']): TActivityType[] | undefined {
  return type === undefined ? undefined : Array.isArray(type) ? type : [type];
}

/** The caller's own history (account actions and finished jobs), newest first, filtered by type and date range. */
export async function listActivities(
  exec: TDb,
  ctx: TCallerContext,
  input: TActivitiesInput,
  page: { offset: number; limit: number } = { offset: (input.page - 1) * input.limit, limit: input.limit },
): Promise<TActivitiesData> {
  const { from, toExclusive } = await resolveActivityRange(exec, ctx, input);
  const { rows, total } = await selectActivities(exec, {
    orgId: ctx.orgId,
    userId: ctx.userId,
    types: toActivityTypes(input.type),
    from,
    toExclusive,
    offset: page.offset,
    limit: page.limit,
  });
  return {
    items: rows.map(
      (r): TActivity => ({
        id: r.id,
        type: r.type,
        description: r.description,
        metadata: r.metadata,
        created_at: r.createdAt.toISOString(),
        status: historyStatus(r.type, r.metadata),
        progress: null,
      }),
    ),
    total,
    page: input.page,
    limit: input.limit,
  };
}

/** Erases a user's activity log (account deletion). */
export function eraseUserActivities(exec: TDb, userId: string): Promise<void> {
  return deleteUserActivities(exec, userId);
}
