import { and, count, desc, eq, gte, lt, type SQL } from 'drizzle-orm';
import type { TCreditTransactionKind } from '@verilead/contracts';
import type { TDb } from '../../platform/db/database';
import { creditTransactions } from '../../platform/credits/tables';
import { organisations, users } from '../../platform/tenancy/tables';

export async function selectTransactions(
  exec: TDb,
  f: { orgId: string; userId?: string; kind?: TCreditTransactionKind; from?: Date; toExclusive?: Date; offset: number; limit: number },
) {
  const where: SQL[] = [eq(creditTransactions.orgId, f.orgId)];
  if (f.userId) where.push(eq(creditTransactions.userId, f.userId));
  if (f.kind) where.push(eq(creditTransactions.kind, f.kind));
  if (f.from) where.push(gte(creditTransactions.createdAt, f.from));
  if (f.toExclusive) where.push(lt(creditTransactions.createdAt, f.toExclusive));
  const cond = and(...where);
  const [rows, totals] = await Promise.all([
    exec
      .select({ t: creditTransactions, userName: users.name })
      .from(creditTransactions)
      .leftJoin(users, eq(users.id, creditTransactions.userId))
      .where(cond)
      .orderBy(desc(creditTransactions.seq))
      .limit(f.limit)
      .offset(f.offset),
    exec.select({ n: count() }).from(creditTransactions).where(cond),
  ]);
  return { rows, total: totals[0]?.n ?? 0 };
}

export async function selectOrgAlert(exec: TDb, orgId: string) {
  const rows = await exec
    .select({ enabled: organisations.lowCreditAlertEnabled, threshold: organisations.lowCreditThreshold })
    .from(organisations)
    .where(eq(organisations.id, orgId))
    .limit(1);
  return rows[0] ?? { enabled: false, threshold: 0 };
}

export async function selectUserAlert(exec: TDb, userId: string) {
  const rows = await exec
    .select({ enabled: users.lowCreditAlertEnabled, threshold: users.lowCreditThreshold })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  return rows[0] ?? { enabled: false, threshold: 0 };
}
