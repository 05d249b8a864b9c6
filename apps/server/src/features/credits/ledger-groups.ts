import type { TCreditLedgerData, TCreditTransactionKind, TCreditTransactionsData, TSourceAgent } from '@verilead/contracts';
import type { TDb } from '../../platform/db/database';
import { selectLedgerGroupPage, selectLedgerGroupRowPage, type TLedgerFilter, type TLedgerRow } from './ledger-group-queries';

export type { TLedgerFilter, TLedgerRow };

/**
 * The ledger in lines: one per job (a bulk verification or finder list: object ids `<list>:<row>`; an enrichment:
 * source enrich_list / enrich_lead, object ids `<request>:<person>`), one per day (the caller's time zone), source and
 * object type for other charges (instant calls), one per purchase, grant or refund, and one per operator adjustment
 * (object type `operator_adjustment`, either direction: its reason is the support's words). Grouped and paged in SQL
 * (ledger-group-queries.ts); lines and rows come newest first in the order rows were written (`seq`).
 */

const iso = (v: string | Date) => new Date(v).toISOString();

export async function selectLedgerGroups(exec: TDb, f: TLedgerFilter, page: number, limit: number): Promise<TCreditLedgerData> {
  const { rows, total } = await selectLedgerGroupPage(exec, f, page, limit);
  return {
    items: rows.map((r) => {
      const group = r.key.startsWith('job:') ? 'job' : r.key.startsWith('day:') ? 'day' : 'single';
      return {
        key: r.key,
        group,
        kind: r.kind as TCreditTransactionKind,
        amount: Number(r.total),
        count: Number(r.n),
        reason: r.reason,
        source_agent: (r.source_agent as TSourceAgent | null) ?? null,
        object_type: r.object_type,
        job_id: group === 'job' ? (r.object_id ?? '').split(':')[0]! : null,
        day: group === 'day' ? r.key.split(':')[1]! : null,
        balance_after: Number(r.balance_after),
        user_name: r.user_name,
        first_at: iso(r.first_at),
        last_at: iso(r.last_at),
      };
    }),
    total,
    page,
    limit,
  };
}

/** A ledger row as the API shows it: the ledger stores positive quantities, a charge is shown as what it does to the balance. */
export function toLedgerItem(t: TLedgerRow, userName: string | null): TCreditTransactionsData['items'][number] {
  return {
    id: t.id,
    kind: t.kind as TCreditTransactionKind,
    amount: t.kind === 'charge' ? -t.amount : t.amount,
    reason: t.reason,
    source_agent: (t.sourceAgent as TSourceAgent | null) ?? null,
    object_type: t.objectType,
    object_id: t.objectId,
    balance_after: t.balanceAfter,
    user_id: t.userId,
    user_name: userName,
    created_at: iso(t.createdAt),
  };
}

/** The rows of one ledger line, newest first. */
export async function selectLedgerGroupRows(exec: TDb, f: TLedgerFilter, key: string, page: number, limit: number): Promise<TCreditTransactionsData> {
  const { rows, total } = await selectLedgerGroupRowPage(exec, f, key, page, limit);
  return {
    items: rows.map((t) => toLedgerItem(t, t.user_name)),
    total,
    page,
    limit,
  };
}
