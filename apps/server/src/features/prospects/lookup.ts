import { PROSPECT_CREDITS, type TReverseLookupData } from '@verilead/contracts';
import type { TDatabase, TDb } from '../../platform/db/database';
import { chargeCredits } from '../../platform/credits/ledger';
import type { TCallerContext } from '../../platform/tenancy/context';
import { canonicalLinkedin } from './directory-store';
import {
  hasAnyReveal,
  insertLookupReveal,
  insertReverseLookup,
  selectCompanyRow,
  selectLookupHistory,
  selectPersonByEmail,
  selectPersonByLinkedin,
} from './lookup-queries';
import type { TPersonRow } from './search-queries';
import { toCompanyView, toPersonViews } from './views';

/**
 * Reverse lookup: who is behind an e-mail address or a LinkedIn profile. A found person costs one credit, once per
 * organisation and person across lookup and enrichment: free when the organisation already paid for any of the
 * person's data (a reveal row of any field), else charged with a reveal row `lookup` in the transaction that stores
 * it. Not found is free, and so is a LinkedIn match with nothing to reveal (no e-mail, no phone). Every lookup is kept
 * in the history.
 */

export async function findPerson(exec: TDb, input: { email?: string; linkedin_url?: string }): Promise<TPersonRow | null> {
  if (input.email) return selectPersonByEmail(exec, input.email);
  const url = input.linkedin_url ? canonicalLinkedin(input.linkedin_url) : null;
  if (!url) return null;
  return selectPersonByLinkedin(exec, url);
}

export async function reverseLookup(database: TDatabase, ctx: TCallerContext, input: { email?: string; linkedin_url?: string }): Promise<TReverseLookupData> {
  const kind = input.email ? 'email' : 'linkedin';
  const query = input.email ?? canonicalLinkedin(input.linkedin_url ?? '') ?? input.linkedin_url ?? '';
  const person = await findPerson(database.db, input);
  const { id, credits } = await database.transaction(async (tx) => {
    const lookupId = await insertReverseLookup(tx, { orgId: ctx.orgId, userId: ctx.userId, kind, query, personId: person?.id ?? null, found: !!person });
    let charged = 0;
    const nothingToReveal = kind === 'linkedin' && !!person && !person.email && !person.phone;
    const paidBefore = !!person && (await hasAnyReveal(tx, ctx.orgId, person.id));
    if (person && !nothingToReveal && !paidBefore) {
      const first = await insertLookupReveal(tx, { orgId: ctx.orgId, userId: ctx.userId, personId: person.id, query, credits: PROSPECT_CREDITS.lookup });
      if (first) {
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
    return { id: lookupId, credits: charged };
  });
  let company = null;
  if (person?.company_id) {
    const c = await selectCompanyRow(database.db, person.company_id);
    company = c ? toCompanyView(c) : null;
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
  const { rows, total } = await selectLookupHistory(exec, ctx, q);
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
    total,
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
