import { sql } from 'drizzle-orm';
import { PROSPECT_CREDITS, type TEnrichSettings } from '@verilead/contracts';
import { selectRows, type TDatabase, type TDb } from '../../platform/db/database';
import { chargeCredits } from '../../platform/credits/ledger';
import type { TVerifier } from '../../platform/verifier/verifier';
import { PERSON_COLUMNS, type TPersonRow } from './search';

/**
 * Revealing contact data. Search is free; an e-mail is revealed only when the verifier finds it deliverable
 * (valid or catch-all) and it fits the enrich options (business only, non-role only), a phone when it fits the phone
 * option (mobile only, fixed line only, none). Each revealed field is charged once per organisation: the reveal row
 * (org, person, field) is inserted and charged in one transaction, and a second, concurrent or retried reveal finds
 * the row and charges nothing. Data that is not revealed (undeliverable, filtered out, missing) is free.
 */

export type TRevealOutcome = { emailsRevealed: number; phonesRevealed: number; credits: number };

export type TRevealContext = { orgId: string; userId: string; sourceAgent: 'enrich_lead' | 'enrich_list'; objectId: string };

export function emailFits(row: Pick<TPersonRow, 'email' | 'email_type' | 'email_role'>, option: TEnrichSettings['emails']): boolean {
  if (!row.email) return false;
  if (option === 'business_only') return row.email_type !== 'personal';
  if (option === 'non_role_only') return !row.email_role;
  return true;
}

export function phoneFits(row: Pick<TPersonRow, 'phone' | 'phone_type'>, option: TEnrichSettings['phones']): boolean {
  if (!row.phone || option === 'no_phones') return false;
  if (option === 'mobile_only') return row.phone_type === 'mobile';
  if (option === 'fixed_line_only') return row.phone_type === 'fixed_line';
  return true;
}

export async function loadPeople(exec: TDb, ids: readonly string[]): Promise<TPersonRow[]> {
  if (ids.length === 0) return [];
  return selectRows<TPersonRow>(
    exec,
    sql`select ${PERSON_COLUMNS} from directory_people p where p.id in (${sql.join(
      ids.map((id) => sql`${id}::uuid`),
      sql`, `,
    )})`,
  );
}

async function revealedFields(exec: TDb, orgId: string, personId: string): Promise<Set<string>> {
  const rows = await selectRows<{ field: string }>(exec, sql`select field from prospect_reveals where org_id = ${orgId} and person_id = ${personId}`);
  return new Set(rows.map((r) => r.field));
}

/** Stores one revealed field and charges it, unless this organisation revealed it before; answers the credits charged. */
async function storeReveal(tx: TDb, ctx: TRevealContext, personId: string, field: 'email' | 'phone', value: string, status: string | null): Promise<number> {
  const amount = PROSPECT_CREDITS[field];
  const inserted = await selectRows<{ person_id: string }>(
    tx,
    sql`insert into prospect_reveals (org_id, person_id, field, value, status, user_id, credits)
        values (${ctx.orgId}, ${personId}, ${field}, ${value}, ${status}, ${ctx.userId}, ${amount})
        on conflict (org_id, person_id, field) do nothing returning person_id`,
  );
  if (inserted.length === 0) return 0;
  await chargeCredits(tx, {
    orgId: ctx.orgId,
    userId: ctx.userId,
    amount,
    reason: field === 'email' ? 'Prospect e-mail revealed' : 'Prospect phone revealed',
    sourceAgent: ctx.sourceAgent,
    objectType: `prospect_${field}`,
    objectId: `${ctx.objectId}:${personId}`,
  });
  return amount;
}

/** Reveals one person's contact data per the options (verifying the e-mail first). A 402 (credits, limits) propagates. */
export async function revealPerson(
  database: TDatabase,
  verifier: TVerifier,
  ctx: TRevealContext,
  person: TPersonRow,
  options: TEnrichSettings,
): Promise<TRevealOutcome> {
  const done = await revealedFields(database.db, ctx.orgId, person.id);
  const wantEmail = !done.has('email') && emailFits(person, options.emails);
  const wantPhone = !done.has('phone') && phoneFits(person, options.phones);
  let emailStatus: string | null = null;
  if (wantEmail) {
    const result = await verifier.verify(person.email!);
    emailStatus = result.status;
  }
  const revealEmail = wantEmail && (emailStatus === 'valid' || emailStatus === 'catch_all');
  if (!revealEmail && !wantPhone) return { emailsRevealed: 0, phonesRevealed: 0, credits: 0 };
  return database.transaction(async (tx) => {
    const out: TRevealOutcome = { emailsRevealed: 0, phonesRevealed: 0, credits: 0 };
    if (revealEmail) {
      const c = await storeReveal(tx, ctx, person.id, 'email', person.email!, emailStatus);
      if (c > 0) out.emailsRevealed += 1;
      out.credits += c;
    }
    if (wantPhone) {
      const c = await storeReveal(tx, ctx, person.id, 'phone', person.phone!, person.phone_type);
      if (c > 0) out.phonesRevealed += 1;
      out.credits += c;
    }
    return out;
  });
}
