import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSendgridEventWebhook, mailchimpCleanedPost, sendgridBounceEvent } from '@verilead/test-doubles/platforms';
import { ZBounceReportPreviewResponse, ZBounceReportResponse, ZRecentInstantResponse } from '@verilead/contracts';
import { chargeCredits, getOrgBalance, grantCredits } from '../../platform/credits/ledger';
import { selectRows } from '../../platform/db/database';
import { SERVER_ROOT } from '../../config';
import type { TTestApp } from '../../test/test-app';
import { buildMultipart, createWorldApp, type TWorldApp } from '../email-verifier/test-support';
import { confirmCreditBacks, judgeRecheck, RECHECK_ATTEMPTS } from './confirm-credit-backs';
import { recordBounces } from './record-bounces';

type TUser = { token: string; userId: string; orgId: string };

/** A stored verdict as the engine writes it. */
function resultOf(email: string, status: string, at: string) {
  const [account, domain] = email.split('@') as [string, string];
  return {
    email, status, reason: { code: status === 'valid' ? 'valid_mailbox' : 'accept_all', text: 'As verified' }, safe_to_send: status === 'valid' ? 'yes' : 'risky',
    suggested_email_address: null, disposable: false, free_account: false, role_account: false, gibberish: false, mx_record: `mx.${domain}`, smtp_provider: null,
    verified_on: at, ai_verdict: '', greylist_count: 0, account, domain, time_taken: 10, deliverability_score: 0.9, transcript: [],
  };
}
const DAY = 86_400_000;

describe('bounces fed back, with the credit-back guarantee', () => {
  // The local mail world answers the re-checks: strict.test refuses addresses it has no mailbox for (alice is one it has).
  let w: TWorldApp;
  let t: TTestApp;
  let acme: TUser;
  let other: TUser;

  /** A verdict the organisation was given (and charged for) `daysAgo` days before 2026-11-20. */
  const verdict = async (user: TUser, email: string, status: string, daysBefore: number, charged = true) => {
    const at = new Date(Date.parse('2026-11-20T12:00:00Z') - daysBefore * DAY).toISOString();
    const rows = await selectRows<{ id: string }>(
      t.db.db,
      sql`insert into instant_verifications (org_id, user_id, email, status, source, result, billable, credits_charged, created_at)
          values (${user.orgId}, ${user.userId}, ${email}, ${status}, 'app',
                  ${JSON.stringify(resultOf(email, status, at))}::jsonb,
                  ${charged}, ${charged ? 1 : 0}, ${at}) returning id`,
    );
    if (charged) {
      await t.db.transaction((tx) =>
        chargeCredits(tx, { orgId: user.orgId, userId: user.userId, amount: 1, reason: 'Instant verification', sourceAgent: 'instant_verify', objectType: 'instant_verification', objectId: rows[0]!.id }),
      );
    }
    return rows[0]!.id;
  };
  const upload = async (user: TUser, name: string, csv: string) => {
    const body = buildMultipart(name, csv);
    const res = await t.call({ method: 'POST', url: '/api/v1/bounces/reports/upload', token: user.token, ...body });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return ZBounceReportPreviewResponse.parse(res.body).data;
  };
  const apply = (user: TUser, reportId: string, mapping: unknown) => t.call({ method: 'POST', url: '/api/v1/bounces/reports/apply', token: user.token, payload: { report_id: reportId, mapping } });
  const creditBacks = (orgId: string) =>
    selectRows<{ amount: number; reason: string; object_type: string }>(
      t.db.db,
      sql`select amount, reason, object_type from credit_transactions where org_id = ${orgId} and source_agent = 'bounce_credit_back' order by seq`,
    );

  const claims = (orgId: string) =>
    selectRows<{ email: string; state: string; check_status: string | null; attempts: number }>(
      t.db.db,
      sql`select email, state, check_status, attempts from bounce_credit_backs where org_id = ${orgId} order by email`,
    );

  beforeAll(async () => {
    // The app's clock a day after the bounces these tests date (2026-11-20): the guarantee counts its days to it.
    w = await createWorldApp(undefined, { bounceGuaranteeDays: 30 }, { clock: () => new Date('2026-11-21T12:00:00Z') });
    t = w.t;
    acme = await t.createOwner('owner@acme-bounces.test');
    other = await t.createOwner('owner@other-bounces.test');
    for (const u of [acme, other]) await t.db.transaction((tx) => grantCredits(tx, { orgId: u.orgId, amount: 100, reason: 'Test top-up' }));
  });
  afterAll(async () => {
    await w?.close();
  });

  it('detects the columns of a SendGrid export, marks, claims once under concurrent applies and a webhook event, credits back what a re-check confirms, and never claims soft or old bounces', async () => {
    await verdict(acme, 'gone.bounced.person@strict.test', 'valid', 5);
    await verdict(acme, 'full.bounced.person@strict.test', 'valid', 5);
    await verdict(acme, 'old.bounced.person@strict.test', 'valid', 45);
    await verdict(acme, 'maybe.bounced.person@strict.test', 'catch_all', 5);
    // A mailbox the mail server still has: the bounce is the report's word only.
    await verdict(acme, 'alice@strict.test', 'valid', 5);
    await verdict(other, 'gone.bounced.person@strict.test', 'valid', 5);
    const before = await getOrgBalance(t.db.db, acme.orgId);
    const otherBefore = await getOrgBalance(t.db.db, other.orgId);
    const csv = [
      'email,created,reason,status',
      'gone.bounced.person@strict.test,2026-11-20 09:00:00,550 5.1.1 The email account that you tried to reach does not exist,5.1.1',
      'full.bounced.person@strict.test,2026-11-20 09:00:00,452 4.2.2 Mailbox full,4.2.2',
      'old.bounced.person@strict.test,2026-11-20 09:00:00,550 5.1.1 User unknown,5.1.1',
      'maybe.bounced.person@strict.test,2026-11-20 09:00:00,550 5.1.1 User unknown,5.1.1',
      'alice@strict.test,2026-11-20 09:00:00,550 5.1.1 User unknown,5.1.1',
      'not-an-address,2026-11-20 09:00:00,whatever,5.1.1',
    ].join('\n');
    const preview = await upload(acme, 'sendgrid-bounces.csv', csv);
    expect(preview.detected_esp).toBe('SendGrid');
    expect(preview.mapping).toEqual({ email_column: 0, type_column: null, code_column: 3, reason_column: 2, date_column: 1 });
    expect(preview.sample.map((s) => s.kind)).toEqual(['hard', 'soft', 'hard', 'hard', 'hard', null]);
    // The same file uploaded twice (two reports), the first applied twice at once, and at the same time a SendGrid
    // webhook event for the same address a minute later: one claim per verdict in all.
    const second = await upload(acme, 'sendgrid-bounces-again.csv', csv);
    const hook = await t.call({ method: 'POST', url: '/api/v1/bounces/webhooks', token: acme.token, payload: { platform: 'sendgrid' } });
    expect(hook.status).toBe(200);
    const token = String(hook.body.data.url).split('/').pop();
    const event = [{ email: 'gone.bounced.person@strict.test', event: 'bounce', type: 'bounce', status: '5.1.1', reason: 'User unknown', timestamp: Date.parse('2026-11-20T09:01:00Z') / 1000 }];
    const post = () => t.call({ method: 'POST', url: `/api/v1/public/bounces/${token}`, headers: { 'content-type': 'application/json' }, payload: JSON.stringify(event) });
    const answers = await Promise.all([apply(acme, preview.report_id, preview.mapping), apply(acme, preview.report_id, preview.mapping), apply(acme, second.report_id, preview.mapping), post()]);
    for (const a of answers) expect(a.status, JSON.stringify(a.body)).toBe(200);
    const totals = answers.slice(0, 3).map((a) => ZBounceReportResponse.parse(a.body).data);
    expect(totals[0]).toMatchObject({ state: 'applied', rows: 6, ignored: 1, credited: 0, credits_returned: 0 });
    // Both applications of one report answer its one application; the reports and the event together claimed gone's and alice's verdicts, once each.
    expect(totals[1]).toEqual(totals[0]);
    const posted = answers[3]!.body.data as { received: number; hard: number; claimed: number };
    expect(posted).toMatchObject({ received: 1, hard: 1 });
    expect(totals[0]!.credit_backs_pending + totals[2]!.credit_backs_pending + posted.claimed).toBe(2);
    // The event delivered again (SendGrid retries): nothing new.
    expect((await post()).body.data).toEqual({ received: 1, hard: 0, soft: 0, claimed: 0 });
    // Nothing comes back before the re-check.
    expect(await creditBacks(acme.orgId)).toEqual([]);
    expect(await getOrgBalance(t.db.db, acme.orgId)).toBe(before);

    // The re-checks: strict.test refuses gone (credited), still accepts alice (declined).
    await t.deps.queue.runUntilIdle();
    expect(await claims(acme.orgId)).toEqual([
      { email: 'alice@strict.test', state: 'declined', check_status: 'valid', attempts: 1 },
      { email: 'gone.bounced.person@strict.test', state: 'credited', check_status: 'invalid', attempts: 1 },
    ]);
    const backs = await creditBacks(acme.orgId);
    expect(backs).toHaveLength(1);
    expect(backs[0]).toMatchObject({ amount: 1, object_type: 'bounce' });
    expect(backs[0]!.reason).toContain('gone.bounced.person@strict.test hard-bounced on 2026-11-20');
    expect(backs[0]!.reason).toContain('5.1.1');
    expect(await getOrgBalance(t.db.db, acme.orgId)).toBe(before + 1);
    // Another organisation's verdict of the same address: untouched.
    expect(await getOrgBalance(t.db.db, other.orgId)).toBe(otherBefore);
    expect(await creditBacks(other.orgId)).toEqual([]);
    // Run again (a retried job): nothing more.
    expect(await confirmCreditBacks(t.deps, acme.orgId)).toEqual({ checked: 0, credited: 0, declined: 0, waiting: 0 });
    expect(await creditBacks(acme.orgId)).toHaveLength(1);

    // The organisation's results read invalid with the bounce; the other's stay valid.
    const recent = ZRecentInstantResponse.parse((await t.call({ method: 'GET', url: '/api/v1/email_verify/instant/recent', token: acme.token })).body).data.items;
    const gone = recent.find((r) => r.email === 'gone.bounced.person@strict.test')!;
    expect(gone.status).toBe('invalid');
    expect(gone.bounce).toMatchObject({ kind: 'hard', code: '5.1.1' });
    expect(recent.find((r) => r.email === 'full.bounced.person@strict.test')!.status).toBe('valid');
    const theirs = ZRecentInstantResponse.parse((await t.call({ method: 'GET', url: '/api/v1/email_verify/instant/recent', token: other.token })).body).data.items;
    expect(theirs.find((r) => r.email === 'gone.bounced.person@strict.test')!.status).toBe('valid');

    // The history: the reports' claims settled. alice's was a report's; gone's went to whichever of the reports and
    // the webhook event claimed it first (a report's figures count it only then).
    const [goneClaim] = await selectRows<{ source: string }>(
      t.db.db,
      sql`select b.source from bounce_credit_backs c join bounces b on b.id = c.bounce_id where c.org_id = ${acme.orgId} and c.email = 'gone.bounced.person@strict.test'`,
    );
    const fromReport = goneClaim!.source === 'upload' ? 1 : 0;
    const list = await t.call({ method: 'GET', url: '/api/v1/bounces/reports', token: acme.token });
    expect(list.body.data).toMatchObject({ total: 2, guarantee_days: 30 });
    const items = list.body.data.items as { credited: number; credits_returned: number; credit_backs_pending: number; credit_backs_declined: number }[];
    const sum = (k: keyof (typeof items)[number]) => items.reduce((n, r) => n + r[k], 0);
    expect([sum('credited'), sum('credits_returned'), sum('credit_backs_pending'), sum('credit_backs_declined')]).toEqual([fromReport, fromReport, 0, 1]);
    expect((await t.call({ method: 'GET', url: '/api/v1/bounces/reports', token: other.token })).body.data.total).toBe(0);
  });

  it('settles a claim once when two re-check runs race', async () => {
    await verdict(acme, 'raced.bounced.person@strict.test', 'valid', 2);
    const at = new Date('2026-11-20T16:00:00Z');
    const made = await t.db.transaction((tx) =>
      recordBounces(tx, acme.orgId, [{ email: 'raced.bounced.person@strict.test', kind: 'hard', source: 'upload', bouncedAt: at, reason: 'User unknown', code: '5.1.1', reportId: null }], 30, at),
    );
    expect(made).toMatchObject({ claimed: 1 });
    const before = await getOrgBalance(t.db.db, acme.orgId);
    const runs = await Promise.all([confirmCreditBacks(t.deps, acme.orgId), confirmCreditBacks(t.deps, acme.orgId)]);
    expect(runs.map((r) => r.credited).sort()).toEqual([0, 1]);
    expect(await getOrgBalance(t.db.db, acme.orgId)).toBe(before + 1);
    expect((await claims(acme.orgId)).find((c) => c.email === 'raced.bounced.person@strict.test')).toEqual({ email: 'raced.bounced.person@strict.test', state: 'credited', check_status: 'invalid', attempts: 1 });
  });

  it('judges a re-check: refused credits, accepted or catch-all declines, an unknown one tries again until the last attempt', () => {
    expect(judgeRecheck('invalid', 0)).toBe('credit');
    expect(judgeRecheck('valid', 0)).toBe('decline');
    expect(judgeRecheck('catch_all', 0)).toBe('decline');
    expect(judgeRecheck('unknown', 0)).toBe('retry');
    expect(judgeRecheck('unknown', RECHECK_ATTEMPTS - 2)).toBe('retry');
    expect(judgeRecheck('unknown', RECHECK_ATTEMPTS - 1)).toBe('decline');
    expect(judgeRecheck('invalid', RECHECK_ATTEMPTS - 1)).toBe('credit');
  });

  it('answers 404 for another organisation’s report and 403 to an Executive', async () => {
    const preview = await upload(acme, 'mailchimp.csv', 'Email Address,Bounce Type\nx@corp.test,hard\n');
    expect(preview.detected_esp).toBe('Mailchimp');
    expect(preview.mapping.type_column).toBe(1);
    const res = await apply(other, preview.report_id, preview.mapping);
    expect(res.status).toBe(404);
    const add = await t.call({ method: 'POST', url: '/api/v1/admin/member/add', token: acme.token, payload: { email: 'exec@acme-bounces.test', role: 'analyst' } });
    expect(add.status).toBe(200);
    const setup = await t.mailedToken('exec@acme-bounces.test', '/setup_password');
    await t.call({ method: 'POST', url: '/api/v1/user/password/setup', payload: { token: setup, password: 'Another-Horse-2' } });
    const login = await t.call({ method: 'POST', url: '/api/v1/user/login', payload: { email: 'exec@acme-bounces.test', password: 'Another-Horse-2' } });
    expect(login.status, JSON.stringify(login.body)).toBe(200);
    expect((await t.call({ method: 'GET', url: '/api/v1/bounces/reports', token: login.body.data.token })).status).toBe(403);
  });

  it('refuses a column the file does not have, and a bad file, with a readable 400', async () => {
    const preview = await upload(acme, 'bad-mapping.csv', 'email,type\na@corp.test,hard\n');
    const res = await apply(acme, preview.report_id, { ...preview.mapping, reason_column: 7 });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe('Column 8 does not exist: the file has 2 column(s)');
    const bad = await t.call({ method: 'POST', url: '/api/v1/bounces/reports/upload', token: acme.token, ...buildMultipart('report.pdf', 'x') });
    expect(bad.status).toBe(400);
  });

  it('checks SendGrid ECDSA signatures when a verification key is stored, and takes Mailchimp cleaned events', async () => {
    const sendgrid = createSendgridEventWebhook();
    const hook = await t.call({ method: 'POST', url: '/api/v1/bounces/webhooks', token: other.token, payload: { platform: 'sendgrid', verification_key: sendgrid.verificationKey } });
    expect(hook.status, JSON.stringify(hook.body)).toBe(200);
    expect(hook.body.data.signed).toBe(true);
    const url = `/api/v1/public/bounces/${String(hook.body.data.url).split('/').pop()}`;
    const signed = sendgrid.post([sendgridBounceEvent('signed@corp.test', { timestamp: 1795000000 }), { email: 'opened@corp.test', event: 'open', timestamp: 1795000000 }], 1795000000);
    const forged = await t.call({ method: 'POST', url, headers: signed.headers, payload: signed.body.replace('signed@', 'forged@') });
    expect(forged.status).toBe(401);
    expect((await t.call({ method: 'POST', url, headers: { 'content-type': 'application/json' }, payload: signed.body })).status).toBe(401);
    const good = await t.call({ method: 'POST', url, headers: signed.headers, payload: signed.body });
    expect(good.status, JSON.stringify(good.body)).toBe(200);
    expect(good.body.data).toEqual({ received: 1, hard: 1, soft: 0, claimed: 0 });
    const blocked = sendgrid.post([sendgridBounceEvent('blocked@corp.test', { type: 'blocked', status: '4.7.1' })]);
    expect((await t.call({ method: 'POST', url, headers: blocked.headers, payload: blocked.body })).body.data).toMatchObject({ hard: 0, soft: 1 });
    const bad = await t.call({ method: 'POST', url: '/api/v1/bounces/webhooks', token: other.token, payload: { platform: 'sendgrid', verification_key: 'bm90IGEga2V5' } });
    expect(bad.status).toBe(400);
    const audit = await selectRows<{ details: Record<string, unknown> }>(t.db.db, sql`select details from audit_log where org_id = ${other.orgId} and action = 'bounce_webhook.changed'`);
    expect(audit.map((a) => a.details)).toEqual([{ platform: 'sendgrid', rotated: false, signed: true }]);

    const mc = await t.call({ method: 'POST', url: '/api/v1/bounces/webhooks', token: other.token, payload: { platform: 'mailchimp' } });
    const mcUrl = `/api/v1/public/bounces/${String(mc.body.data.url).split('/').pop()}`;
    expect((await t.call({ method: 'GET', url: mcUrl })).status).toBe(200);
    const cleaned = mailchimpCleanedPost('cleaned@corp.test', { firedAt: '2026-11-21 10:00:00' });
    const posted = await t.call({ method: 'POST', url: mcUrl, headers: cleaned.headers, payload: cleaned.body });
    expect(posted.status, JSON.stringify(posted.body)).toBe(200);
    expect(posted.body.data).toMatchObject({ received: 1, hard: 1 });
    const abuse = mailchimpCleanedPost('complained@corp.test', { reason: 'abuse' });
    expect((await t.call({ method: 'POST', url: mcUrl, headers: abuse.headers, payload: abuse.body })).body.data.received).toBe(0);
    expect((await t.call({ method: 'GET', url: '/api/v1/public/bounces/nope' })).status).toBe(404);
    const rows = await selectRows<{ email: string; org_id: string }>(t.db.db, sql`select email, org_id from bounces where email in ('signed@corp.test', 'cleaned@corp.test', 'forged@corp.test') order by email`);
    expect(rows).toEqual([
      { email: 'cleaned@corp.test', org_id: other.orgId },
      { email: 'signed@corp.test', org_id: other.orgId },
    ]);
  });

  it("keeps only a SHA-256 of a webhook's address: shown once when made, never listed, found by its hash; a rotated one replaces it", async () => {
    const owner = await t.createOwner('owner@hashed-hooks.test');
    const set = (payload: Record<string, unknown>) => t.call({ method: 'POST', url: '/api/v1/bounces/webhooks', token: owner.token, payload });
    const made = await set({ platform: 'mailchimp' });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const url = String(made.body.data.url);
    const token = url.split('/').pop()!;
    expect(url).toMatch(/\/api\/v1\/public\/bounces\/[A-Za-z0-9_-]{32}$/);
    const stored = await selectRows<Record<string, unknown>>(t.db.db, sql`select * from bounce_webhooks where org_id = ${owner.orgId}`);
    expect(stored).toHaveLength(1);
    expect(stored[0]!.token_hash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(JSON.stringify(stored)).not.toContain(token);
    // The list shows what the webhook is, never its address; asking again without rotating shows none either.
    const list = await t.call({ method: 'GET', url: '/api/v1/bounces/webhooks', token: owner.token });
    expect(list.body.data.items).toEqual([{ platform: 'mailchimp', signed: false, events: 0, created_at: expect.any(String) }]);
    expect((await set({ platform: 'mailchimp' })).body.data).toMatchObject({ platform: 'mailchimp', url: null });
    expect((await t.call({ method: 'GET', url: `/api/v1/public/bounces/${token}` })).status).toBe(200);
    // A new address: answered once, the old one stops working.
    const rotated = await set({ platform: 'mailchimp', rotate: true });
    const fresh = String(rotated.body.data.url).split('/').pop()!;
    expect(fresh).not.toBe(token);
    expect((await t.call({ method: 'GET', url: `/api/v1/public/bounces/${token}` })).status).toBe(404);
    expect((await t.call({ method: 'GET', url: `/api/v1/public/bounces/${fresh}` })).status).toBe(200);
    const hashes = await selectRows<{ token_hash: string }>(t.db.db, sql`select token_hash from bounce_webhooks where org_id = ${owner.orgId}`);
    expect(hashes).toEqual([{ token_hash: createHash('sha256').update(fresh).digest('hex') }]);

    // Migration 0086 hashed the tokens stored before it in SQL: its backfill gives the hash a post is looked up by.
    const backfill = readFileSync(join(SERVER_ROOT, 'migrations', '0086_bounce_privacy.sql'), 'utf8').split('--> statement-breakpoint').filter((st) => /^\s*UPDATE "bounce_webhooks"/m.test(st));
    expect(backfill).toHaveLength(1);
    const rolledBack = new Error('rolled back');
    const seen = await t.db
      .transaction(async (tx) => {
        await tx.execute(sql`alter table bounce_webhooks add column token text`);
        await tx.execute(sql`update bounce_webhooks set token = id::text`);
        await tx.execute(sql`update bounce_webhooks set token = 'legacy-Token_1', token_hash = 'none' where org_id = ${owner.orgId}`);
        await tx.execute(sql.raw(backfill[0]!));
        const rows = await selectRows<{ token_hash: string }>(tx, sql`select token_hash from bounce_webhooks where org_id = ${owner.orgId}`);
        throw Object.assign(rolledBack, { rows });
      })
      .catch((err: unknown) => (err === rolledBack ? (rolledBack as Error & { rows: unknown }).rows : Promise.reject(err)));
    expect(seen).toEqual([{ token_hash: createHash('sha256').update('legacy-Token_1').digest('hex') }]);
  });

  it('claims nothing with the guarantee off (0 days), and never twice for one verdict with it on', async () => {
    await verdict(acme, 'off@corp.test', 'valid', 1);
    const at = new Date('2026-11-20T15:00:00Z');
    const event = { email: 'off@corp.test', kind: 'hard' as const, source: 'upload' as const, bouncedAt: at, reason: 'User unknown', code: '5.1.1', reportId: null };
    const off = await t.db.transaction((tx) => recordBounces(tx, acme.orgId, [event], 0, at));
    expect(off).toEqual({ hard: 1, soft: 0, matched: 1, claimed: 0 });
    // A later bounce with the guarantee on claims the verdict once; another later bounce of it, nothing more.
    const on = await t.db.transaction((tx) => recordBounces(tx, acme.orgId, [{ ...event, bouncedAt: new Date(at.getTime() + 60_000) }], 30, at));
    expect(on).toMatchObject({ hard: 1, claimed: 1 });
    const again = await t.db.transaction((tx) => recordBounces(tx, acme.orgId, [{ ...event, bouncedAt: new Date(at.getTime() + 120_000) }], 30, at));
    expect(again).toMatchObject({ hard: 1, claimed: 0 });
  });
});
