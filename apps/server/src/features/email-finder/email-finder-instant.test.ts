import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ZInstantFindResponse, ZQueueStatusResponse } from '@verilead/contracts';
import type { TPerson } from '@verilead/mailworld';
import { getOrgBalance } from '../../platform/credits/ledger';
import type { TJobQueue } from '../../platform/jobs/jobs';
import type { TTestApp } from '../../test/test-app';
import { events } from '../events/tables';
import { finderApiCalls, startFinderApiWorld, type TFinderApiWorld, type TFinderUser } from './email-finder-test-support';
import { findMissingSpecCalls, readSpecCalls } from '../../test/spec-coverage';

// The quick finder: instant searches, the history, the spec's calls and the ef settings; lists are in email-finder-lists.test.ts.

type TUser = TFinderUser;

describe('email finder API', () => {
  let w: TFinderApiWorld;
  let people: TPerson[];
  let t: TTestApp;
  let jobs: TJobQueue;
  let owner: TUser;
  let stranger: TUser;

  const { charges, prepared, instant, strictPeople } = finderApiCalls(() => w);

  beforeAll(async () => {
    w = await startFinderApiWorld();
    ({ people, t, jobs, owner, stranger } = w);
  }, 60_000);
  afterAll(async () => {
    await w?.close();
  });

  it('finds a person instantly, charges found only, marks catch-all guesses and records events', async () => {
    const person = strictPeople()[0]!;
    const before = await getOrgBalance(t.db.db, owner.orgId);
    const res = await instant(owner, { first_name: person.first_name, last_name: person.last_name, domain: person.domain });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const d = ZInstantFindResponse.parse(res.body).data;
    if (d.queued) throw new Error('unexpectedly queued');
    expect(d).toMatchObject({ email: person.email, status: 'found', catch_all: false, business: true, role: false, credits_charged: 1, reason: { code: 'verified_valid' } });
    expect(d.confidence_score).toBeGreaterThanOrEqual(90);
    expect(await getOrgBalance(t.db.db, owner.orgId)).toBe(before - 1);

    const nobody = await instant(owner, { name: 'Zebulon Quixotez', domain: 'strict.test' });
    expect(nobody.body.data).toMatchObject({ status: 'not_found', email: null, confidence_score: 0, credits_charged: 0 });
    expect(await getOrgBalance(t.db.db, owner.orgId)).toBe(before - 1);

    const ca = people.find((p) => p.scenario === 'catch_all')!;
    const guess = await instant(owner, { name: `${ca.first_name} ${ca.last_name}`, domain: `https://www.${ca.domain}/team` });
    expect(guess.body.data).toMatchObject({ status: 'found', catch_all: true, reason: { code: 'catch_all_best_guess' }, domain: ca.domain });
    expect(guess.body.data.confidence_score).toBeLessThanOrEqual(75);
    expect(guess.body.data.reason.text).toMatch(/accepts every address/);

    const instantCharges = await charges(owner.orgId, 'instant_finder');
    expect(instantCharges).toHaveLength(2);
    const evs = await t.db.db.select().from(events).where(and(eq(events.orgId, owner.orgId), eq(events.type, 'email_finder.instant.completed')));
    expect(evs).toHaveLength(3);
  });

  it('the same person found twice in the quick finder is charged once (and once for two finds at the same time)', async () => {
    // An organisation of its own, so the history the tests below count is the owner's alone.
    const repeat = await t.createOwner('repeat@finder.test');
    const [p, q] = strictPeople().slice(5, 7);
    const before = await getOrgBalance(t.db.db, repeat.orgId);
    const first = await instant(repeat, { first_name: p!.first_name, last_name: p!.last_name, domain: p!.domain });
    expect(first.body.data).toMatchObject({ status: 'found', email: p!.email, credits_charged: 1 });
    const again = await instant(repeat, { name: `${p!.first_name} ${p!.last_name}`, domain: `https://${p!.domain}/` });
    expect(again.body.data).toMatchObject({ status: 'found', email: p!.email, credits_charged: 0 });
    expect(await getOrgBalance(t.db.db, repeat.orgId)).toBe(before - 1);
    const together = await Promise.all([0, 1].map(() => instant(repeat, { first_name: q!.first_name, last_name: q!.last_name, domain: q!.domain })));
    expect(together.map((r) => r.body.data.credits_charged).sort()).toEqual([0, 1]);
    expect(await getOrgBalance(t.db.db, repeat.orgId)).toBe(before - 2);
  });

  it('answers 4xx with reasons for missing names, bad domains and company names', async () => {
    const noName = await instant(owner, { domain: 'strict.test' });
    expect(noName.status).toBe(400);
    expect(noName.body.error.reasons.map((r: { field: string }) => r.field)).toContain('name');
    const noLast = await instant(owner, { first_name: 'Ann', domain: 'strict.test' });
    expect(noLast.status).toBe(400);
    expect(noLast.body.error.reasons[0].field).toBe('last_name');
    const badDomain = await instant(owner, { name: 'Ann Lee', domain: 'bad..domain' });
    expect(badDomain.status).toBe(400);
    expect(badDomain.body.error.reasons[0]).toMatchObject({ field: 'domain' });
    const company = await instant(owner, { name: 'Ann Lee', domain: 'Acme Corporation' });
    expect(company.status).toBe(400);
    expect(company.body.error.message).toMatch(/finding by company name is not available yet/);
    const symbols = await instant(owner, { name: 'Ann <script>', domain: 'strict.test' });
    expect(symbols.status).toBe(400);
  });

  it('answers a qid when the search outlives its timeout, and the durable job gives the result later', async () => {
    const res = await instant(owner, { name: 'Dave Slow', domain: 'tarpit.test', timeout: 1_000 });
    expect(res.status).toBe(200);
    const d = ZInstantFindResponse.parse(res.body).data;
    if (!d.queued) throw new Error('expected a qid');
    const other = await t.call({ method: 'GET', url: `/api/v1/email_finder/instant/queue_status?qid=${d.qid}`, token: stranger.token });
    expect(other.status).toBe(404);
    await jobs.runUntilIdle({ includeDelayed: true });
    // The durable job may still be finishing on the worker: wait until the status says so.
    const status = await vi.waitFor(
      async () => {
        const now = ZQueueStatusResponse.parse((await t.call({ method: 'GET', url: `/api/v1/email_finder/instant/queue_status?qid=${d.qid}`, token: owner.token })).body).data;
        expect(now.state).toBe('completed');
        return now;
      },
      { timeout: 10_000, interval: 200 },
    );
    expect(status.result).toMatchObject({ status: 'not_found', reason: { code: 'server_inconclusive' }, credits_charged: 0 });
  }, 30_000);

  it('pages and filters the history and downloads it through an expiring public link', async () => {
    const found = await t.call({ method: 'GET', url: '/api/v1/email_finder/history?status=found&limit=25', token: owner.token });
    expect(found.status).toBe(200);
    expect(found.body.data.total).toBe(2);
    expect(found.body.data.items.every((i: { status: string }) => i.status === 'found')).toBe(true);
    const all = await t.call({ method: 'GET', url: '/api/v1/email_finder/history?limit=25', token: owner.token });
    expect(all.body.data.total).toBe(4);
    const none = await t.call({ method: 'GET', url: '/api/v1/email_finder/history', token: stranger.token });
    expect(none.body.data.total).toBe(0);
    const dl = await prepared(await t.call({ method: 'POST', url: '/api/v1/email_finder/history/download', token: owner.token, payload: { status: 'found' } }));
    expect(dl.status).toBe(200);
    expect(dl.body.data).toMatchObject({ state: 'success', rows: 2 });
    const file = await t.app.inject({ method: 'GET', url: `/api/v1/public/download_email_finder_history?download_token=${encodeURIComponent(dl.body.data.download_token)}` });
    expect(file.statusCode).toBe(200);
    expect(file.body).toContain(strictPeople()[0]!.email);
    const forged = await t.app.inject({ method: 'GET', url: `/api/v1/public/download_email_finder_history?download_token=${dl.body.data.download_token}x` });
    expect(forged.statusCode).toBe(400);
  });

  it('documents every email finder call of the spec in OpenAPI (spec-coverage reports nothing missing)', async () => {
    const doc = await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
    const documented = JSON.parse(doc.body).paths as Record<string, Record<string, unknown>>;
    // The email finder calls of the product spec (its calls table, area email_finder: test/spec-calls.tsv).
    expect(readSpecCalls(['email_finder'])).toHaveLength(12);
    const missing = findMissingSpecCalls(documented, ['email_finder']);
    expect(missing).toEqual([]);
    const paths = Object.keys(documented);
    expect(paths).toContain('/api/v1/public/download_email_finder_history');
  });

  it('respects include_role_email and strict_domain_check from the ef settings', async () => {
    const role = await instant(owner, { first_name: 'Sales', last_name: 'Qzx', domain: 'strict.test' });
    expect(role.body.data).toMatchObject({ status: 'found', email: 'sales@strict.test', role: true, pattern: 'first' });
    const put = await t.call({ method: 'PUT', url: '/api/v1/user_preferences/email_finder_settings', token: owner.token, payload: { include_role_email: false, strict_domain_check: true } });
    expect(put.status).toBe(200);
    const noRole = await instant(owner, { first_name: 'Sales', last_name: 'Qzx', domain: 'strict.test' });
    expect(noRole.body.data).toMatchObject({ status: 'not_found', reason: { code: 'role_excluded' }, credits_charged: 0 });
    const strict = await instant(owner, { first_name: 'Ann', last_name: 'Lee', domain: 'umbrella.test' });
    expect(strict.body.data).toMatchObject({ status: 'not_found', catch_all: true, reason: { code: 'strict_domain_rejected' }, credits_charged: 0 });
    await t.call({ method: 'PUT', url: '/api/v1/user_preferences/email_finder_settings', token: owner.token, payload: { include_role_email: true, strict_domain_check: false } });
  });
});
