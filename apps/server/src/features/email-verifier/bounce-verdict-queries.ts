/**
 * The organisation's verdicts of some addresses, for the bounce guarantee (features/bounces reads them through this
 * feature's face): instant ones and list rows, each with what it charged and when it was given.
 */
import { sql } from 'drizzle-orm';
import type { TVerificationStatus } from '@verilead/contracts';
import { sqlList } from '../../platform/bounces/read-queries';
import { selectRows, type TDb } from '../../platform/db/database';

export type TBounceVerdict = {
  /** `instant:<id>` or `list:<list>:<row>`. */
  ref: string;
  email: string;
  userId: string;
  status: TVerificationStatus;
  /** Credits the verdict charged (0: not charged). */
  credits: number;
  verdictAt: Date;
};

/** Every verdict of these (lower-cased) addresses the organisation was given, newest first. */
export async function selectVerdictsOf(exec: TDb, orgId: string, emails: readonly string[]): Promise<TBounceVerdict[]> {
  if (emails.length === 0) return [];
  const list = sqlList(emails);
  const rows = await selectRows<{ ref: string; email: string; user_id: string; status: TVerificationStatus; credits: number; verdict_at: Date | string }>(
    exec,
    sql`select 'instant:' || i.id::text as ref, lower(i.email) as email, i.user_id, i.status, i.credits_charged as credits, i.created_at as verdict_at
        from instant_verifications i where i.org_id = ${orgId} and lower(i.email) in (${list})
        union all
        select 'list:' || e.list_id::text || ':' || e.row_number, lower(e.email), l.user_id, e.status,
               case when e.billable then 1 else 0 end, e.verified_at
        from verify_lists l join verify_list_emails e on e.list_id = l.id
        where l.org_id = ${orgId} and e.status is not null and e.verified_at is not null and lower(e.email) in (${list})
        order by verdict_at desc`,
  );
  return rows.map((r) => ({ ref: r.ref, email: r.email, userId: r.user_id, status: r.status, credits: Number(r.credits), verdictAt: new Date(r.verdict_at) }));
}
