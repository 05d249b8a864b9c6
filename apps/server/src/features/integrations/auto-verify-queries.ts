import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { selectRows, type TDb } from '../../platform/db/database';
import { integrationAutoVerify, integrationImportMembers, integrationImports } from './tables';
import type { TImportRow } from './queries';

// The SQL of a platform list kept in sync: its automatic verification of new contacts and the write-back of runs.

export type TAutoVerifyRow = typeof integrationAutoVerify.$inferSelect;

/** The newest import of a platform (not the organisation's own leads) that made this verifier list. */
export async function selectImportOfList(exec: TDb, listId: string): Promise<TImportRow | null> {
  const rows = await exec
    .select()
    .from(integrationImports)
    .where(and(eq(integrationImports.verifyListId, listId), sql`${integrationImports.platform} <> 'leads'`))
    .orderBy(desc(integrationImports.createdAt))
    .limit(1);
  return rows[0] ?? null;
}

export async function selectAutoVerify(exec: TDb, importId: string, lock = false): Promise<TAutoVerifyRow | null> {
  const q = exec.select().from(integrationAutoVerify).where(eq(integrationAutoVerify.importId, importId)).limit(1);
  const rows = lock ? await q.for('update') : await q;
  return rows[0] ?? null;
}

export async function upsertAutoVerify(exec: TDb, row: { importId: string; orgId: string; enabled: boolean }): Promise<void> {
  await exec
    .insert(integrationAutoVerify)
    .values(row)
    .onConflictDoUpdate({ target: integrationAutoVerify.importId, set: { enabled: row.enabled, lastError: null, updatedAt: new Date() } });
}

export async function updateAutoVerify(exec: TDb, importId: string, values: Partial<typeof integrationAutoVerify.$inferInsert>): Promise<void> {
  await exec
    .update(integrationAutoVerify)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(integrationAutoVerify.importId, importId));
}

/** Enabled lists whose last poll started before `before` (or never), locked; another worker's are skipped. */
export async function selectDuePollsForUpdate(exec: TDb, before: Date, limit: number) {
  return selectRows<{ import_id: string; org_id: string; user_id: string }>(
    exec,
    // a suspended organisation's or member's lists are not polled (nothing is charged to them) until restored
    sql`select a.import_id, i.org_id, i.user_id from integration_auto_verify a join integration_imports i on i.id = a.import_id
          join organisations o on o.id = i.org_id join users u on u.id = i.user_id
        where a.enabled and i.state = 'completed' and i.account_id is not null and o.suspended_at is null and u.suspended_at is null
          and (a.polled_at is null or a.polled_at < ${before.toISOString()}::timestamptz)
        order by a.polled_at nulls first limit ${limit} for update of a skip locked`,
  );
}

/** The members of an import with these sequence numbers (= the verifier list's row numbers). */
export async function selectMembersBySeq(exec: TDb, importId: string, seqs: number[]) {
  if (seqs.length === 0) return [];
  return exec
    .select()
    .from(integrationImportMembers)
    .where(and(eq(integrationImportMembers.importId, importId), inArray(integrationImportMembers.seq, seqs)));
}
