import type { TDb } from '../../platform/db/database';
import { insertEvent, selectEvents } from './queries';

export type TEventRecord = { id: string; org_id: string; user_id: string | null; type: string; payload: Record<string, unknown>; created_at: string };

/** Records a product event; pass the transaction that holds the change the event reports. */
export async function recordEvent(
  exec: TDb,
  input: { orgId: string; userId?: string | null; type: string; payload: Record<string, unknown> },
): Promise<{ id: string }> {
  const row = await insertEvent(exec, { orgId: input.orgId, userId: input.userId ?? null, type: input.type, payload: input.payload });
  return { id: row.id };
}

/** An organisation's events in order (oldest first), optionally of some types and after a time: what webhook delivery reads. */
export async function listEvents(exec: TDb, input: { orgId: string; types?: string[]; after?: Date; limit?: number }): Promise<TEventRecord[]> {
  const rows = await selectEvents(exec, { orgId: input.orgId, types: input.types, after: input.after, limit: Math.min(input.limit ?? 100, 1000) });
  return rows.map((r) => ({ id: r.id, org_id: r.orgId, user_id: r.userId, type: r.type, payload: r.payload, created_at: r.createdAt.toISOString() }));
}
