import { eq, getTableColumns, sql } from 'drizzle-orm';
import { createSourceListStore } from '../../platform/bulk-lists/source-list-store';
import { selectRows, type TDb } from '../../platform/db/database';
import { prospectEnrichRequests, prospectLists } from './tables';

// The SQL of enrichment requests (enrich.ts): the request rows with their list's name (a source list's state rows on
// the bulk-list kernel, source-list-store.ts), their counters and cursor, and the list's leads.

export type TRequestRow = typeof prospectEnrichRequests.$inferSelect & { listName: string | null };
export type TRequestInsert = typeof prospectEnrichRequests.$inferInsert;

/** The requests: queued or running until they complete, fail or are cancelled; read with their list's name. */
export const enrichRequests = createSourceListStore<TRequestRow, TRequestInsert>({
  table: prospectEnrichRequests,
  noun: 'Request',
  running: ['queued', 'in_progress'],
  from: (exec) =>
    exec
      .select({ ...getTableColumns(prospectEnrichRequests), listName: prospectLists.name })
      .from(prospectEnrichRequests)
      .leftJoin(prospectLists, eq(prospectLists.id, prospectEnrichRequests.listId))
      .$dynamic(),
});

/** The latest request of a list. */
export async function selectLatestListRequest(exec: TDb, listId: string): Promise<TRequestRow | null> {
  const rows = await selectRows<{ id: string }>(exec, sql`select id from prospect_enrich_requests where list_id = ${listId} order by created_at desc limit 1`);
  return rows[0] ? enrichRequests.selectById(exec, rows[0].id) : null;
}

/** One lead done: the cursor moves to it and the counters grow by what it revealed and cost. */
export async function bumpRequest(exec: TDb, requestId: string, personId: string, out: { emailsRevealed: number; phonesRevealed: number; credits: number }): Promise<void> {
  await exec.execute(sql`update prospect_enrich_requests set processed = processed + 1, cursor = ${personId},
    emails_revealed = emails_revealed + ${out.emailsRevealed}, phones_revealed = phones_revealed + ${out.phonesRevealed},
    credits_charged = credits_charged + ${out.credits}, updated_at = now() where id = ${requestId}`);
}

/** Moves a prospect list to a state (`in_progress` while enriched, then `processed` or `cancelled`). */
export async function updateListState(exec: TDb, listId: string, state: 'in_progress' | 'processed' | 'cancelled'): Promise<void> {
  await exec.execute(sql`update prospect_lists set state = ${state}, updated_at = now() where id = ${listId}`);
}

/** The next chunk of a list's leads after the cursor, in person id order. */
export async function selectLeadChunk(exec: TDb, listId: string, cursor: string | null, size: number): Promise<string[]> {
  const chunk = await selectRows<{ person_id: string }>(
    exec,
    sql`select person_id from prospect_list_leads where list_id = ${listId} ${cursor ? sql`and person_id > ${cursor}` : sql``}
        order by person_id limit ${size}`,
  );
  return chunk.map((c) => c.person_id);
}
