import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestDb, type TTestDb } from '../../test/test-db';
import { selectRows } from '../../platform/db/database';
import { memberships, organisations, users } from '../../platform/tenancy/tables';
import { EMPTY_COUNTERS, insertListEmails, markListDuplicates, selectListRowsPage, verifyListStore } from './queries';

describe('duplicates of a list, marked once its file is stored', () => {
  let t: TTestDb;
  let listId: string;

  let orgId: string;
  let userId: string;

  async function newList(id = randomUUID()) {
    await verifyListStore.insert(t.db, {
      id,
      orgId,
      userId,
      name: 'dupes',
      fileName: 'dupes.csv',
      fileType: 'csv',
      source: 'upload',
      storageKey: `uploads/${id}`,
      sizeBytes: 1,
      emailColumn: 0,
      hasHeader: false,
      state: 'non_verified',
      activity: null,
      analysisState: 'processing',
      counters: { ...EMPTY_COUNTERS },
    });
    return id;
  }

  beforeAll(async () => {
    t = await createTestDb();
    const [org] = await t.db.insert(organisations).values({ name: 'Dupes' }).returning();
    const [user] = await t.db.insert(users).values({ email: 'owner@dupes.test', name: 'Owner' }).returning();
    await t.db.insert(memberships).values({ orgId: org!.id, userId: user!.id, role: 'owner' });
    orgId = org!.id;
    userId = user!.id;
    listId = await newList();
  });
  afterAll(async () => {
    await t.dispose();
  });

  it('keeps the first row of each key unique and points its repeats at it, across batches; a key seen once stays unique', async () => {
    const row = (rowNumber: number, email: string, dedupeKey = email.toLowerCase(), syntaxError = false) => ({ rowNumber, email, dedupeKey, syntaxError });
    // Two insert batches, as the analysis stores them; the repeats of a@x.test come in both.
    await insertListEmails(t.db, listId, [row(1, 'a@x.test'), row(2, 'B@x.test'), row(3, 'A@X.test'), row(4, 'not-an-address', 'not-an-address', true)]);
    await insertListEmails(t.db, listId, [row(5, 'c@x.test'), row(6, 'a@x.test'), row(7, 'b@x.test'), row(8, 'not-an-address', 'not-an-address', true)]);
    // The rows that may repeat an earlier key, and the rows those keys were first seen on: row 5 (c@x.test) comes in as a
    // hash collision would bring it (it repeats nothing) and stays unique; syntax errors are never duplicates.
    const marked = await markListDuplicates(t.db, listId, [1, 2, 3, 4, 5, 6, 7, 8, 1, 3]);
    expect(marked).toBe(3);
    const rows = await selectRows<{ row_number: number; kind: string; first_row: number | null }>(
      t.db,
      sql`select row_number, kind, first_row from verify_list_emails where list_id = ${listId} order by row_number`,
    );
    expect(rows).toEqual([
      { row_number: 1, kind: 'unique', first_row: null },
      { row_number: 2, kind: 'unique', first_row: null },
      { row_number: 3, kind: 'duplicate', first_row: 1 },
      { row_number: 4, kind: 'syntax_error', first_row: null },
      { row_number: 5, kind: 'unique', first_row: null },
      { row_number: 6, kind: 'duplicate', first_row: 1 },
      { row_number: 7, kind: 'duplicate', first_row: 2 },
      { row_number: 8, kind: 'syntax_error', first_row: null },
    ]);
  });

  it("answers each duplicate with its unique row's result in exports", async () => {
    await t.db.execute(
      sql`update verify_list_emails set status = 'valid', result = '{"status":"valid"}'::jsonb where list_id = ${listId} and row_number = 1`,
    );
    const page = await selectListRowsPage(t.db, listId, 0, 10);
    expect(page.filter((r) => r.row_number === 3 || r.row_number === 6).map((r) => [r.status, r.result])).toEqual([
      ['valid', { status: 'valid' }],
      ['valid', { status: 'valid' }],
    ]);
    expect(page.find((r) => r.row_number === 7)!.status).toBeNull();
  });

  it("goes with its list: deleting the list (or its organisation) deletes its rows, and a deleted list gets no new rows", async () => {
    const rowsOf = async (id: string) =>
      (await selectRows<{ n: number }>(t.db, sql`select count(*)::int as n from verify_list_emails where list_id = ${id}`))[0]!.n;
    const row = (rowNumber: number) => ({ rowNumber, email: `p${rowNumber}@x.test`, dedupeKey: `p${rowNumber}@x.test`, syntaxError: false });
    const removed = await newList();
    await insertListEmails(t.db, removed, [row(1), row(2)]);
    expect(await rowsOf(removed)).toBe(2);
    await verifyListStore.delete(t.db, { orgId }, removed);
    expect(await rowsOf(removed)).toBe(0);
    await insertListEmails(t.db, removed, [row(3)]);
    expect(await rowsOf(removed)).toBe(0);
    await insertListEmails(t.db, randomUUID(), [row(1)]);
    expect((await selectRows<{ n: number }>(t.db, sql`select count(*)::int as n from verify_list_emails e where not exists (select 1 from verify_lists l where l.id = e.list_id)`))[0]!.n).toBe(0);

    const [other] = await t.db.insert(organisations).values({ name: 'Gone' }).returning();
    const kept = orgId;
    orgId = other!.id;
    const ofGone = await newList();
    orgId = kept;
    await insertListEmails(t.db, ofGone, [row(1)]);
    expect(await rowsOf(ofGone)).toBe(1);
    await t.db.execute(sql`delete from organisations where id = ${other!.id}`);
    expect(await rowsOf(ofGone)).toBe(0);
  });
});
