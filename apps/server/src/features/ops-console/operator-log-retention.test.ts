import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selectRows } from '../../platform/db/database';
import { createTestDb, type TTestDb } from '../../test/test-db';
import { createOperatorLogRetentionTask } from './operator-log-retention';

// The security review: failed operator sign-ins are written for any address anyone tries, and the operator log had
// no retention at all.
describe('operator log retention', () => {
  let db: TTestDb;
  beforeAll(async () => {
    db = await createTestDb();
  });
  afterAll(async () => {
    await db?.dispose();
  });

  it('keeps the log as long as the audit log and failed sign-ins 30 days', async () => {
    const add = (email: string, action: string, daysAgo: number) =>
      db.db.execute(sql`insert into operator_actions (operator_email, action, created_at) values (${email}, ${action}, now() - make_interval(days => ${daysAgo}))`);
    await add('old@ops.test', 'operator.signed_in', 400);
    await add('kept@ops.test', 'org.suspended', 100);
    await add('guess@ops.test', 'operator.sign_in_failed', 40);
    await add('recent-guess@ops.test', 'operator.sign_in_failed', 10);
    const result = await createOperatorLogRetentionTask({ database: db, retentionDays: 365 }).run();
    expect(result).toEqual({ deleted: 2 });
    const left = await selectRows<{ operator_email: string }>(db.db, sql`select operator_email from operator_actions order by operator_email`);
    expect(left.map((r) => r.operator_email)).toEqual(['kept@ops.test', 'recent-guess@ops.test']);
  });
});
