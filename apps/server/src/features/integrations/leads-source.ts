import type { TLeadsSourceList } from '@verilead/contracts';
import type { TDb } from '../../platform/db/database';
import type { TCallerContext } from '../../platform/tenancy/context';
import type { TIntegrationAdapter } from './adapters/types';
import { selectLeadMembers, selectLeadsLists, selectLeadsSources, updateRevealedEmailStatus } from './leads-queries';

/** Leads read per import page (the import job's chunk). */
export const LEADS_PAGE = 1_000;

/** The organisation's prospect lists (an Executive's own) with how many of their leads have a revealed e-mail. */
export async function listLeadsSources(exec: TDb, ctx: TCallerContext): Promise<{ items: TLeadsSourceList[] }> {
  const rows = await selectLeadsSources(exec, ctx);
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
      const rows = await selectLeadsLists(exec, orgId);
      return rows.map((r) => ({ id: r.id, name: r.name, memberCount: Number(r.n) }));
    },
    async listMembers(listId, cursor) {
      const rows = await selectLeadMembers(exec, orgId, listId, cursor, page);
      return {
        members: rows.map((r) => ({ id: r.person_id, email: r.email, firstName: r.first_name, lastName: r.last_name })),
        nextCursor: rows.length === page ? rows[rows.length - 1]!.person_id : null,
      };
    },
    prepareWriteBack: async () => undefined,
    async writeBack(_listId, items, mode) {
      if (!mode.append) return;
      for (const item of items) {
        await updateRevealedEmailStatus(exec, orgId, item.member.id, item.status);
      }
    },
  };
}
