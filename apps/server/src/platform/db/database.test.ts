import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TTestDb } from '../../test/test-db';
import { createMutex, openPglite, selectRows, sql } from './database';

describe('database', () => {
  let t: TTestDb;
  beforeAll(async () => {
    t = await createTestDb();
  });
  afterAll(async () => {
    await t.dispose();
  });

  it('is migrated and rolls a failed transaction back', async () => {
    const tables = await selectRows<{ table_name: string }>(
      t.db,
      sql`select table_name from information_schema.tables where table_schema = 'public' order by table_name`,
    );
    expect(tables.map((r) => r.table_name)).toContain('credit_transactions');
    await expect(
      t.transaction(async (tx) => {
        await tx.execute(sql`insert into organisations (name) values ('rolled back')`);
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    const rows = await selectRows<{ n: number }>(t.db, sql`select count(*)::int as n from organisations where name = 'rolled back'`);
    expect(rows[0]?.n).toBe(0);
  });

  it('serialises concurrent transactions', async () => {
    await t.db.execute(sql`insert into organisations (name, credits_balance) values ('counter', 0)`);
    await Promise.all(
      Array.from({ length: 20 }, () =>
        t.transaction(async (tx) => {
          await tx.execute(sql`update organisations set credits_balance = credits_balance + 1 where name = 'counter'`);
        }),
      ),
    );
    const rows = await selectRows<{ credits_balance: number }>(t.db, sql`select credits_balance from organisations where name = 'counter'`);
    expect(rows[0]?.credits_balance).toBe(20);
  });

  it('mutex runs holders one at a time in order', async () => {
    const run = createMutex();
    const order: number[] = [];
    let inside = 0;
    let maxInside = 0;
    await Promise.all(
      [1, 2, 3].map((n) =>
        run(async () => {
          inside += 1;
          maxInside = Math.max(maxInside, inside);
          await new Promise((r) => setImmediate(r));
          order.push(n);
          inside -= 1;
        }),
      ),
    );
    expect(order).toEqual([1, 2, 3]);
    expect(maxInside).toBe(1);
  });
});

describe('the embedded database on disk', () => {
  it('is created in a child process with small shared buffers, and opens ready the next time', async () => {
    const root = await mkdtemp(join(tmpdir(), 'vl-pglite-dir-'));
    try {
      const dir = join(root, 'pglite');
      for (let i = 0; i < 2; i += 1) {
        const database = await openPglite(dir);
        const rows = await selectRows<{ shared_buffers: string }>(database.db, sql`show shared_buffers`);
        expect(rows[0]?.shared_buffers).toBe('32MB');
        await database.close();
      }
      expect(await readFile(join(dir, 'postgresql.auto.conf'), 'utf8')).toContain("shared_buffers = '32MB'");
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
