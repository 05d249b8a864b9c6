import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZInstantVerifyResponse, type TCatchAllScore } from '@verilead/contracts';
import { grantCredits } from '../../platform/credits/ledger';
import { selectRows } from '../../platform/db/database';
import { buildMultipart, createWorldApp, fetchListExport, type TWorldApp } from '../email-verifier/test-support';

type TUser = { token: string; userId: string; orgId: string };

/**
 * Bounces feed what the organisation knows: acceptall.test is a catch-all domain of the mail world, where acme saw
 * three first.last addresses valid; strict.test answers for each address (alice is a mailbox).
 */
describe('bounces teach the catch-all score and overlay list results', () => {
  let w: TWorldApp;
  let acme: TUser;
  let other: TUser;

  const instant = async (user: TUser, email: string): Promise<TCatchAllScore> => {
    const res = await w.t.call({ method: 'POST', url: '/api/v1/email_verify/instant', token: user.token, payload: { email } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const data = ZInstantVerifyResponse.parse(res.body).data;
    expect(data.status, email).toBe('catch_all');
    return data.catch_all_score!;
  };
  const report = async (user: TUser, csv: string) => {
    const mp = buildMultipart('bounces.csv', csv);
    const up = await w.t.call({ method: 'POST', url: '/api/v1/bounces/reports/upload', token: user.token, payload: mp.payload, headers: mp.headers });
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    const applied = await w.t.call({ method: 'POST', url: '/api/v1/bounces/reports/apply', token: user.token, payload: { report_id: up.body.data.report_id, mapping: up.body.data.mapping } });
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    return applied.body.data as { hard: number; credits_returned: number; credit_backs_pending: number };
  };

  beforeAll(async () => {
    w = await createWorldApp();
    acme = await w.t.createOwner('owner@acme-learning.test');
    other = await w.t.createOwner('owner@other-learning.test');
    for (const u of [acme, other]) await w.t.db.transaction((tx) => grantCredits(tx, { orgId: u.orgId, amount: 1_000, reason: 'Test top-up' }));
    for (const email of ['ann.lee@acceptall.test', 'bob.stone@acceptall.test', 'carl.ray@acceptall.test']) {
      await w.t.db.db.execute(sql`insert into instant_verifications (org_id, user_id, email, status, source, result, billable, credits_charged, created_at)
        values (${acme.orgId}, ${acme.userId}, ${email}, 'valid', 'app', ${JSON.stringify({ email, status: 'valid' })}::jsonb, true, 1, now() - interval '90 days')`);
    }
  });
  afterAll(async () => {
    await w?.close();
  });

  it('scores a hard-bounced catch-all address low, and the domain pattern no longer counts a bounced address', async () => {
    const before = await instant(acme, 'erin.cole@acceptall.test');
    expect(before.evidence[0]!.text).toContain('the pattern of 3 known addresses');
    const strangerBefore = await instant(other, 'erin.cole@acceptall.test');
    // erin.cole bounced (after a catch_all verdict: nothing to credit), and so did ann.lee (valid 90 days ago: outside the guarantee).
    const applied = await report(acme, 'email,bounce type\nerin.cole@acceptall.test,hard\nann.lee@acceptall.test,permanent\n');
    expect(applied).toMatchObject({ hard: 2, credits_returned: 0 });

    const after = await instant(acme, 'erin.cole@acceptall.test');
    expect(after.score).toBeLessThan(before.score);
    expect(after.score).toBeLessThan(20);
    expect(after.evidence).toContainEqual({ kind: 'bounce', text: 'erin.cole@acceptall.test hard-bounced' });
    // The pattern learned from two addresses now: ann.lee's valid verdict was wrong.
    const next = await instant(acme, 'gary.dunn@acceptall.test');
    expect(next.evidence[0]!.text).toContain('the pattern of 2 known addresses');
    // Another organisation's score never reads acme's bounces.
    expect(await instant(other, 'erin.cole@acceptall.test')).toEqual(strangerBefore);
  });

  it("marks a bulk list's valid row invalid with the bounce in its export, and claims the row's charge once (declined: its mailbox is still there)", async () => {
    const mp = buildMultipart('campaign.csv', 'email\nalice@strict.test\njohn.smith@strict.test\n');
    const up = await w.t.call({ method: 'POST', url: '/api/v1/email_verify/bulk_upload', token: acme.token, payload: mp.payload, headers: mp.headers });
    const listId = up.body.data.id as string;
    await w.t.deps.queue.runUntilIdle();
    expect((await w.t.call({ method: 'POST', url: '/api/v1/email_verify/list/verify', token: acme.token, payload: { list_id: listId } })).status).toBe(200);
    await w.t.deps.queue.runUntilIdle();

    const applied = await report(acme, 'Email,Type,Details\nalice@strict.test,HardBounce,smtp;550 5.1.1 no such user\njohn.smith@strict.test,Transient,smtp;421 try later\n');
    expect(applied).toMatchObject({ hard: 1, credits_returned: 0, credit_backs_pending: 1 });
    const backs = () => selectRows<{ verdict_ref: string; state: string }>(w.t.db.db, sql`select verdict_ref, state from bounce_credit_backs where org_id = ${acme.orgId}`);
    expect(await backs()).toEqual([{ verdict_ref: `list:${listId}:1`, state: 'pending' }]);
    // The re-check finds alice's mailbox still accepted: no credit comes back for the report's word alone.
    await w.t.deps.queue.runUntilIdle();
    expect(await backs()).toEqual([{ verdict_ref: `list:${listId}:1`, state: 'declined' }]);
    const returned = await selectRows<{ n: number }>(w.t.db.db, sql`select count(*)::int as n from credit_transactions where org_id = ${acme.orgId} and source_agent = 'bounce_credit_back'`);
    expect(returned).toEqual([{ n: 0 }]);

    const { file } = await fetchListExport(w, acme.token, listId, { format: 'standard', file_type: 'csv' });
    const [header, ...lines] = file.body.trim().split('\n').map((l) => l.split(','));
    const at = (email: string, column: string) => lines.find((l) => l[0] === email)![header!.indexOf(column)];
    expect(at('alice@strict.test', 'status')).toBe('invalid');
    expect(at('john.smith@strict.test', 'status')).toBe('valid');
  });
});
