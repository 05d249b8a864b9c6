import { sql } from 'drizzle-orm';
import { PROSPECT_CREDITS, type TReverseLookupData } from '@verilead/contracts';
import { selectRows, type TDatabase, type TDb } from '../../platform/db/database';
import { chargeCredits } from '../../platform/credits/ledger';
import type { TCallerContext } from '../../platform/tenancy/context';
import { canonicalLinkedin } from './directory-store';
import { visible } from './lists';
import { PERSON_COLUMNS, type TCompanyRow, type TPersonRow } from './search';
import { toCompanyView, toPersonViews } from './views';

/**
 * Reverse lookup: who is behind an e-mail address or a LinkedIn profile. A found person costs one credit, once per
 * organisation and person across lookup and enrichment: free when the organisation already paid for any of the
 * person's data (a reveal row of any field), else charged with a reveal row `lookup` in the transaction that stores
 * it. Not found is free, and so is a LinkedIn match with nothing to reveal (no e-mail, no phone). Every lookup is kept
 * in the history.
 */

export async function findPerson(exec: TDb, input: { email?: string; linkedin_url?: string }): Promise<TPersonRow | null> {
  if (input.email) {
    const rows = await selectRows<TPersonRow>(exec, sql`select ${PERSON_COLUMNS} from directory_people p where lower(p.email) = ${input.email.toLowerCase()} limit 1`);
    return rows[0] ?? null;
  }
  const url = input.linkedin_url ? canonicalLinkedin(input.linkedin_url) : null;
  if (!url) return null;
  const rows = await selectRows<TPersonRow>(exec, sql`select ${PERSON_COLUMNS} from directory_people p where p.linkedin_url = ${url} limit 1`);
  return rows[0] ?? null;
}

export async function reverseLookup(database: TDatabase, ctx: TCallerContext, input: { email?: string; linkedin_url?: string }): Promise<TReverseLookupData> {
  const kind = input.email ? 'email' : 'linkedin';
  const query = input.email ?? canonicalLinkedin(input.linkedin_url ?? '') ?? input.linkedin_url ?? '';
  const person = await findPerson(database.db, input);
  const { id, credits } = await database.transaction(async (tx) => {
    const rows = await selectRows<{ id: string }>(
      tx,
      sql`insert into reverse_lookups (org_id, user_id, kind, query, person_id, found) values (${ctx.orgId}, ${ctx.userId}, ${kind}, ${query}, ${person?.id ?? null}, ${!!person}) returning id`,
    );
    let charged = 0;
    const nothingToReveal = kind === 'linkedin' && !!person && !person.email && !person.phone;
    const paidBefore =
      !!person && (await selectRows<{ one: number }>(tx, sql`select 1 as one from prospect_reveals where org_id = ${ctx.orgId} and person_id = ${person.id} limit 1`)).length > 0;
    if (person && !nothingToReveal && !paidBefore) {
      const first = await selectRows<{ person_id: string }>(
        tx,
        sql`insert into prospect_reveals (org_id, person_id, field, value, user_id, credits) values (${ctx.orgId}, ${person.id}, 'lookup', ${query}, ${ctx.userId}, ${PROSPECT_CREDITS.lookup})
            on conflict (org_id, person_id, field) do nothing returning person_id`,
      );
      if (first.length > 0) {
        await chargeCredits(tx, {
          orgId: ctx.orgId,
          userId: ctx.userId,
          amount: PROSPECT_CREDITS.lookup,
          reason: 'Reverse lookup',
          sourceAgent: 'reverse_lookup',
          objectType: 'prospect_lookup',
          objectId: person.id,
        });
        charged = PROSPECT_CREDITS.lookup;
      }
    }
    return { id: rows[0]!.id, credits: charged };
  });
  let company = null;
  if (person?.company_id) {
    const c = await selectRows<TCompanyRow>(database.db, sql`select * from directory_companies where id = ${person.company_id}`);
    company = c[0] ? toCompanyView(c[0]) : null;
  }
  return {
    lookup_id: id,
    kind,
    query,
    found: !!person,
    credits_charged: credits,
    person: person ? (await toPersonViews(database.db, ctx.orgId, [person]))[0]! : null,
    company,
  };
}

export async function lookupHistory(exec: TDb, ctx: TCallerContext, q: { kind?: 'email' | 'linkedin'; page: number; limit: number }) {
  const where = q.kind ? sql`${visible(ctx, 'h')} and h.kind = ${q.kind}` : visible(ctx, 'h');
  const [rows, count] = await Promise.all([
    selectRows<{ id: string; kind: 'email' | 'linkedin'; query: string; found: boolean; full_name: string | null; title: string | null; company_name: string | null; created_at: Date | string }>(
      exec,
      sql`select h.id, h.kind, h.query, h.found, p.full_name, p.title, p.company_name, h.created_at from reverse_lookups h
          left join directory_people p on p.id = h.person_id where ${where} order by h.created_at desc, h.id limit ${q.limit} offset ${(q.page - 1) * q.limit}`,
    ),
    selectRows<{ n: number }>(exec, sql`select count(*)::int as n from reverse_lookups h where ${where}`),
  ]);
  return {
    items: rows.map((r) => ({
      lookup_id: r.id,
      kind: r.kind,
      query: r.query,
      found: r.found,
      full_name: r.full_name,
      title: r.title,
      company_name: r.company_name,
      created_at: new Date(r.created_at).toISOString(),
    })),
    total: count[0]?.n ?? 0,
    page: q.page,
    limit: q.limit,
  };
}

/** The public page: name, title and company of a person, never contact data, nothing stored. */
export async function publicLookup(exec: TDb, input: { email?: string; linkedin_url?: string }) {
  const p = await findPerson(exec, input);
  return {
    found: !!p,
    person: p ? { full_name: p.full_name, title: p.title, company_name: p.company_name, company_domain: p.company_domain, city: p.city, country: p.country } : null,
  };
}
