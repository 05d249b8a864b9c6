import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZBounceReportPreviewResponse, ZBounceReportResponse } from '@verilead/contracts';
import { chargeCredits, getOrgBalance, grantCredits } from '../../platform/credits/ledger';
import { selectRows } from '../../platform/db/database';
import { buildMultipart, createWorldApp, type TWorldApp } from '../email-verifier/test-support';

type TUser = { token: string; userId: string; orgId: string };
const DAY = 86_400_000;

/**
 * The guarantee's days are counted to when the bounce reaches Verilead. A bounce's date is the organisation's own word
 * (a report's cell, an unsigned or self-signed event's timestamp) and the re-check only sees the address as it is
 * now: a bounce backdated to just after a verdict of long ago must not bring back the credit of a verdict that was
 * right when it was given (the address died since, as addresses do).
 */
describe('the bounce guarantee counts its days to when the bounce arrives', () => {
  let w: TWorldApp;
  let acme: TUser;
  const now = new Date('2026-11-29T12:00:00Z');

  /** A valid verdict the organisation was given, and charged for, `daysAgo` days before now. */
  const verdict = async (email: string, daysAgo: number) => {
    const at = new Date(now.getTime() - daysAgo * DAY).toISOString();
    const [row] = await selectRows<{ id: string }>(
      w.t.db.db,
      sql`insert into instant_verifications (org_id, user_id, email, status, source, result, billable, credits_charged, created_at)
          values (${acme.orgId}, ${acme.userId}, ${email}, 'valid', 'app', ${JSON.stringify({ email, status: 'valid', verified_on: at })}::jsonb, true, 1, ${at}) returning id`,
    );
    await w.t.db.transaction((tx) =>
      chargeCredits(tx, { orgId: acme.orgId, userId: acme.userId, amount: 1, reason: 'Instant verification', sourceAgent: 'instant_verify', objectType: 'instant_verification', objectId: row!.id }),
    );
    return at;
  };
  const day = (iso: string, plus: number) => new Date(Date.parse(iso) + plus * DAY).toISOString().slice(0, 19).replace('T', ' ');
  const creditBacks = () =>
    selectRows<{ amount: number; reason: string }>(w.t.db.db, sql`select amount, reason from credit_transactions where org_id = ${acme.orgId} and source_agent = 'bounce_credit_back' order by seq`);

  beforeAll(async () => {
    w = await createWorldApp(undefined, { bounceGuaranteeDays: 30 }, { clock: () => now });
    acme = await w.t.createOwner('owner@acme-window.test');
    await w.t.db.transaction((tx) => grantCredits(tx, { orgId: acme.orgId, amount: 100, reason: 'Test top-up' }));
  });
  afterAll(async () => {
    await w?.close();
  });

  it('credits a recent verdict, and never one outside the guarantee whatever date a report or an ESP event gives its bounce', async () => {
    // strict.test (the local mail world) refuses these addresses now: every re-check would confirm the bounce.
    const oldAt = await verdict('old.dead.person@strict.test', 200);
    const oldHookAt = await verdict('old.hook.person@strict.test', 120);
    await verdict('recent.dead.person@strict.test', 10);
    const before = await getOrgBalance(w.t.db.db, acme.orgId);

    const csv = [
      'email,created,reason,status',
      // backdated to the day after a verdict of 200 days ago
      `old.dead.person@strict.test,${day(oldAt, 1)},550 5.1.1 User unknown,5.1.1`,
      `recent.dead.person@strict.test,${day(now.toISOString(), -1)},550 5.1.1 User unknown,5.1.1`,
    ].join('\n');
    const mp = buildMultipart('sendgrid-bounces.csv', csv);
    const up = await w.t.call({ method: 'POST', url: '/api/v1/bounces/reports/upload', token: acme.token, payload: mp.payload, headers: mp.headers });
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    const preview = ZBounceReportPreviewResponse.parse(up.body).data;
    const applied = await w.t.call({ method: 'POST', url: '/api/v1/bounces/reports/apply', token: acme.token, payload: { report_id: preview.report_id, mapping: preview.mapping } });
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    expect(ZBounceReportResponse.parse(applied.body).data).toMatchObject({ hard: 2, matched: 2, credit_backs_pending: 1 });

    // An unsigned SendGrid webhook's event, its timestamp backdated the same way.
    const hook = await w.t.call({ method: 'POST', url: '/api/v1/bounces/webhooks', token: acme.token, payload: { platform: 'sendgrid' } });
    expect(hook.status).toBe(200);
    const event = [{ email: 'old.hook.person@strict.test', event: 'bounce', type: 'bounce', status: '5.1.1', reason: 'User unknown', timestamp: Math.floor((Date.parse(oldHookAt) + DAY) / 1000) }];
    const posted = await w.t.call({
      method: 'POST',
      url: `/api/v1/public/bounces/${String(hook.body.data.url).split('/').pop()}`,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify(event),
    });
    expect(posted.status, JSON.stringify(posted.body)).toBe(200);
    expect(posted.body.data).toEqual({ received: 1, hard: 1, soft: 0, claimed: 0 });

    await w.t.deps.queue.runUntilIdle();
    const backs = await creditBacks();
    expect(backs.map((b) => b.reason.split(' hard-bounced')[0])).toEqual(['Bounce credit-back: recent.dead.person@strict.test']);
    expect(await getOrgBalance(w.t.db.db, acme.orgId)).toBe(before + 1);
  });
});
