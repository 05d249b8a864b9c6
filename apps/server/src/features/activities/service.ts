import type { TActivitiesData, TActivityType } from '@verilead/contracts';
import { ZActivitiesRequest } from '@verilead/contracts';
import type { z } from 'zod';
import type { TDb } from '../../platform/db/database';
import { AppError } from '../../platform/errors/app-error';
import { parseDateEndExclusive, parseDateStart } from '../../platform/http/dates';
import type { TCallerContext } from '../../platform/tenancy/context';
import { deleteUserActivities, insertActivity, selectActivities } from './queries';

/** Records one of the user's notable actions (pass the transaction when inside one). */
export async function recordActivity(
  exec: TDb,
  input: { orgId: string; userId: string; type: TActivityType; description: string; metadata?: Record<string, unknown> },
): Promise<void> {
  await insertActivity(exec, { ...input, metadata: input.metadata ?? {} });
}

/** The caller's own activities, newest first, filtered by type and date range. */
export async function listActivities(exec: TDb, ctx: TCallerContext, input: z.output<typeof ZActivitiesRequest>): Promise<TActivitiesData> {
  const types = input.type === undefined ? undefined : Array.isArray(input.type) ? input.type : [input.type];
  const from = input.from ? parseDateStart(input.from) : undefined;
  const toExclusive = input.to ? parseDateEndExclusive(input.to) : undefined;
  if (from && toExclusive && from >= toExclusive) {
    throw new AppError(400, 'validation_failed', 'from must be before to', { reasons: [{ field: 'from', location: 'body', messages: ['from must be before to'] }] });
  }
  const { rows, total } = await selectActivities(exec, {
    orgId: ctx.orgId,
    userId: ctx.userId,
    types,
    from,
    toExclusive,
    offset: (input.page - 1) * input.limit,
    limit: input.limit,
  });
  return {
    items: rows.map((r) => ({ id: r.id, type: r.type as TActivityType, description: r.description, metadata: r.metadata, created_at: r.createdAt.toISOString() })),
    total,
    page: input.page,
    limit: input.limit,
  };
}

/** Erases a user's activity log (account deletion). */
export function eraseUserActivities(exec: TDb, userId: string): Promise<void> {
  return deleteUserActivities(exec, userId);
}
