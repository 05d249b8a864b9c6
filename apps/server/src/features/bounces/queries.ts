import { and, asc, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { TBounceWebhookPlatform } from '@verilead/contracts';
import type { TDb } from '../../platform/db/database';
import { bounces } from '../../platform/bounces/tables';
import { bounceCreditBacks, bounceReports, bounceWebhooks, type TCreditBackState } from './tables';

export type TReportRow = typeof bounceReports.$inferSelect;
export type TWebhookRow = typeof bounceWebhooks.$inferSelect;

export async function insertReport(exec: TDb, row: typeof bounceReports.$inferInsert): Promise<void> {
  await exec.insert(bounceReports).values(row);
}

export async function selectReport(exec: TDb, orgId: string, id: string): Promise<TReportRow | undefined> {
  const rows = await exec.select().from(bounceReports).where(and(eq(bounceReports.orgId, orgId), eq(bounceReports.id, id))).limit(1);
  return rows[0];
}

export async function lockReport(exec: TDb, orgId: string, id: string): Promise<TReportRow | undefined> {
  const rows = await exec.select().from(bounceReports).where(and(eq(bounceReports.orgId, orgId), eq(bounceReports.id, id))).for('update').limit(1);
  return rows[0];
}

export async function updateReport(exec: TDb, id: string, set: Partial<typeof bounceReports.$inferInsert>): Promise<TReportRow | undefined> {
  const rows = await exec.update(bounceReports).set(set).where(eq(bounceReports.id, id)).returning();
  return rows[0];
}

export function selectReportsPage(exec: TDb, orgId: string, page: number, limit: number): Promise<TReportRow[]> {
  return exec
    .select()
    .from(bounceReports)
    .where(eq(bounceReports.orgId, orgId))
    .orderBy(desc(bounceReports.createdAt), desc(bounceReports.id))
    .limit(limit)
    .offset((page - 1) * limit);
}

export async function countReports(exec: TDb, orgId: string): Promise<number> {
  const rows = await exec.select({ n: count() }).from(bounceReports).where(eq(bounceReports.orgId, orgId));
  return Number(rows[0]?.n ?? 0);
}

export function selectWebhooks(exec: TDb, orgId: string): Promise<TWebhookRow[]> {
  return exec.select().from(bounceWebhooks).where(eq(bounceWebhooks.orgId, orgId)).orderBy(bounceWebhooks.platform);
}

/** The webhook whose address's token hashes to `tokenHash` (SHA-256 hex: the token itself is never stored). */
export async function selectWebhookByTokenHash(exec: TDb, tokenHash: string): Promise<TWebhookRow | undefined> {
  const rows = await exec.select().from(bounceWebhooks).where(eq(bounceWebhooks.tokenHash, tokenHash)).limit(1);
  return rows[0];
}

/** Creates the organisation's webhook of the platform, or updates its key (and token hash when rotating). */
export async function upsertWebhook(
  exec: TDb,
  row: { orgId: string; platform: TBounceWebhookPlatform; tokenHash: string; verificationKey: string | null | undefined; createdBy: string; rotate: boolean },
): Promise<TWebhookRow> {
  const set: Partial<typeof bounceWebhooks.$inferInsert> = {};
  if (row.verificationKey !== undefined) set.verificationKey = row.verificationKey;
  if (row.rotate) set.tokenHash = row.tokenHash;
  const rows = await exec
    .insert(bounceWebhooks)
    .values({ orgId: row.orgId, platform: row.platform, tokenHash: row.tokenHash, verificationKey: row.verificationKey ?? null, createdBy: row.createdBy })
    .onConflictDoUpdate({ target: [bounceWebhooks.orgId, bounceWebhooks.platform], set: Object.keys(set).length ? set : { platform: sql`excluded.platform` } })
    .returning();
  return rows[0]!;
}

export async function countWebhookEvents(exec: TDb, id: string, n: number): Promise<void> {
  await exec.update(bounceWebhooks).set({ events: sql`${bounceWebhooks.events} + ${n}` }).where(eq(bounceWebhooks.id, id));
}

/** Stores bounces, ignoring any already stored (unique per organisation, address, kind, source and moment); answers the new ones. */
export async function insertBouncesOnce(exec: TDb, rows: (typeof bounces.$inferInsert)[]) {
  return exec
    .insert(bounces)
    .values(rows)
    .onConflictDoNothing()
    .returning({ id: bounces.id, email: bounces.email, kind: bounces.kind, source: bounces.source, bouncedAt: bounces.bouncedAt });
}

/** Claims credit-backs, one per verdict (its primary key): answers the verdicts this call claimed, none a concurrent one did. */
export async function claimCreditBacks(exec: TDb, rows: (typeof bounceCreditBacks.$inferInsert)[]) {
  return exec.insert(bounceCreditBacks).values(rows).onConflictDoNothing().returning({ verdictRef: bounceCreditBacks.verdictRef });
}

export type TClaimRow = typeof bounceCreditBacks.$inferSelect;

/** A claim awaiting its re-check: its address is kept (data retention erases settled claims' addresses only). */
export type TPendingClaimRow = TClaimRow & { email: string };

/** The organisation's claims awaiting their re-check, oldest first. */
export async function selectPendingClaims(exec: TDb, orgId: string, limit: number): Promise<TPendingClaimRow[]> {
  const rows = await exec
    .select()
    .from(bounceCreditBacks)
    .where(and(eq(bounceCreditBacks.orgId, orgId), eq(bounceCreditBacks.state, 'pending')))
    .orderBy(asc(bounceCreditBacks.createdAt), asc(bounceCreditBacks.verdictRef))
    .limit(limit);
  return rows.filter((r): r is TPendingClaimRow => r.email !== null);
}

/** The claim, locked, while it still awaits its re-check (undefined once another run settled it). */
export async function lockPendingClaim(exec: TDb, orgId: string, verdictRef: string): Promise<TClaimRow | undefined> {
  const rows = await exec
    .select()
    .from(bounceCreditBacks)
    .where(and(eq(bounceCreditBacks.orgId, orgId), eq(bounceCreditBacks.verdictRef, verdictRef), eq(bounceCreditBacks.state, 'pending')))
    .for('update')
    .limit(1);
  return rows[0];
}

/** Writes a re-check's outcome on a claim (its state, what the check answered, the ledger line when credited). */
export async function settleClaim(
  exec: TDb,
  orgId: string,
  verdictRef: string,
  set: { state: TCreditBackState; attempts: number; checkedAt: Date; checkStatus: string; checkReason: string; transactionId?: string },
): Promise<void> {
  await exec
    .update(bounceCreditBacks)
    .set(set)
    .where(and(eq(bounceCreditBacks.orgId, orgId), eq(bounceCreditBacks.verdictRef, verdictRef)));
}

export type TClaimTotals = { credited: number; creditsReturned: number; pending: number; declined: number };

/** Per report, its claims by state (a claim belongs to the report of the bounce that made it). */
export async function selectClaimTotalsByReport(exec: TDb, orgId: string, reportIds: readonly string[]): Promise<Map<string, TClaimTotals>> {
  const out = new Map<string, TClaimTotals>();
  if (reportIds.length === 0) return out;
  const rows = await exec
    .select({
      reportId: bounces.reportId,
      state: bounceCreditBacks.state,
      n: count(),
      credits: sql<string>`coalesce(sum(${bounceCreditBacks.credits}), 0)`,
    })
    .from(bounceCreditBacks)
    .innerJoin(bounces, eq(bounces.id, bounceCreditBacks.bounceId))
    .where(and(eq(bounceCreditBacks.orgId, orgId), inArray(bounces.reportId, [...reportIds])))
    .groupBy(bounces.reportId, bounceCreditBacks.state);
  for (const r of rows) {
    if (!r.reportId) continue;
    const t = out.get(r.reportId) ?? { credited: 0, creditsReturned: 0, pending: 0, declined: 0 };
    const n = Number(r.n);
    if (r.state === 'credited') {
      t.credited += n;
      t.creditsReturned += Number(r.credits);
    } else if (r.state === 'pending') t.pending += n;
    else t.declined += n;
    out.set(r.reportId, t);
  }
  return out;
}

/** Organisations with a claim that has waited since before `before` (created or last checked): their re-check was lost. */
export async function selectOrgsWithStaleClaims(exec: TDb, before: Date, limit: number): Promise<string[]> {
  const rows = await exec
    .selectDistinct({ orgId: bounceCreditBacks.orgId })
    .from(bounceCreditBacks)
    .where(and(eq(bounceCreditBacks.state, 'pending'), sql`coalesce(${bounceCreditBacks.checkedAt}, ${bounceCreditBacks.createdAt}) < ${before.toISOString()}`))
    .limit(limit);
  return rows.map((r) => r.orgId);
}
