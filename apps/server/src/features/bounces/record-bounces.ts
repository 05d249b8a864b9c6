/**
 * Recording bounces and the guarantee's claims, inside the caller's transaction.
 *
 * A bounce is stored once (unique per organisation, address, kind, source and moment); a hard one that is new looks
 * for the organisation's latest verdict of the address given before it. When that verdict was valid, charged, and the
 * bounce came within the guarantee's days of it, a claim is made: a row whose primary key is the verdict (so a report
 * applied twice, concurrently, or a webhook event for the same address, claims nothing more: the losing insert waits
 * for the winner and then does nothing). The claim is pending: the credit comes back once a re-check of the address
 * finds its mail server refusing it (confirm-credit-backs.ts), for a report or an event is the organisation's own
 * word. Soft bounces are recorded, never claimed; unknown, catch-all and invalid verdicts are never claimed. Rows are
 * written in a fixed order so that two transactions never wait on each other's rows in a cycle.
 */
import type { TBounceKind, TBounceSource } from '@verilead/contracts';
import type { TDb } from '../../platform/db/database';
import { selectVerdictsOf, type TBounceVerdict } from '../email-verifier';
import { claimCreditBacks, insertBouncesOnce } from './queries';

export type TBounceEvent = {
  email: string;
  kind: TBounceKind;
  source: TBounceSource;
  bouncedAt: Date;
  reason: string | null;
  code: string | null;
  reportId: string | null;
};

/** `claimed`: valid verdicts whose credit-back now awaits its re-check. */
export type TRecordTotals = { hard: number; soft: number; matched: number; claimed: number };

const BATCH = 500;
const DAY_MS = 86_400_000;
const SOURCE_LABELS: Record<TBounceSource, string> = { upload: 'bounce report', sendgrid: 'SendGrid', mailchimp: 'Mailchimp' };

const clip = (text: string | null, n: number) => (text && text.length > n ? `${text.slice(0, n - 1)}…` : text);

function eventKey(e: TBounceEvent): string {
  return `${e.email}\u0000${e.kind}\u0000${e.source}\u0000${e.bouncedAt.toISOString()}`;
}

function creditReason(b: { email: string; bouncedAt: Date; source: TBounceSource; code: string | null; reason: string | null }, v: TBounceVerdict): string {
  const detail = [b.code, clip(b.reason, 160)].filter(Boolean).join(' ');
  return `Bounce credit-back: ${b.email} hard-bounced on ${b.bouncedAt.toISOString().slice(0, 10)} (${SOURCE_LABELS[b.source]}${detail ? `: ${detail}` : ''}), valid verdict of ${v.verdictAt.toISOString().slice(0, 10)}`;
}

/** The verdict a hard bounce answers: the latest given before it (any status), or none. */
function verdictBefore(verdicts: readonly TBounceVerdict[], at: Date): TBounceVerdict | undefined {
  return verdicts.find((v) => v.verdictAt.getTime() <= at.getTime());
}

/**
 * Stores the events (duplicates ignored) and claims what the guarantee covers. `guaranteeDays` 0: no claim.
 * `receivedAt`: when the bounces reached Verilead. A bounce's own date is the organisation's word (a report's cell, an
 * event's timestamp) and picks the verdict it answers; the guarantee's days are counted to `receivedAt` too, for the
 * re-check sees the address only as it is now: a bounce backdated to just after a verdict of long ago claims nothing.
 */
export async function recordBounces(tx: TDb, orgId: string, events: readonly TBounceEvent[], guaranteeDays: number, receivedAt: Date): Promise<TRecordTotals> {
  const unique = new Map<string, TBounceEvent>();
  for (const e of events) if (e.email.includes('@')) unique.set(eventKey(e), e);
  const ordered = [...unique.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, e]) => e);
  const fresh: (TBounceEvent & { id: string })[] = [];
  for (let i = 0; i < ordered.length; i += BATCH) {
    const batch = ordered.slice(i, i + BATCH);
    const inserted = await insertBouncesOnce(
      tx,
      batch.map((e) => ({
        orgId,
        email: e.email,
        domain: e.email.slice(e.email.lastIndexOf('@') + 1),
        kind: e.kind,
        source: e.source,
        bouncedAt: e.bouncedAt,
        reason: clip(e.reason, 500),
        code: clip(e.code, 100),
        reportId: e.reportId,
      })),
    );
    const byKey = new Map(batch.map((e) => [eventKey(e), e]));
    for (const r of inserted) {
      const e = byKey.get(eventKey({ ...r, email: r.email ?? '', reason: null, code: null, reportId: null }));
      if (e) fresh.push({ ...e, id: r.id });
    }
  }
  const totals: TRecordTotals = { hard: 0, soft: 0, matched: 0, claimed: 0 };
  for (const e of fresh) totals[e.kind] += 1;
  const hard = fresh.filter((e) => e.kind === 'hard');
  if (hard.length === 0) return totals;

  const emails = [...new Set(hard.map((e) => e.email))];
  const verdicts = new Map<string, TBounceVerdict[]>();
  for (let i = 0; i < emails.length; i += BATCH) {
    for (const v of await selectVerdictsOf(tx, orgId, emails.slice(i, i + BATCH))) verdicts.set(v.email, [...(verdicts.get(v.email) ?? []), v]);
  }
  // Per verdict, the earliest bounce that answers it within the guarantee.
  const claims = new Map<string, { verdict: TBounceVerdict; bounce: (typeof hard)[number] }>();
  for (const b of [...hard].sort((x, y) => x.bouncedAt.getTime() - y.bouncedAt.getTime())) {
    const known = verdicts.get(b.email);
    if (known?.length) totals.matched += 1;
    const v = known ? verdictBefore(known, b.bouncedAt) : undefined;
    if (!v || v.status !== 'valid' || v.credits <= 0 || guaranteeDays <= 0) continue;
    if (Math.max(b.bouncedAt.getTime(), receivedAt.getTime()) - v.verdictAt.getTime() > guaranteeDays * DAY_MS) continue;
    if (!claims.has(v.ref)) claims.set(v.ref, { verdict: v, bounce: b });
  }
  if (claims.size === 0) return totals;
  const wanted = [...claims.values()].sort((a, b) => (a.verdict.ref < b.verdict.ref ? -1 : 1));
  for (let i = 0; i < wanted.length; i += BATCH) {
    const claimed = await claimCreditBacks(
      tx,
      wanted.slice(i, i + BATCH).map((c) => ({
        orgId,
        verdictRef: c.verdict.ref,
        email: c.bounce.email,
        bounceId: c.bounce.id,
        credits: c.verdict.credits,
        userId: c.verdict.userId,
        ledgerReason: creditReason(c.bounce, c.verdict),
      })),
    );
    totals.claimed += claimed.length;
  }
  return totals;
}
