import { expect } from 'vitest';
import { sql } from 'drizzle-orm';
import { USAGE_FEATURES, type TSourceAgent, type TUsageFeature } from '@verilead/contracts';
import { selectRows } from '../platform/db/database';
import { creditTransactions } from '../platform/credits/tables';
import { createTestApp, TEST_PASSWORD, type TTestApp } from './test-app';
import { inviteMember } from '../features/auth/service';
import { instantVerifications } from '../features/email-verifier/tables';
import { finderInstant } from '../features/email-finder/tables';

/**
 * What the report tests (report-sums-*.test.ts) share: an organisation whose usage is seeded on both sides of local
 * midnight, and the test's own reading of the ledger (`credit_transactions`) and the result tables (verifier and finder
 * lists and instant results), for local days in two time zones: Kolkata (UTC+5:30, midnight at 18:30 UTC) and New York
 * (UTC-4 in March 2026, midnight at 04:00 UTC).
 */

export type TUser = { token: string; userId: string; orgId: string };
export type TLedgerRow = { user_id: string; kind: 'charge' | 'refund'; amount: number; source_agent: string | null; object_type: string | null };

export const KOLKATA = 'Asia/Kolkata';
export const NEW_YORK = 'America/New_York';
export const ZONES = [KOLKATA, NEW_YORK];
/** 9, 10 and 11 March: rows sit a minute either side of both zones' midnights between them, and at midday. */
export const DAYS = ['2026-03-09', '2026-03-10', '2026-03-11'];
const INSTANTS = [
  '2026-03-09T06:00:00Z',
  '2026-03-09T18:29:00Z', // Kolkata 9th 23:59
  '2026-03-09T18:30:00Z', // Kolkata 10th 00:00
  '2026-03-10T03:59:00Z', // New York 9th 23:59
  '2026-03-10T04:00:00Z', // New York 10th 00:00
  '2026-03-10T12:00:00Z',
  '2026-03-10T18:29:00Z', // Kolkata 10th 23:59
  '2026-03-10T18:31:00Z', // Kolkata 11th 00:01
  '2026-03-11T03:59:00Z', // New York 10th 23:59
  '2026-03-11T04:01:00Z', // New York 11th 00:01
  '2026-03-11T15:00:00Z',
];
/** What the product charges: each source agent with the object types it writes. */
const CHARGES: { agent: TSourceAgent; object: string; kind: 'charge' | 'refund' }[] = [
  { agent: 'instant_verify', object: 'instant_verification', kind: 'charge' },
  { agent: 'bulk_verify', object: 'verify_list_email', kind: 'charge' },
  { agent: 'bulk_verify', object: 'verify_list_email', kind: 'refund' },
  { agent: 'instant_finder', object: 'finder_instant', kind: 'charge' },
  { agent: 'bulk_finder', object: 'finder_list_row', kind: 'charge' },
  { agent: 'enrich_lead', object: 'prospect_email', kind: 'charge' },
  { agent: 'enrich_list', object: 'prospect_phone', kind: 'charge' },
  { agent: 'add_lead', object: 'prospect_lead', kind: 'charge' },
  { agent: 'enrich_lead', object: 'prospect_email', kind: 'refund' },
  { agent: 'js_widget', object: 'form_guard_email', kind: 'charge' },
  { agent: 'js_widget', object: 'form_guard_phone', kind: 'charge' },
  { agent: 'js_widget', object: 'form_guard_name', kind: 'charge' },
  { agent: 'reverse_lookup', object: 'prospect_lookup', kind: 'charge' },
];

/** The test's own reading of the ledger: which feature and field a row is for. */
const FEATURE_OF: Record<TSourceAgent, TUsageFeature> = {
  instant_verify: 'email_verifier',
  bulk_verify: 'email_verifier',
  instant_finder: 'email_finder',
  bulk_finder: 'email_finder',
  enrich_lead: 'prospect',
  enrich_list: 'prospect',
  add_lead: 'prospect',
  js_widget: 'form_guard',
  reverse_lookup: 'other',
  bounce_credit_back: 'other',
};
export const featureOf = (r: TLedgerRow): TUsageFeature => FEATURE_OF[r.source_agent as TSourceAgent] ?? 'other';
export const fieldOf = (r: TLedgerRow) => (r.object_type?.endsWith('_phone') ? 'phone' : r.object_type?.endsWith('_name') ? 'name' : r.object_type?.endsWith('_lead') ? 'lead' : 'email');
const signed = (r: TLedgerRow) => (r.kind === 'charge' ? r.amount : -r.amount);
export const net = (rows: TLedgerRow[]) => rows.reduce((s, r) => s + signed(r), 0);
/** Charges less refunds: how many things were billed. */
export const count = (rows: TLedgerRow[]) => rows.reduce((s, r) => s + (r.kind === 'charge' ? 1 : -1), 0);
export function credits(rows: TLedgerRow[]) {
  const charged = rows.filter((r) => r.kind === 'charge').reduce((s, r) => s + r.amount, 0);
  const refunded = rows.filter((r) => r.kind === 'refund').reduce((s, r) => s + r.amount, 0);
  return { charged, refunded, net: charged - refunded, charges: rows.filter((r) => r.kind === 'charge').length };
}
export function perFeature(rows: TLedgerRow[]): Record<TUsageFeature, number> {
  const out = Object.fromEntries(USAGE_FEATURES.map((f) => [f, 0])) as Record<TUsageFeature, number>;
  for (const r of rows) out[featureOf(r)] += signed(r);
  return out;
}

export type TSumsPeople = { t: TTestApp; owner: TUser; manager: TUser; exec: TUser; stranger: TUser; research: string; everyone: string[] };

/** The seeded organisation (started by `start`) and the readings of its ledger and result tables. */
export function sumsWorld() {
  let t: TTestApp;
  let owner: TUser;

  const post = (user: TUser, url: string, payload: Record<string, unknown>) => t.call({ method: 'POST', url: `/api/v1${url}`, token: user.token, payload });
  const day = (d: string) => ({ from: d, to: d });
  const onDay = (column: ReturnType<typeof sql>, zone: string, d: string) => sql`(${column} at time zone ${zone})::date = ${d}::date`;

  async function setZone(user: TUser, timezone: string) {
    const res = await post(user, '/user/timezone/edit', { timezone });
    expect(res.status).toBe(200);
  }

  async function addMember(email: string, name: string, role: 'admin' | 'analyst'): Promise<TUser> {
    await inviteMember(t.deps, { ...owner, role: 'owner', sessionId: null, via: 'session' }, { email, name, role });
    const setup = await t.mailedToken(email, '/setup_password');
    await t.call({ method: 'POST', url: '/api/v1/user/password/setup', payload: { token: setup, password: TEST_PASSWORD } });
    const l = await t.call({ method: 'POST', url: '/api/v1/user/login', payload: { email, password: TEST_PASSWORD } });
    return { token: l.body.data.token, userId: l.body.data.user.id, orgId: owner.orgId };
  }

  /** The organisation's charges and refunds of one local day of `zone`, of the given members (all when omitted). */
  async function ledgerOn(zone: string, d: string, userIds?: string[]): Promise<TLedgerRow[]> {
    const rows = await selectRows<TLedgerRow>(
      t.db.db,
      sql`select user_id, kind, amount, source_agent, object_type from ${creditTransactions}
          where org_id = ${owner.orgId} and kind in ('charge', 'refund') and ${onDay(sql`created_at`, zone, d)}`,
    );
    return rows.filter((r) => !userIds || userIds.includes(r.user_id)).map((r) => ({ ...r, amount: Number(r.amount) }));
  }

  /** The verifier's results of a local day, read from its lists (counters) and instant results. */
  async function verifierOn(zone: string, d: string, userIds: string[]) {
    const lists = (
      await selectRows<{ user_id: string; counters: Record<string, number>; duplicate_count: number; syntax_error_count: number }>(
        t.db.db,
        sql`select user_id, counters, duplicate_count, syntax_error_count from verify_lists
            where org_id = ${owner.orgId} and ${onDay(sql`coalesce(verified_at, updated_at)`, zone, d)}`,
      )
    ).filter((l) => userIds.includes(l.user_id));
    const instant = (
      await selectRows<{ user_id: string; status: string; result: Record<string, unknown>; billable: boolean }>(
        t.db.db,
        sql`select user_id, status, result, billable from instant_verifications where org_id = ${owner.orgId} and ${onDay(sql`created_at`, zone, d)}`,
      )
    ).filter((r) => userIds.includes(r.user_id));
    const fromLists = (key: string) => lists.reduce((s, l) => s + Number(l.counters[key] ?? 0), 0);
    const statusCount = (status: string) => fromLists(status) + instant.filter((r) => r.status === status).length;
    const flagCount = (flag: string) => fromLists(flag) + instant.filter((r) => r.result[flag] === true).length;
    const valid = statusCount('valid');
    const scoreSum = fromLists('valid_score_sum') + instant.filter((r) => r.status === 'valid').reduce((s, r) => s + Number(r.result.deliverability_score), 0);
    const duplicate = lists.reduce((s, l) => s + l.duplicate_count, 0);
    const syntaxError = lists.reduce((s, l) => s + l.syntax_error_count, 0);
    const billable = fromLists('billable') + instant.filter((r) => r.billable).length;
    return {
      stats: {
        total: fromLists('verified') + instant.length + duplicate + syntaxError,
        valid,
        invalid: statusCount('invalid'),
        catch_all: statusCount('catch_all'),
        unknown: statusCount('unknown'),
        duplicate,
        syntax_error: syntaxError,
        disposable: flagCount('disposable'),
        gibberish: flagCount('gibberish'),
        free_account: flagCount('free_account'),
        role_account: flagCount('role_account'),
        billable,
        safe_to_send: fromLists('safe_to_send') + instant.filter((r) => r.result.safe_to_send === 'yes').length,
        deliverability_score: valid > 0 ? Math.round((scoreSum / valid) * 10_000) / 100 : 0,
        billable_credits: billable,
      },
      instant: instant.length,
      bulk: fromLists('verified'),
    };
  }

  /** The finder's results of a local day: list counters and finished instant searches. */
  async function finderOn(zone: string, d: string, userIds: string[]) {
    const lists = (
      await selectRows<{ user_id: string; counters: Record<string, number> }>(
        t.db.db,
        sql`select user_id, counters from finder_lists where org_id = ${owner.orgId} and ${onDay(sql`coalesce(processed_at, updated_at)`, zone, d)}`,
      )
    ).filter((l) => userIds.includes(l.user_id));
    const instant = (
      await selectRows<{ user_id: string; status: string; result: Record<string, unknown>; credits_charged: number }>(
        t.db.db,
        sql`select user_id, status, result, credits_charged from finder_instant
            where org_id = ${owner.orgId} and state = 'completed' and ${onDay(sql`created_at`, zone, d)}`,
      )
    ).filter((r) => userIds.includes(r.user_id));
    const fromLists = (key: string) => lists.reduce((s, l) => s + Number(l.counters[key] ?? 0), 0);
    const found = instant.filter((r) => r.status === 'found');
    const foundCount = fromLists('found') + found.length;
    const confidence = fromLists('confidence_sum') + found.reduce((s, r) => s + Number(r.result.confidence_score), 0);
    return {
      stats: {
        total: fromLists('processed') + instant.length,
        found: foundCount,
        not_found: fromLists('not_found') + instant.filter((r) => r.status !== 'found').length,
        business: fromLists('business') + found.filter((r) => r.result.business === true).length,
        role: fromLists('role') + found.filter((r) => r.result.role === true).length,
        confidence_score: foundCount > 0 ? Math.round((confidence / foundCount) * 100) / 100 : 0,
        billable: fromLists('billable') + instant.filter((r) => r.credits_charged > 0).length,
      },
      instant: instant.length,
      bulk: fromLists('processed'),
    };
  }

  /** Seeds charges of every kind, verifier and finder results at `instants`, spread over the members. */
  async function seedAt(instants: string[], members: string[]) {
    await t.db.db.insert(creditTransactions).values(
      instants.flatMap((at, i) =>
        CHARGES.flatMap((c, j) =>
          (i + j) % 5 === 4
            ? [] // leave some holes, so no two days look alike
            : [{ orgId: owner.orgId, userId: members[(i + j) % members.length]!, kind: c.kind, amount: 1 + ((i * 7 + j * 3) % 11), reason: 'seed', sourceAgent: c.agent, objectType: c.object, balanceAfter: 1000, createdAt: new Date(at) }],
        ),
      ),
    );
    // Grants and purchases are not usage.
    await t.db.db.insert(creditTransactions).values(instants.map((at) => ({ orgId: owner.orgId, userId: members[0]!, kind: 'grant' as const, amount: 500, reason: 'seed', balanceAfter: 1000, createdAt: new Date(at) })));
    const statuses = ['valid', 'invalid', 'catch_all', 'unknown', 'valid'] as const;
    await t.db.db.insert(instantVerifications).values(
      instants.flatMap((at, i) =>
        members.map((userId, m) => {
          const status = statuses[(i + m) % statuses.length]!;
          return {
            orgId: owner.orgId,
            userId,
            email: `p${i}-${m}@example.test`,
            status,
            result: {
              safe_to_send: status === 'valid' ? 'yes' : 'no',
              // Scores in quarters add up exactly in floating point, as they do in the database.
              deliverability_score: status === 'valid' ? 0.25 * (1 + ((i + m) % 4)) : 0,
              disposable: (i + m) % 3 === 0,
              free_account: (i + m) % 4 === 0,
              role_account: (i + m) % 6 === 0,
              gibberish: (i + m) % 7 === 0,
            },
            billable: status !== 'unknown',
            creditsCharged: status !== 'unknown' ? 1 : 0,
            createdAt: new Date(at),
          };
        }),
      ),
    );
    await t.db.db.insert(finderInstant).values(
      instants.flatMap((at, i) =>
        members.map((userId, m): typeof finderInstant.$inferInsert => {
          const found = (i + m) % 3 !== 0;
          return {
            orgId: owner.orgId,
            userId,
            // One search in four is still running: never counted.
            state: (i + m) % 4 === 3 ? 'running' : 'completed',
            input: { name: { first: 'Ann', middle: null, last: 'Lee' }, domain: 'example.test', companyName: null },
            status: found ? 'found' : 'not_found',
            result: found ? { business: (i + m) % 2 === 0, role: (i + m) % 5 === 0, confidence_score: 60 + ((i * 13 + m * 7) % 40) } : {},
            creditsCharged: found ? 1 : 0,
            createdAt: new Date(at),
          };
        }),
      ),
    );
    for (const [i, at] of instants.entries()) {
      if (i % 2 === 1) continue;
      const userId = members[i % members.length]!;
      const v = { verified: 20 + i, valid: 10 + i, invalid: 5, catch_all: 3, unknown: 2, disposable: 1 + (i % 3), gibberish: i % 2, free_account: 4, role_account: 2, billable: 18 + i, safe_to_send: 9, valid_score_sum: 7.5 + i };
      // A list verified at the instant, and one whose verification is still running (counted by its last update).
      await t.db.db.execute(sql`insert into verify_lists (org_id, user_id, name, file_name, file_type, storage_key, size_bytes, email_column, has_header, counters, duplicate_count, syntax_error_count, verified_at, updated_at, state)
        values (${owner.orgId}, ${userId}, ${`List ${i}`}, 'l.csv', 'csv', 'none', 10, 0, true, ${JSON.stringify(v)}::jsonb, ${i % 4}, ${1 + (i % 3)}, ${at}, ${at}, 'verified'),
               (${owner.orgId}, ${userId}, ${`Running ${i}`}, 'l.csv', 'csv', 'none', 10, 0, true, ${JSON.stringify({ ...v, verified: 3, valid: 3, valid_score_sum: 2.5 })}::jsonb, 0, 0, null, ${at}, 'in_progress')`);
      const f = { processed: 30 + i, found: 20 + i, not_found: 10, business: 12, role: 3, catch_all: 0, confidence_sum: (20 + i) * 81.5, billable: 20 + i };
      await t.db.db.execute(sql`insert into finder_lists (org_id, user_id, name, file_name, file_type, storage_key, size_bytes, has_header, header, mapping, counters, processed_at, updated_at, state)
        values (${owner.orgId}, ${userId}, ${`Finder ${i}`}, 'f.csv', 'csv', 'none', 10, true, '[]'::jsonb, '{}'::jsonb, ${JSON.stringify(f)}::jsonb, ${at}, ${at}, 'processed')`);
    }
  }

  /** The organisation (owner, a manager and an executive in the team Research) with usage at INSTANTS, and another one spending at the same instants. */
  async function start(): Promise<TSumsPeople> {
    t = await createTestApp();
    owner = await t.createOwner('owner@sums.test', 'Olivia Owner');
    const stranger = await t.createOwner('stranger@sums.test', 'Sam Stranger');
    const manager = await addMember('manager@sums.test', 'Maya Manager', 'admin');
    const exec = await addMember('exec@sums.test', 'Eddie Exec', 'analyst');
    const everyone = [owner.userId, manager.userId, exec.userId];
    const research = (await post(owner, '/admin/team/create', { name: 'Research', member_ids: [exec.userId, manager.userId] })).body.data.team.id as string;
    await seedAt(INSTANTS, everyone);
    // Another organisation spends at the same instants: never counted for the first.
    await t.db.db.insert(creditTransactions).values(
      INSTANTS.map((at) => ({ orgId: stranger.orgId, userId: stranger.userId, kind: 'charge' as const, amount: 1000, reason: 'seed', sourceAgent: 'instant_verify' as const, balanceAfter: 0, createdAt: new Date(at) })),
    );
    await t.db.db.insert(instantVerifications).values(
      INSTANTS.map((at) => ({ orgId: stranger.orgId, userId: stranger.userId, email: 'x@example.test', status: 'valid' as const, result: { deliverability_score: 1 }, billable: true, creditsCharged: 1, createdAt: new Date(at) })),
    );
    return { t, owner, manager, exec, stranger, research, everyone };
  }

  const close = async () => {
    await t?.close();
  };

  return { start, close, post, day, onDay, setZone, ledgerOn, verifierOn, finderOn, seedAt };
}
