import { and, eq, sql, type SQL } from 'drizzle-orm';
import { selectRows, type TDb } from '../db/database';
import { memberships, organisations } from '../tenancy/tables';
import { creditTransactions } from './tables';

// The ledger's statements. The ledger (ledger.ts) decides and orders them inside its caller's transaction; every
// balance or counter change here is one conditional UPDATE on its row.

/** The day a daily limit is counted on: an injected YYYY-MM-DD or the database's current_date. */
export function sqlDay(today?: string): SQL {
  return today ? sql`${today}::date` : sql`current_date`;
}

/**
 * The member's daily figures on `day`, as SQL over the memberships row:
 * - usedOn: credits used that day (the counter restarts each day);
 * - limitOn: the daily limit in force that day (a pending change applies from its day);
 * - capOn: the allowance that day — today's directly set cap ("remaining daily limit") if set for that day, else limitOn.
 */
export function sqlMemberDaily(day: SQL) {
  const usedOn = sql`(case when ${memberships.dailyUsedOn} = ${day} then ${memberships.dailyUsed} else 0 end)`;
  const limitOn = sql`(case when ${memberships.dailyLimitNextFrom} is not null and ${memberships.dailyLimitNextFrom} <= ${day} then ${memberships.dailyLimitNext} else ${memberships.dailyLimit} end)`;
  const capOn = sql`(case when ${memberships.dailyCapOn} = ${day} then ${memberships.dailyCap} else ${limitOn} end)`;
  return { usedOn, limitOn, capOn };
}

export type TLedgerEntryRow = typeof creditTransactions.$inferInsert;

/** Inserts one ledger entry; answers its id. */
export async function insertLedgerEntry(tx: TDb, row: TLedgerEntryRow): Promise<string> {
  const rows = await tx.insert(creditTransactions).values(row).returning({ id: creditTransactions.id });
  return rows[0]!.id;
}

/**
 * Counts `n` credits on the member's daily and life-time usage, in one conditional UPDATE that succeeds only while
 * the member is active and both limits allow it. True when the row was updated.
 */
export async function countMemberUsage(tx: TDb, m: { orgId: string; userId: string; n: number; today?: string }): Promise<boolean> {
  const day = sqlDay(m.today);
  const { usedOn, capOn } = sqlMemberDaily(day);
  const n = m.n;
  const updated = await tx
    .update(memberships)
    .set({
      dailyUsed: sql`${usedOn} + ${n}`,
      dailyUsedOn: sql`${day}`,
      lifeTimeUsed: sql`${memberships.lifeTimeUsed} + ${n}`,
    })
    .where(
      and(
        eq(memberships.userId, m.userId),
        eq(memberships.orgId, m.orgId),
        eq(memberships.status, 'active'),
        sql`(${memberships.lifeTimeLimit} is null or ${memberships.lifeTimeUsed} + ${n} <= ${memberships.lifeTimeLimit})`,
        sql`(${capOn} is null or ${usedOn} + ${n} <= ${capOn})`,
      ),
    )
    .returning({ id: memberships.id });
  return updated.length > 0;
}

/** Who of the organisation and the member (when given) an operator suspended, if any (a plain read: why a charge was refused). */
export async function selectSuspension(exec: TDb, orgId: string, userId: string | null): Promise<'organisation' | 'user' | null> {
  const rows = await selectRows<{ org: boolean | null; user: boolean | null }>(
    exec,
    sql`select (select suspended_at is not null from organisations where id = ${orgId}) as org,
               (select suspended_at is not null from users where id = ${userId}) as user`,
  );
  if (rows[0]?.org) return 'organisation';
  return rows[0]?.user ? 'user' : null;
}

/**
 * Share-locks the user's row while they are not suspended; false when they are. An operator's suspension (an UPDATE
 * of the row) waits for the charging transaction, and one that committed first is seen (the locked read re-reads it).
 */
export async function lockActiveUser(tx: TDb, userId: string): Promise<boolean> {
  const rows = await selectRows<{ ok: number }>(tx, sql`select 1 as ok from users where id = ${userId} and suspended_at is null for share`);
  return rows.length > 0;
}

export type TMemberChargeState = { status: string; life_time_limit: number | null; life_time_used: number; cap: number | null; used: number };

/** The member's status, life-time figures and the day's allowance and use (why a charge was refused). */
export async function selectMemberChargeState(tx: TDb, m: { orgId: string; userId: string; today?: string }): Promise<TMemberChargeState | undefined> {
  const { usedOn, capOn } = sqlMemberDaily(sqlDay(m.today));
  const rows = await selectRows<TMemberChargeState>(
    tx,
    sql`select ${memberships.status} as status, ${memberships.lifeTimeLimit} as life_time_limit, ${memberships.lifeTimeUsed} as life_time_used,
               ${capOn} as cap, (${usedOn})::int as used
        from ${memberships} where ${memberships.userId} = ${m.userId} and ${memberships.orgId} = ${m.orgId} limit 1`,
  );
  return rows[0];
}

/**
 * Takes `n` credits off the balance only if it covers them and, when `activeOnly`, the organisation is not suspended (one
 * conditional UPDATE, re-checked on the row an operator's suspension just changed); the new balance, or undefined.
 */
export async function debitOrgBalance(tx: TDb, orgId: string, n: number, opts: { activeOnly: boolean }): Promise<number | undefined> {
  const rows = await tx
    .update(organisations)
    .set({ creditsBalance: sql`${organisations.creditsBalance} - ${n}` })
    .where(and(eq(organisations.id, orgId), sql`${organisations.creditsBalance} >= ${n}`, opts.activeOnly ? sql`${organisations.suspendedAt} is null` : undefined))
    .returning({ balance: organisations.creditsBalance });
  return rows[0]?.balance;
}

/** Adds `amount` credits to the balance; the new balance, or undefined for an unknown organisation. */
export async function creditOrgBalance(tx: TDb, orgId: string, amount: number): Promise<number | undefined> {
  const rows = await tx
    .update(organisations)
    .set({ creditsBalance: sql`${organisations.creditsBalance} + ${amount}` })
    .where(eq(organisations.id, orgId))
    .returning({ balance: organisations.creditsBalance });
  return rows[0]?.balance;
}

/** The organisation's balance (0 for an unknown organisation). */
export async function selectOrgBalance(exec: TDb, orgId: string): Promise<number> {
  const rows = await exec.select({ balance: organisations.creditsBalance }).from(organisations).where(eq(organisations.id, orgId)).limit(1);
  return rows[0]?.balance ?? 0;
}

/** Lowers the member's daily and life-time usage by `amount` (never below 0). */
export async function lowerMemberUsage(tx: TDb, m: { orgId: string; userId: string; amount: number; today?: string }): Promise<void> {
  const day = sqlDay(m.today);
  const { usedOn } = sqlMemberDaily(day);
  await tx
    .update(memberships)
    .set({
      dailyUsed: sql`greatest(0, ${usedOn} - ${m.amount})`,
      dailyUsedOn: sql`${day}`,
      lifeTimeUsed: sql`greatest(0, ${memberships.lifeTimeUsed} - ${m.amount})`,
    })
    .where(and(eq(memberships.userId, m.userId), eq(memberships.orgId, m.orgId)));
}

export type TMemberLimitsRow = { daily_limit: number | null; life_time_limit: number | null; daily_used: number; life_time_used: number };

/** The member's allowance and use on the day, and life-time limit and use. */
export async function selectMemberLimitsRow(exec: TDb, orgId: string, userId: string, today?: string): Promise<TMemberLimitsRow | undefined> {
  const { usedOn, capOn } = sqlMemberDaily(sqlDay(today));
  const rows = await selectRows<TMemberLimitsRow>(
    exec,
    sql`select ${capOn} as daily_limit, ${memberships.lifeTimeLimit} as life_time_limit,
               (${usedOn})::int as daily_used, ${memberships.lifeTimeUsed} as life_time_used
        from ${memberships} where ${memberships.orgId} = ${orgId} and ${memberships.userId} = ${userId} limit 1`,
  );
  return rows[0];
}

export type TMemberLimitsSet = Partial<Pick<typeof memberships.$inferInsert, 'dailyLimit' | 'dailyLimitNext' | 'dailyLimitNextFrom' | 'dailyCap' | 'dailyCapOn' | 'lifeTimeLimit'>>;

export async function updateMemberLimits(exec: TDb, orgId: string, userId: string, set: TMemberLimitsSet): Promise<void> {
  await exec
    .update(memberships)
    .set(set)
    .where(and(eq(memberships.orgId, orgId), eq(memberships.userId, userId)));
}
