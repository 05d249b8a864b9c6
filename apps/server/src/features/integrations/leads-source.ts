import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { ZLeadsVerifyRequest, type TIntegrationImport, type TLeadsSourceList, type TLeadsVerifyRequest } from '@verilead/contracts';
import { selectRows, type TDb } from '../../platform/db/database';
import type { TDeps } from '../../platform/deps';
import type { TCallerContext } from '../../platform/tenancy/context';
import { getList, visible } from '../prospects';
import type { TIntegrationAdapter } from './adapters/types';
import { insertImport } from './queries';

/** Leads read per import page (the import job's chunk). */
export const LEADS_PAGE = 1_000;

/** The organisation's prospect lists (an Executive's own) with how many of their leads have a revealed e-mail. */
export async function listLeadsSources(exec: TDb, ctx: TCallerContext): Promise<{ items: TLeadsSourceList[] }> {
  const rows = await selectRows<{ id: string; name: string; lead_count: number; email_count: number }>(
    exec,
    sql`select l.id, l.name, l.lead_count,
          (select count(*)::int from prospect_list_leads ll join prospect_reveals r on r.person_id = ll.person_id and r.org_id = l.org_id and r.field = 'email'
            where ll.list_id = l.id) as email_count
        from prospect_lists l where ${visible(ctx, 'l')} order by l.created_at desc, l.id limit 500`,
  );
  return { items: rows.map((r) => ({ id: r.id, name: r.name, lead_count: Number(r.lead_count), email_count: Number(r.email_count) })) };
}

/**
 * The `leads` source as an adapter: a prospect list's leads with a revealed e-mail, paged by person id. Our own
 * data, so no credentials; always scoped to the import's organisation. Write-back stores each e-mail's verdict on
 * the reveal (the status the prospect screens show).
 */
export function createLeadsAdapter(exec: TDb, orgId: string, pageSize = LEADS_PAGE): TIntegrationAdapter {
  const page = Math.min(pageSize, LEADS_PAGE);
  return {
    platform: 'leads',
    verifyCredentials: async () => ({ accountLabel: 'Prospect lists' }),
    listLists: async () => {
      const rows = await selectRows<{ id: string; name: string; n: number }>(
        exec,
        sql`select l.id, l.name, (select count(*)::int from prospect_list_leads ll join prospect_reveals r on r.person_id = ll.person_id and r.org_id = l.org_id and r.field = 'email' where ll.list_id = l.id) as n
            from prospect_lists l where l.org_id = ${orgId}`,
      );
      return rows.map((r) => ({ id: r.id, name: r.name, memberCount: Number(r.n) }));
    },
    async listMembers(listId, cursor) {
      const rows = await selectRows<{ person_id: string; email: string; first_name: string; last_name: string }>(
        exec,
        sql`select ll.person_id, r.value as email, p.first_name, p.last_name
            from prospect_list_leads ll
            join prospect_lists l on l.id = ll.list_id and l.org_id = ${orgId}
            join prospect_reveals r on r.person_id = ll.person_id and r.org_id = ${orgId} and r.field = 'email'
            join directory_people p on p.id = ll.person_id
            where ll.list_id = ${listId} ${cursor ? sql`and ll.person_id > ${cursor}` : sql``}
            order by ll.person_id limit ${page}`,
      );
      return {
        members: rows.map((r) => ({ id: r.person_id, email: r.email, firstName: r.first_name, lastName: r.last_name })),
        nextCursor: rows.length === page ? rows[rows.length - 1]!.person_id : null,
      };
    },
    prepareWriteBack: async () => undefined,
    async writeBack(_listId, items, mode) {
      if (!mode.append) return;
      for (const item of items) {
        await exec.execute(sql`update prospect_reveals set status = ${item.status} where org_id = ${orgId} and person_id = ${item.member.id} and field = 'email'`);
      }
    },
  };
}

/** POST /integration/leads/verify_list: imports a prospect list's revealed e-mails as a verifier list (source `leads`) through the chunked import job. */
export async function startLeadsImport(
  deps: Pick<TDeps, 'database' | 'queue'>,
  ctx: TCallerContext,
  input: TLeadsVerifyRequest,
  enqueueFirstPage: (tx: TDb, importId: string) => Promise<void>,
  toView: (row: Awaited<ReturnType<typeof insertImport>>) => TIntegrationImport,
): Promise<TIntegrationImport> {
  const body = ZLeadsVerifyRequest.parse(input);
  const list = await getList(deps.database.db, ctx, body.list_id);
  const [{ n } = { n: 0 }] = await selectRows<{ n: number }>(
    deps.database.db,
    sql`select count(*)::int as n from prospect_list_leads ll join prospect_reveals r on r.person_id = ll.person_id and r.org_id = ${ctx.orgId} and r.field = 'email' where ll.list_id = ${list.id}`,
  );
  const row = await deps.database.transaction(async (tx) => {
    const created = await insertImport(tx, {
      orgId: ctx.orgId,
      userId: ctx.userId,
      accountId: null,
      accountName: 'Prospect lists',
      platform: 'leads',
      remoteListId: list.id,
      remoteListName: list.name,
      remoteTotal: Number(n),
      verifyListId: randomUUID(),
      writeBack: { unsubscribe: false, append: true },
    });
    await enqueueFirstPage(tx, created.id);
    return created;
  });
  return toView(row);
}
