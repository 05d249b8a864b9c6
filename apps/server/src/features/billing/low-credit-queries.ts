import { and, eq, gt, sql } from 'drizzle-orm';
import type { TDb } from '../../platform/db/database';
import { memberships, organisations, users } from '../../platform/tenancy/tables';
import { lowCreditAlerts } from './tables';

// The SQL of the low-credit alert (jobs.ts decides who is mailed).

/**
 * Every active owner whose alert is on (their own, else the organisation's), with the balance, the threshold that
 * applies (their own when their alert is on, else the organisation's) and whether the organisation was alerted already.
 */
export function selectLowCreditAlertOwners(db: TDb) {
  return db
    .select({
      orgId: organisations.id,
      orgName: organisations.name,
      balance: organisations.creditsBalance,
      email: users.email,
      name: users.name,
      threshold: sql<number>`case when ${users.lowCreditAlertEnabled} then ${users.lowCreditThreshold} else ${organisations.lowCreditThreshold} end`,
      alerted: sql<boolean>`exists (select 1 from ${lowCreditAlerts} where ${lowCreditAlerts.orgId} = ${organisations.id})`,
    })
    .from(memberships)
    .innerJoin(organisations, eq(organisations.id, memberships.orgId))
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(
      and(
        eq(memberships.role, 'owner'),
        eq(memberships.status, 'active'),
        sql`(${users.lowCreditAlertEnabled} or ${organisations.lowCreditAlertEnabled})`,
      ),
    );
}

/** Claims the organisation's alert once: true for the one caller that inserted it. */
export async function claimLowCreditAlert(tx: TDb, orgId: string): Promise<boolean> {
  const claimed = await tx.insert(lowCreditAlerts).values({ orgId }).onConflictDoNothing().returning({ orgId: lowCreditAlerts.orgId });
  return claimed.length > 0;
}

/** Re-arms the alerts of organisations back above every owner's threshold; how many were re-armed. */
export async function rearmLowCreditAlerts(db: TDb): Promise<number> {
  const rearmed = await db
    .delete(lowCreditAlerts)
    .where(
      sql`${lowCreditAlerts.orgId} in (select ${organisations.id} from ${organisations} where ${gt(organisations.creditsBalance, organisations.lowCreditThreshold)}
          and not exists (select 1 from ${memberships} join ${users} on ${users.id} = ${memberships.userId}
            where ${memberships.orgId} = ${organisations.id} and ${memberships.role} = 'owner' and ${users.lowCreditAlertEnabled}
              and ${organisations.creditsBalance} <= ${users.lowCreditThreshold}))`,
    )
    .returning({ orgId: lowCreditAlerts.orgId });
  return rearmed.length;
}
