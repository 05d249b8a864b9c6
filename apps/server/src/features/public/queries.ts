import { count, sql } from 'drizzle-orm';
import type { TDb } from '../../platform/db/database';
import { creditTransactions } from '../../platform/credits/tables';
import { memberships, organisations } from '../../platform/tenancy/tables';
import { extensionUninstallFeedback } from './tables';

export async function insertUninstallFeedback(exec: TDb, values: typeof extensionUninstallFeedback.$inferInsert) {
  await exec.insert(extensionUninstallFeedback).values(values);
}

/** Credits charged (less refunds) per source agent, across every organisation. */
export async function sumNetChargesByAgent(exec: TDb): Promise<Record<string, number>> {
  const rows = await exec
    .select({
      agent: creditTransactions.sourceAgent,
      net: sql<string>`coalesce(sum(case when ${creditTransactions.kind} = 'charge' then ${creditTransactions.amount} when ${creditTransactions.kind} = 'refund' then -${creditTransactions.amount} else 0 end), 0)`,
    })
    .from(creditTransactions)
    .groupBy(creditTransactions.sourceAgent);
  return Object.fromEntries(rows.filter((r) => r.agent).map((r) => [r.agent!, Math.max(0, Number(r.net))]));
}

export async function countOrganisationsAndUsers(exec: TDb): Promise<{ organisations: number; users: number }> {
  const [orgs, members] = await Promise.all([
    exec.select({ n: count() }).from(organisations),
    exec.select({ n: count() }).from(memberships).where(sql`${memberships.status} = 'active'`),
  ]);
  return { organisations: Number(orgs[0]?.n ?? 0), users: Number(members[0]?.n ?? 0) };
}
