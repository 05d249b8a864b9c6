import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZInstantVerifyResponse, type TCatchAllScore } from '@verilead/contracts';
import { grantCredits } from '../../platform/credits/ledger';
import { buildMultipart, createWorldApp, fetchListExport, type TWorldApp } from './test-support';

type TUser = { token: string; userId: string; orgId: string };

/**
 * acceptall.test is a catch-all domain of the mail world: every address is catch_all, and the score is what tells
 * them apart. The organisation saw three first.last addresses valid there, the directory lists one person.
 */
describe('catch-all scores', () => {
  let w: TWorldApp;
  let acme: TUser;
  let other: TUser;

  const instant = async (user: TUser, email: string): Promise<TCatchAllScore | undefined> => {
    const res = await w.t.call({ method: 'POST', url: '/api/v1/email_verify/instant', token: user.token, payload: { email } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const data = ZInstantVerifyResponse.parse(res.body).data;
    expect(data.status, email).toBe('catch_all');
    return data.catch_all_score;
  };
  /** Valid results of `user` at a domain, as if verified before it turned catch-all. */
  const seenValid = (user: TUser, emails: string[]) =>
    Promise.all(
      emails.map((email) =>
        w.t.db.db.execute(sql`insert into instant_verifications (org_id, user_id, email, status, source, result, billable, credits_charged)
          values (${user.orgId}, ${user.userId}, ${email}, 'valid', 'app', ${JSON.stringify({ email, status: 'valid' })}::jsonb, true, 1)`),
      ),
    );

  beforeAll(async () => {
    w = await createWorldApp();
    acme = await w.t.createOwner('owner@acme-scores.test');
    other = await w.t.createOwner('owner@other-scores.test');
    for (const u of [acme, other]) await w.t.db.transaction((tx) => grantCredits(tx, { orgId: u.orgId, amount: 1_000, reason: 'Test top-up' }));
    await seenValid(acme, ['ann.lee@acceptall.test', 'bob.stone@acceptall.test', 'carl.ray@acceptall.test']);
    await w.t.db.db.execute(sql`with c as (
        insert into directory_companies (external_id, name, domain, industry, industry_code, size_range, employees, revenue_range, country)
        values ('catch-all-co', 'Accept All', 'acceptall.test', 'Software', '5112', '11-50', 40, '1M-10M', 'US') returning id)
      insert into directory_people (external_id, first_name, last_name, full_name, title, seniority, department, country, company_id, company_domain, email)
      select 'catch-all-dana', 'Dana', 'Wells', 'Dana Wells', 'CTO', 'c_suite', 'engineering', 'US', c.id, 'acceptall.test', 'dana.wells@acceptall.test' from c`);
  });
  afterAll(async () => {
    await w?.close();
  });

  it('scores instant checks in the order the evidence says, with the evidence beside the score', async () => {
    const emails = ['dana.wells@acceptall.test', 'erin.cole@acceptall.test', 'ecole@acceptall.test', 'sales@acceptall.test', 'qxzkvbrt@acceptall.test'];
    const scores: TCatchAllScore[] = [];
    for (const e of emails) scores.push((await instant(acme, e))!);
    const values = scores.map((s) => s.score);
    expect([...values].sort((a, b) => b - a)).toEqual(values);
    expect(new Set(values).size).toBe(values.length);
    expect(scores[0]!.evidence.map((e) => e.kind)).toContain('directory_address');
    expect(scores[1]!.evidence[0]).toEqual({ kind: 'pattern_match', text: 'matches first.last, the pattern of 3 known addresses of 3 known at acceptall.test' });
    expect(scores[3]!.evidence.map((e) => e.kind)).toContain('role_account');
    expect(scores[4]!.evidence.map((e) => e.kind)).toContain('gibberish');
    // The recent results keep the score: it is stored with the result.
    const recent = await w.t.call({ method: 'GET', url: '/api/v1/email_verify/instant/recent?limit=1', token: acme.token });
    expect(recent.body.data.items[0].catch_all_score).toEqual(scores[4]);
  });

  it("does not let another organisation's results change an organisation's score", async () => {
    const before = await instant(acme, 'frank.hale@acceptall.test');
    const strangers = await instant(other, 'frank.hale@acceptall.test');
    expect(strangers!.evidence.map((e) => e.kind)).toContain('no_pattern');
    // The other organisation sees forty flast addresses valid there: its own score moves, acme's does not.
    await seenValid(other, Array.from({ length: 40 }, (_, i) => `${String.fromCharCode(97 + (i % 26))}${['smith', 'jones', 'brown', 'moore'][i % 4]}@acceptall.test`));
    expect(await instant(acme, 'frank.hale@acceptall.test')).toEqual(before);
    expect((await instant(other, 'frank.hale@acceptall.test'))!.evidence.map((e) => e.kind)).toContain('pattern_mismatch');
  });

  it('stores a score with each catch_all row of a bulk list and exports it', async () => {
    const mp = buildMultipart('catch-all.csv', 'email\ndana.wells@acceptall.test\nerin.cole@acceptall.test\nqxzkvbrt@acceptall.test\nalice@strict.test\n');
    const up = await w.t.call({ method: 'POST', url: '/api/v1/email_verify/bulk_upload', token: acme.token, payload: mp.payload, headers: mp.headers });
    expect(up.status).toBe(200);
    const listId = up.body.data.id as string;
    await w.t.deps.queue.runUntilIdle();
    expect((await w.t.call({ method: 'POST', url: '/api/v1/email_verify/list/verify', token: acme.token, payload: { list_id: listId } })).status).toBe(200);
    await w.t.deps.queue.runUntilIdle();
    const rows = (await w.t.db.db.execute(sql`select email, status, result from verify_list_emails where list_id = ${listId} order by row_number`)) as unknown as {
      rows: { email: string; status: string; result: { catch_all_score?: TCatchAllScore } }[];
    };
    const byEmail = new Map(rows.rows.map((r) => [r.email, r]));
    expect(byEmail.get('alice@strict.test')!.result.catch_all_score).toBeUndefined();
    const dana = byEmail.get('dana.wells@acceptall.test')!.result.catch_all_score!;
    const junk = byEmail.get('qxzkvbrt@acceptall.test')!.result.catch_all_score!;
    expect(dana.score).toBeGreaterThan(90);
    expect(junk.score).toBeLessThan(10);
    expect(dana.evidence.length).toBeGreaterThan(0);

    const { file } = await fetchListExport(w, acme.token, listId, { format: 'standard', file_type: 'csv' });
    const [header, ...lines] = file.body.trim().split('\n').map((l) => l.split(','));
    const at = (email: string, column: string) => lines.find((l) => l[0] === email)![header!.indexOf(column)];
    expect(at('dana.wells@acceptall.test', 'catch_all_score')).toBe(String(dana.score));
    expect(at('alice@strict.test', 'catch_all_score')).toBe('');
  });
});
