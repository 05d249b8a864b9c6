import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

/** The tables whose rows the analytics screens read: the ledger and the results they add up. */
const RESULT_TABLES = ['instant_verifications', 'finder_instant', 'form_guard_checks'] as const;

/**
 * Copies an organisation's usage made since `since` (ledger charges and refunds, instant verifications and searches,
 * form guard checks) to each of `instants`, straight in a stopped server's embedded database (`DATA_DIR/pglite`), so
 * the analytics screens have the same usage in the past as now. The ledger's trigger fills the roll-ups as it does
 * for every charge. The server must be stopped: the embedded database is one process's.
 */
export async function copyUsageToPast(dataDir: string, email: string, since: Date, instants: Date[]): Promise<void> {
  const db = await PGlite.create(join(dataDir, 'pglite'), { extensions: { pg_trgm } });
  try {
    const org = await db.query<{ org_id: string }>('select m.org_id from memberships m join users u on u.id = m.user_id where u.email = $1', [email]);
    const orgId = org.rows[0]?.org_id;
    if (!orgId) throw new Error(`no organisation for ${email}`);
    await db.transaction(async (tx) => {
      for (const [n, at] of instants.entries()) {
        await tx.query(
          `insert into credit_transactions (org_id, user_id, kind, amount, reason, source_agent, object_type, object_id, balance_after, created_at)
           select org_id, user_id, kind, amount, reason, source_agent, object_type, object_id, balance_after, $3
           from credit_transactions where org_id = $1 and kind in ('charge', 'refund') and created_at >= $2`,
          [orgId, since.toISOString(), at.toISOString()],
        );
        for (const table of RESULT_TABLES) {
          await tx.exec('drop table if exists past_copy');
          await tx.query(`create temp table past_copy as select * from ${table} where org_id = $1 and created_at >= $2`, [orgId, since.toISOString()]);
          await tx.query('update past_copy set id = gen_random_uuid(), created_at = $1', [at.toISOString()]);
          // A check's request id is unique per guard.
          if (table === 'form_guard_checks') await tx.query(`update past_copy set request_id = request_id || '-past-' || $1`, [String(n)]);
          await tx.exec(`insert into ${table} select * from past_copy`);
        }
      }
      await tx.exec('drop table if exists past_copy');
    });
  } finally {
    await db.close();
  }
}
