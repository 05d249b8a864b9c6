import { createOutboundClient } from '../../platform/outbound-http/client';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyLists } from '../email-verifier/tables';
import { createZohoAdapter, zohoThrottle } from './adapters/zoho';
import { makeMembers, startZohoFake, type TZohoFake, zohoModuleOf } from '@verilead/test-doubles/platforms';
import { FAKE_CLIENTS } from './oauth/providers';
import { IMPORT_PAGE_JOB, WRITE_BACK_JOB } from './service';
import { integrationAccounts } from './tables';
import { completeConsent, createIntegrationWorld, runImport, startDelayOf, throttleWhenQueued, topUp, type TIntegrationWorld } from './test-support';

const MEMBERS = 23;

describe('Zoho CRM against its local fake (multi-DC OAuth, campaigns, Contacts and Leads paged, write-back, 429)', () => {
  let world: TIntegrationWorld;
  let owner: { token: string; orgId: string };
  let other: { token: string; orgId: string };
  let accountId: string;
  const fake = () => world.fakes.zoho as TZohoFake;
  beforeAll(async () => {
    world = await createIntegrationWorld(MEMBERS);
    owner = await world.w.t.createOwner('zoho@integrations.test');
    other = await world.w.t.createOwner('zoho-other@integrations.test');
    await topUp(world.w, owner.orgId);
  });
  afterAll(async () => {
    await world?.close();
  });
  const call = (method: 'GET' | 'POST' | 'DELETE', url: string, token = owner.token, payload?: Record<string, unknown>) =>
    world.w.t.call({ method, url: `/api/v1${url}`, token, ...(payload ? { payload } : {}) });
  const oauth = (q: Record<string, string>, token = owner.token) => call('GET', `/oauth/zoho?${new URLSearchParams(q)}`, token);

  it('refuses an API key (Zoho connects through OAuth) and asks for the data centre', async () => {
    const key = await call('POST', '/integration/account/zoho', owner.token, { name: 'Z', api_key: 'x' });
    expect(key.status).toBe(400);
    expect(key.body.error.message).toMatch(/Connect with Zoho CRM/);
    const noRegion = await oauth({ name: 'Zoho EU' });
    expect(noRegion.status).toBe(400);
    expect(noRegion.body.error.reasons[0].field).toBe('region');
    expect((await oauth({ name: 'Zoho EU', region: 'mars' })).status).toBe(400);
  });

  it('bad credentials: a code Zoho never issued (its HTTP 200 {error}) and a foreign accounts-server are refused; nothing stored', async () => {
    const start = await oauth({ name: 'Bad', region: 'eu' });
    expect(start.status, JSON.stringify(start.body)).toBe(200);
    const state = new URL(start.body.data.authorize_url).searchParams.get('state')!;
    const bad = await oauth({ code: '1000.nope', state, location: 'eu', 'accounts-server': new URL(fake().baseUrl).origin });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/invalid_code/);
    const again = await oauth({ name: 'Bad2', region: 'eu' });
    const back = await completeConsent(again.body.data.authorize_url);
    const foreign = await oauth({ code: back.code!, state: back.state!, location: 'eu', 'accounts-server': 'https://accounts.evil.test' });
    expect(foreign.status).toBe(400);
    expect(foreign.body.error.reasons[0].field).toBe('accounts-server');
    expect(await world.w.t.db.db.select().from(integrationAccounts).where(eq(integrationAccounts.platform, 'zoho'))).toHaveLength(0);
  });

  it('connects: consent page → redirect with location and accounts-server → token with api_domain → current user', async () => {
    const start = await oauth({ name: 'Zoho EU', region: 'eu' });
    const url = new URL(start.body.data.authorize_url);
    expect(url.pathname).toBe('/oauth/v2/auth');
    expect(url.searchParams.get('access_type')).toBe('offline');
    expect(url.searchParams.get('scope')).toContain('ZohoCRM.modules.ALL');
    fake().setLocation('eu');
    const back = await completeConsent(url.toString());
    expect(back.location).toBe('eu');
    expect(back['accounts-server']).toBe(new URL(fake().baseUrl).origin);
    const done = await oauth(back);
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.data.account).toMatchObject({ integration: 'zoho', name: 'Zoho EU', remote_account: 'admin@zoho.test' });
    accountId = done.body.data.account.id;
  });

  it("lists the campaigns; another organisation gets 404; an expired access token is renewed with the refresh token", async () => {
    fake().expireAccessTokens();
    const res = await call('GET', `/integration/account/zoho/${accountId}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.lists.map((l: { name: string }) => l.name)).toEqual(['Newsletter', 'Empty list']);
    expect(fake().requests.some((r) => r.path === '/oauth/v2/token')).toBe(true);
    expect((await call('GET', `/integration/account/zoho/${accountId}`, other.token)).status).toBe(404);
    expect((await call('POST', '/integration/account/zoho/verify_list', other.token, { account_id: accountId, list_id: 'list-a' })).status).toBe(404);
  });

  it("imports Contacts then Leads page by page, verifies, and writes opt-out and fields back; a 429 on a members page and on a write-back re-queues the job with Zoho's wait", async () => {
    const f = fake();
    const queue = world.w.t.deps.queue;
    const before = f.throttled;
    const start = await call('POST', '/integration/account/zoho/verify_list', owner.token, { account_id: accountId, list_id: 'list-a', write_back: { unsubscribe: true, append: true } });
    expect(start.status, JSON.stringify(start.body)).toBe(200);
    const throttle = throttleWhenQueued(queue, f, [
      { name: IMPORT_PAGE_JOB, when: (p) => p.page === 1 },
      { name: WRITE_BACK_JOB, when: (p) => p.afterSeq === 0 },
    ]);
    let row;
    try {
      row = await runImport(world, start.body.data.id);
    } finally {
      throttle.restore();
    }
    expect(row.error).toBeNull();
    expect(row.state).toBe('completed');
    expect(throttle.unfired).toEqual([]);
    expect(f.throttled).toBe(before + 2);
    // Zoho's X-RATELIMIT-RESET is an epoch in ms one second ahead: the job goes back on the queue for (at most) that second.
    expect(throttle.requeues.map((r) => [r.name, r.payload])).toEqual([
      [IMPORT_PAGE_JOB, { importId: row.id, page: 1 }],
      // The first update of the chunk was the throttled one: nothing to skip on the retry.
      [WRITE_BACK_JOB, { importId: row.id, afterSeq: 0 }],
    ]);
    for (const r of throttle.requeues) {
      expect(r.delayMs).toBeGreaterThan(0);
      expect(r.delayMs).toBeLessThanOrEqual(1_000);
      expect(await startDelayOf(queue, r.jobId)).toBe(1_000);
    }
    expect(row.imported).toBe(MEMBERS);
    // Pages of 7: 18 Contacts (3 pages) then 5 Leads (1 page).
    expect(row.pagesDone).toBe(4);
    const list = (await world.w.t.db.db.select().from(verifyLists).where(eq(verifyLists.id, row.verifyListId)))[0]!;
    expect(list.source).toBe('zoho');
    expect(list.uniqueCount).toBe(MEMBERS);
    // After the retries every contact lands once.
    const invalid = f.seed.lists[0]!.members.filter((m) => m.email.startsWith('missing'));
    expect(f.writes.filter((w) => w.kind === 'unsubscribe').map((w) => w.email).sort()).toEqual(invalid.map((m) => m.email).sort());
    const fields = f.writes.filter((w) => w.kind === 'fields');
    expect(fields).toHaveLength(MEMBERS);
    expect(new Set(fields.map((w) => w.email)).size).toBe(MEMBERS);
    expect(f.writes.filter((w) => w.kind === 'field_created')).toHaveLength(6);
    expect(row.writtenBack).toBe(MEMBERS);
  });

  it('reads past 2,000 records with page_token (the fake refuses `page` there), 200 per page, each once', async () => {
    const big = await startZohoFake({ apiKey: 'unused', lists: [{ id: 'big', name: 'Big', members: makeMembers(2_500) }] });
    try {
      const tokens = await fetch(`${new URL(big.baseUrl).origin}/oauth/v2/auth`, { method: 'POST', body: new URLSearchParams({ decision: 'allow', client_id: FAKE_CLIENTS.zoho.clientId, redirect_uri: 'http://app.test/cb', state: 's' }), redirect: 'manual' });
      const code = new URL(tokens.headers.get('location')!).searchParams.get('code')!;
      const t = (await (
        await fetch(`${new URL(big.baseUrl).origin}/oauth/v2/token`, { method: 'POST', body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: 'http://app.test/cb', ...{ client_id: FAKE_CLIENTS.zoho.clientId, client_secret: FAKE_CLIENTS.zoho.clientSecret } }) })
      ).json()) as { access_token: string; api_domain: string };
      const adapter = createZohoAdapter({ credentials: { apiKey: '', oauth: { accessToken: t.access_token, apiEndpoint: t.api_domain } }, baseUrls: {}, outbound: createOutboundClient({ allowPrivate: true }), pageSize: 500 });
      const seen = new Set<string>();
      let cursor: string | null = null;
      let pages = 0;
      do {
        const page = await adapter.listMembers('big', cursor);
        for (const m of page.members) seen.add(m.id);
        cursor = page.nextCursor;
        pages += 1;
      } while (cursor);
      expect(seen.size).toBe(2_500);
      const contacts = makeMembers(2_500).filter((_, i) => zohoModuleOf(i) === 'Contacts').length;
      expect(pages).toBe(Math.ceil(contacts / 200) + Math.ceil((2_500 - contacts) / 200));
    } finally {
      await big.close();
    }
  });

  it("honours Zoho's rate-limit headers: Retry-After, else X-RATELIMIT-RESET (epoch ms)", () => {
    const res = (h: Record<string, string>) => ({ status: 429, headers: new Headers(h), body: null });
    expect(zohoThrottle(res({ 'retry-after': '3' }))).toBe(3_000);
    const wait = zohoThrottle(res({ 'x-ratelimit-reset': String(Date.now() + 5_000) }))!;
    expect(wait).toBeGreaterThan(3_000);
    expect(wait).toBeLessThanOrEqual(5_000);
    expect(zohoThrottle({ status: 200, headers: new Headers(), body: null })).toBeNull();
  });
});
