import { PROSPECT_CREDITS, type TEnrichSettings, type TRevealField } from '@verilead/contracts';
import { REASON_TEXTS, type TReasonCode } from '@verilead/verifier';
import type { TDatabase, TDb } from '../../platform/db/database';
import { chargeCredits } from '../../platform/credits/ledger';
import type { TEmailCheck, TEmailVerdict } from './email-check';
import { insertReveal, selectPeopleByIds, selectRevealedFields } from './reveal-queries';
import type { TPersonRow } from './search-queries';

/**
 * Revealing contact data. Search is free; an e-mail is revealed only when the verifier finds it deliverable
 * (valid or catch-all) and it fits the enrich options (business only, non-role only), a phone when it fits the phone
 * option (mobile only, fixed line only, none). Each revealed field is charged once per organisation: the reveal row
 * (org, person, field) is inserted and charged in one transaction, and a second, concurrent or retried reveal finds
 * the row and charges nothing. Data that is not revealed (undeliverable, unconfirmed, filtered out, missing) is free,
 * and each field answers why (TRevealField). How the address is checked is the caller's (email-check.ts).
 */

export type TRevealOutcome = { emailsRevealed: number; phonesRevealed: number; credits: number; email: TRevealField; phone: TRevealField };

export type TRevealContext = { orgId: string; userId: string; sourceAgent: 'enrich_lead' | 'enrich_list'; objectId: string };

const shown = (code: 'revealed' | 'already_revealed', credits = 0): TRevealField => ({ code, credits, reason: null });
const hidden = (code: TRevealField['code'], reason: string): TRevealField => ({ code, credits: 0, reason });

const EMAIL_EXCLUDED: Record<TEnrichSettings['emails'], string> = {
  all: '',
  business_only: 'A personal address: your enrich options reveal business addresses only.',
  non_role_only: 'A role address (such as info@): your enrich options leave role addresses out.',
};
const PHONE_EXCLUDED: Record<TEnrichSettings['phones'], string> = {
  all: '',
  mobile_only: 'A fixed line: your enrich options reveal mobile numbers only.',
  fixed_line_only: 'A mobile number: your enrich options reveal fixed lines only.',
  no_phones: 'Your enrich options reveal no phone numbers.',
};

/** Why an address the verifier did not find deliverable stays hidden. */
export function unrevealedEmail(verdict: TEmailVerdict): TRevealField {
  if (verdict.status === 'out_of_time') {
    return hidden('out_of_time', 'The check did not finish in the time this request allows. Try again, or enrich the person in a list, which takes the time it needs.');
  }
  const text = REASON_TEXTS[verdict.reason as TReasonCode] ?? 'The address could not be checked.';
  if (verdict.status === 'invalid') return hidden('undeliverable', text);
  if (verdict.reason === 'greylisted') {
    return hidden('unverified', 'The mail server asked to be checked again later (greylisting). Try again in a few minutes, or enrich the person in a list, which waits for it.');
  }
  return hidden('unverified', `${text.replace(/\.$/, '')}, so the address was not confirmed. Try again later.`);
}

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
  return selectPeopleByIds(exec, ids);
}

async function revealedFields(exec: TDb, orgId: string, personId: string): Promise<Set<string>> {
  return new Set(await selectRevealedFields(exec, orgId, personId));
}

/** Stores one revealed field and charges it, unless this organisation revealed it before; answers the credits charged. */
async function storeReveal(tx: TDb, ctx: TRevealContext, personId: string, field: 'email' | 'phone', value: string, status: string | null): Promise<number> {
  const amount = PROSPECT_CREDITS[field];
  const inserted = await insertReveal(tx, { orgId: ctx.orgId, userId: ctx.userId, personId, field, value, status, credits: amount });
  if (!inserted) return 0;
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

/** Reveals one person's contact data per the options, checking the e-mail with `check` first. A 402 (credits, limits) propagates. */
export async function revealPerson(database: TDatabase, ctx: TRevealContext, person: TPersonRow, options: TEnrichSettings, check: TEmailCheck): Promise<TRevealOutcome> {
  const done = await revealedFields(database.db, ctx.orgId, person.id);
  let email: TRevealField | null = null;
  let phone: TRevealField | null = null;
  if (done.has('email')) email = shown('already_revealed');
  else if (!person.email) email = hidden('none', 'No e-mail address is known for this person.');
  else if (!emailFits(person, options.emails)) email = hidden('excluded', EMAIL_EXCLUDED[options.emails]);
  if (done.has('phone')) phone = shown('already_revealed');
  else if (!person.phone) phone = hidden('none', 'No phone number is known for this person.');
  else if (!phoneFits(person, options.phones)) phone = hidden('excluded', PHONE_EXCLUDED[options.phones]);

  let emailStatus: string | null = null;
  if (!email) {
    const verdict = await check(person.email!);
    if (verdict.status === 'valid' || verdict.status === 'catch_all') emailStatus = verdict.status;
    else email = unrevealedEmail(verdict);
  }
  const revealEmail = !email;
  const revealPhone = !phone;
  if (!revealEmail && !revealPhone) return { emailsRevealed: 0, phonesRevealed: 0, credits: 0, email: email!, phone: phone! };
  return database.transaction(async (tx) => {
    const out: TRevealOutcome = { emailsRevealed: 0, phonesRevealed: 0, credits: 0, email: email!, phone: phone! };
    if (revealEmail) {
      const c = await storeReveal(tx, ctx, person.id, 'email', person.email!, emailStatus);
      out.email = c > 0 ? shown('revealed', c) : shown('already_revealed');
      if (c > 0) out.emailsRevealed += 1;
      out.credits += c;
    }
    if (revealPhone) {
      const c = await storeReveal(tx, ctx, person.id, 'phone', person.phone!, person.phone_type);
      out.phone = c > 0 ? shown('revealed', c) : shown('already_revealed');
      if (c > 0) out.phonesRevealed += 1;
      out.credits += c;
    }
    return out;
  });
}
