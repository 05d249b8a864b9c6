import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import { selectRows, type TDb } from '../../platform/db/database';
import { operatorActions, operatorLinks, operators, operatorSessions } from './tables';

export type TOperatorRow = typeof operators.$inferSelect;

export async function selectOperatorByEmail(db: TDb, email: string): Promise<TOperatorRow | null> {
  const rows = await db.select().from(operators).where(eq(operators.email, email)).limit(1);
  return rows[0] ?? null;
}

export async function insertOperator(db: TDb, input: { email: string; name: string; invitedBy: string | null }): Promise<TOperatorRow> {
  const rows = await db.insert(operators).values(input).returning();
  return rows[0]!;
}

export async function selectOperators(db: TDb): Promise<TOperatorRow[]> {
  return db.select().from(operators).orderBy(operators.createdAt);
}

export async function selectOperatorById(db: TDb, operatorId: string): Promise<TOperatorRow | null> {
  const rows = await db.select().from(operators).where(eq(operators.id, operatorId)).limit(1);
  return rows[0] ?? null;
}

/** Every operator, locked until the transaction ends (disabling one counts the others: two at once cannot both pass). */
export async function lockOperators(db: TDb): Promise<TOperatorRow[]> {
  return db.select().from(operators).orderBy(operators.id).for('update');
}

export async function setOperatorDisabled(db: TDb, operatorId: string, disabled: boolean): Promise<void> {
  await db
    .update(operators)
    .set({ disabledAt: disabled ? new Date() : null })
    .where(eq(operators.id, operatorId));
}

/** Ends every open session and voids every unused link of an operator; answers how many of each. */
export async function revokeOperatorAccess(db: TDb, operatorId: string): Promise<{ sessions: number; links: number }> {
  const now = new Date();
  const sessions = await db
    .update(operatorSessions)
    .set({ revokedAt: now })
    .where(and(eq(operatorSessions.operatorId, operatorId), isNull(operatorSessions.revokedAt), gt(operatorSessions.expiresAt, now)))
    .returning({ id: operatorSessions.id });
  const links = await db
    .update(operatorLinks)
    .set({ usedAt: now })
    .where(and(eq(operatorLinks.operatorId, operatorId), isNull(operatorLinks.usedAt), gt(operatorLinks.expiresAt, now)))
    .returning({ id: operatorLinks.id });
  return { sessions: sessions.length, links: links.length };
}

export async function setOperatorPassword(db: TDb, operatorId: string, passwordHash: string): Promise<void> {
  await db.update(operators).set({ passwordHash }).where(eq(operators.id, operatorId));
}

export async function insertOperatorLink(db: TDb, operatorId: string, tokenHash: string, expiresAt: Date): Promise<void> {
  // A new link voids the operator's older unused ones.
  await db.update(operatorLinks).set({ usedAt: new Date() }).where(and(eq(operatorLinks.operatorId, operatorId), isNull(operatorLinks.usedAt)));
  await db.insert(operatorLinks).values({ operatorId, tokenHash, expiresAt });
}

/** Uses a link once: null when unknown, used or expired. */
export async function consumeOperatorLink(db: TDb, tokenHash: string): Promise<{ operatorId: string } | null> {
  const rows = await db
    .update(operatorLinks)
    .set({ usedAt: new Date() })
    .where(and(eq(operatorLinks.tokenHash, tokenHash), isNull(operatorLinks.usedAt), gt(operatorLinks.expiresAt, new Date())))
    .returning({ operatorId: operatorLinks.operatorId });
  return rows[0] ?? null;
}

export async function insertOperatorSession(db: TDb, operatorId: string, tokenHash: string, expiresAt: Date): Promise<void> {
  await db.insert(operatorSessions).values({ operatorId, tokenHash, expiresAt });
}

export async function revokeOperatorSession(db: TDb, sessionId: string): Promise<void> {
  await db.update(operatorSessions).set({ revokedAt: new Date() }).where(eq(operatorSessions.id, sessionId));
}

export type TOperatorIdentity = { operatorId: string; email: string; name: string; sessionId: string };

/** The operator of a live session token hash (not revoked, not expired, operator not disabled). */
export async function selectOperatorBySession(db: TDb, tokenHash: string): Promise<TOperatorIdentity | null> {
  const rows = await selectRows<TOperatorIdentity>(
    db,
    sql`select o.id as "operatorId", o.email, o.name, s.id as "sessionId"
        from operator_sessions s join operators o on o.id = s.operator_id
        where s.token_hash = ${tokenHash} and s.revoked_at is null and s.expires_at > now() and o.disabled_at is null
        limit 1`,
  );
  return rows[0] ?? null;
}

export async function insertOperatorAction(
  db: TDb,
  input: { operatorId: string | null; operatorEmail: string; action: string; orgId?: string | null; targetType?: string | null; targetId?: string | null; details?: Record<string, unknown> },
): Promise<void> {
  await db.insert(operatorActions).values({
    operatorId: input.operatorId,
    operatorEmail: input.operatorEmail,
    action: input.action,
    orgId: input.orgId ?? null,
    targetType: input.targetType ?? null,
    targetId: input.targetId ?? null,
    details: input.details ?? {},
  });
}

export async function selectOperatorActions(db: TDb, input: { orgId?: string; limit: number; offset: number }) {
  const where = input.orgId ? eq(operatorActions.orgId, input.orgId) : undefined;
  const [items, total] = await Promise.all([
    db.select().from(operatorActions).where(where).orderBy(desc(operatorActions.createdAt), desc(operatorActions.id)).limit(input.limit).offset(input.offset),
    db.select({ n: sql<number>`count(*)::int` }).from(operatorActions).where(where),
  ]);
  return { items, total: total[0]?.n ?? 0 };
}

/**
 * The operator log's retention: entries older than `days` go, and failed sign-ins (written by anyone who tries an
 * address) after `failedSignInDays`. Answers how many were deleted.
 */
export async function purgeOperatorActions(db: TDb, days: number, failedSignInDays: number): Promise<number> {
  const rows = await selectRows<{ n: number }>(
    db,
    sql`with gone as (
          delete from ${operatorActions}
           where ${operatorActions.createdAt} < now() - make_interval(days => ${days})
              or (${operatorActions.action} = 'operator.sign_in_failed' and ${operatorActions.createdAt} < now() - make_interval(days => ${failedSignInDays}))
          returning 1)
        select count(*)::int as n from gone`,
  );
  return rows[0]?.n ?? 0;
}
