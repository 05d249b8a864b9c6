import { and, asc, count, desc, eq, gte, inArray, lte, sql } from 'drizzle-orm';
import type { TDeliveryStatus } from '@verilead/contracts';
import { selectRows, type TDb } from '../../platform/db/database';
import type { TVisibleScope } from '../../platform/tenancy/context';
import { memberships } from '../../platform/tenancy/tables';
import { webhookAttempts, webhookDeliveries, webhookDispatchCursor, webhooks, webhookSecrets } from './tables';

export type TWebhookRow = typeof webhooks.$inferSelect;
export type TDeliveryRow = typeof webhookDeliveries.$inferSelect;
export type TAttemptRow = typeof webhookAttempts.$inferSelect;

export async function insertWebhook(exec: TDb, values: typeof webhooks.$inferInsert): Promise<TWebhookRow> {
  return (await exec.insert(webhooks).values(values).returning())[0]!;
}

/** The conditions of a visible scope: the organisation, and the creator when the caller sees only their own webhooks. */
function scopeOf(scope: TVisibleScope) {
  return scope.userId ? [eq(webhooks.orgId, scope.orgId), eq(webhooks.createdBy, scope.userId)] : [eq(webhooks.orgId, scope.orgId)];
}

export async function updateWebhook(exec: TDb, scope: TVisibleScope, id: string, values: Partial<typeof webhooks.$inferInsert>): Promise<TWebhookRow | null> {
  const rows = await exec
    .update(webhooks)
    .set({ ...values, updatedAt: new Date() })
    .where(and(eq(webhooks.id, id), ...scopeOf(scope)))
    .returning();
  return rows[0] ?? null;
}

export async function selectWebhook(exec: TDb, scope: TVisibleScope, id: string): Promise<TWebhookRow | null> {
  const rows = await exec
    .select()
    .from(webhooks)
    .where(and(eq(webhooks.id, id), ...scopeOf(scope)))
    .limit(1);
  return rows[0] ?? null;
}

export async function selectWebhookById(exec: TDb, id: string): Promise<TWebhookRow | null> {
  const rows = await exec.select().from(webhooks).where(eq(webhooks.id, id)).limit(1);
  return rows[0] ?? null;
}

export async function selectWebhooks(exec: TDb, scope: TVisibleScope, page: number, limit: number) {
  const where = and(...scopeOf(scope));
  const [rows, totals] = await Promise.all([
    exec.select().from(webhooks).where(where).orderBy(desc(webhooks.createdAt)).limit(limit).offset((page - 1) * limit),
    exec.select({ n: count() }).from(webhooks).where(where),
  ]);
  return { rows, total: totals[0]?.n ?? 0 };
}

export async function selectWebhookNames(exec: TDb, scope: TVisibleScope) {
  return exec
    .select({ id: webhooks.id, name: webhooks.name })
    .from(webhooks)
    .where(and(...scopeOf(scope)))
    .orderBy(asc(webhooks.name));
}

/** Deletes the webhook; its name, or null when there was none in scope. */
export async function deleteWebhook(exec: TDb, scope: TVisibleScope, id: string): Promise<{ name: string } | null> {
  const rows = await exec
    .delete(webhooks)
    .where(and(eq(webhooks.id, id), ...scopeOf(scope)))
    .returning({ name: webhooks.name });
  return rows[0] ?? null;
}

export async function selectSecret(exec: TDb, orgId: string): Promise<string | null> {
  const rows = await exec.select({ s: webhookSecrets.secretEnc }).from(webhookSecrets).where(eq(webhookSecrets.orgId, orgId)).limit(1);
  return rows[0]?.s ?? null;
}

export async function upsertSecret(exec: TDb, orgId: string, secretEnc: string): Promise<void> {
  await exec
    .insert(webhookSecrets)
    .values({ orgId, secretEnc })
    .onConflictDoUpdate({ target: webhookSecrets.orgId, set: { secretEnc, createdAt: new Date() } });
}

/** Inserts a delivery unless this webhook already has one for the event; answers the new row or null. */
export async function insertDelivery(exec: TDb, values: typeof webhookDeliveries.$inferInsert): Promise<TDeliveryRow | null> {
  const rows = await exec.insert(webhookDeliveries).values(values).onConflictDoNothing().returning();
  return rows[0] ?? null;
}

export async function selectDelivery(exec: TDb, id: string): Promise<TDeliveryRow | null> {
  const rows = await exec.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id)).limit(1);
  return rows[0] ?? null;
}

/** A delivery of a webhook the scope sees. */
export async function selectOrgDelivery(exec: TDb, scope: TVisibleScope, id: string): Promise<TDeliveryRow | null> {
  const rows = await exec
    .select({ d: webhookDeliveries })
    .from(webhookDeliveries)
    .innerJoin(webhooks, eq(webhooks.id, webhookDeliveries.webhookId))
    .where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.orgId, scope.orgId), ...scopeOf(scope)))
    .limit(1);
  return rows[0]?.d ?? null;
}

export async function updateDelivery(exec: TDb, id: string, values: Partial<typeof webhookDeliveries.$inferInsert>): Promise<void> {
  await exec
    .update(webhookDeliveries)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(webhookDeliveries.id, id));
}

export async function insertAttempt(exec: TDb, values: typeof webhookAttempts.$inferInsert): Promise<void> {
  await exec.insert(webhookAttempts).values(values);
}

export async function countAttempts(exec: TDb, deliveryId: string): Promise<number> {
  const rows = await exec.select({ n: count() }).from(webhookAttempts).where(eq(webhookAttempts.deliveryId, deliveryId));
  return rows[0]?.n ?? 0;
}

export async function selectDeliveries(
  exec: TDb,
  scope: TVisibleScope,
  q: { page: number; limit: number; webhookId?: string; eventType?: string; status?: TDeliveryStatus; from?: Date; to?: Date },
) {
  const conditions = [eq(webhookDeliveries.orgId, scope.orgId), ...scopeOf(scope)];
  if (q.webhookId) conditions.push(eq(webhookDeliveries.webhookId, q.webhookId));
  if (q.eventType) conditions.push(eq(webhookDeliveries.eventType, q.eventType));
  if (q.status) conditions.push(eq(webhookDeliveries.status, q.status));
  if (q.from) conditions.push(gte(webhookDeliveries.createdAt, q.from));
  if (q.to) conditions.push(lte(webhookDeliveries.createdAt, q.to));
  const where = and(...conditions);
  const [rows, totals] = await Promise.all([
    exec
      .select({ d: webhookDeliveries, webhookName: webhooks.name })
      .from(webhookDeliveries)
      .innerJoin(webhooks, eq(webhooks.id, webhookDeliveries.webhookId))
      .where(where)
      .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
      .limit(q.limit)
      .offset((q.page - 1) * q.limit),
    exec
      .select({ n: count() })
      .from(webhookDeliveries)
      .innerJoin(webhooks, eq(webhooks.id, webhookDeliveries.webhookId))
      .where(where),
  ]);
  return { rows, total: totals[0]?.n ?? 0 };
}

export async function selectAttempts(exec: TDb, deliveryIds: string[]): Promise<TAttemptRow[]> {
  if (deliveryIds.length === 0) return [];
  return exec.select().from(webhookAttempts).where(inArray(webhookAttempts.deliveryId, deliveryIds)).orderBy(asc(webhookAttempts.attempt));
}

const CURSOR_ID = 'events';

export type TCursor = { lastCreatedAt: string; lastEventId: string | null };

export async function selectCursor(exec: TDb): Promise<TCursor | null> {
  const rows = await exec.select().from(webhookDispatchCursor).where(eq(webhookDispatchCursor.id, CURSOR_ID)).limit(1);
  return rows[0] ?? null;
}

export async function saveCursor(exec: TDb, lastCreatedAt: string, lastEventId: string): Promise<void> {
  await exec
    .insert(webhookDispatchCursor)
    .values({ id: CURSOR_ID, lastCreatedAt, lastEventId })
    .onConflictDoUpdate({ target: webhookDispatchCursor.id, set: { lastCreatedAt, lastEventId, updatedAt: new Date() } });
}

export type TEventRow = { id: string; orgId: string; userId: string | null; type: string; payload: Record<string, unknown>; createdAt: string };

/** Events after the cursor (ordered by time, then id), at least `lagMs` old; created_at kept as text (microseconds). */
export async function selectEventsAfter(exec: TDb, cursor: TCursor | null, lagMs: number, limit: number): Promise<TEventRow[]> {
  const after = cursor
    ? sql`(created_at > ${cursor.lastCreatedAt}::timestamptz or (created_at = ${cursor.lastCreatedAt}::timestamptz and id > ${cursor.lastEventId ?? '00000000-0000-0000-0000-000000000000'}::uuid))`
    : sql`true`;
  return selectRows<TEventRow>(
    exec,
    sql`select id, org_id as "orgId", user_id as "userId", type, payload, created_at::text as "createdAt" from events
        where ${after} and created_at <= now() - make_interval(secs => ${lagMs / 1000})
        order by created_at, id limit ${limit}`,
  );
}

/** Active webhooks of an organisation subscribed to an event type, with their creator's role in it (null: none). */
export async function selectSubscribers(exec: TDb, orgId: string, eventType: string): Promise<(TWebhookRow & { creatorRole: string | null })[]> {
  const rows = await exec
    .select({ webhook: webhooks, creatorRole: memberships.role })
    .from(webhooks)
    .leftJoin(memberships, and(eq(memberships.userId, webhooks.createdBy), eq(memberships.orgId, webhooks.orgId)))
    .where(and(eq(webhooks.orgId, orgId), eq(webhooks.status, 'active'), sql`${webhooks.events} @> ${JSON.stringify([eventType])}::jsonb`));
  return rows.map((r) => ({ ...r.webhook, creatorRole: r.creatorRole }));
}
