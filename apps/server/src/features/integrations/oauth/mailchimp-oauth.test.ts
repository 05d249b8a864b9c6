import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMPORT_PAGE_JOB } from '../service';
import { integrationAccounts, integrationOauthStates } from '../tables';
import { completeConsent, createIntegrationWorld, runImport, throttleWhenQueued, topUp, type TIntegrationWorld } from '../test-support';

describe('Mailchimp OAuth: GET /oauth/mailchimp against the local Mailchimp (consent page, /oauth2/token, /oauth2/metadata)', () => {
  let world: TIntegrationWorld;
  let owner: { token: string; orgId: string; userId: string };
  let other: { token: string; orgId: string };
  beforeAll(async () => {
    world = await createIntegrationWorld(23);
    owner = await world.w.t.createOwner('oauth@integrations.test');
    other = await world.w.t.createOwner('oauth-other@integrations.test');
    await topUp(world.w, owner.orgId);
  });
  afterAll(async () => {
    await world?.close();
  });
  const get = (query: Record<string, string>, token = owner.token) => world.w.t.call({ method: 'GET', url: `/api/v1/oauth/mailchimp?${new URLSearchParams(query)}`, token });
  const origin = () => new URL(world.fakes.mailchimp!.baseUrl).origin;

  it('answers the consent URL with client_id, redirect_uri and a signed state; needs a name', async () => {
    const noName = await get({});
    expect(noName.status).toBe(400);
    expect(noName.body.error.reasons[0].field).toBe('name');
    const res = await get({ name: 'Chimp OAuth' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const url = new URL(res.body.data.authorize_url);
    expect(`${url.origin}${url.pathname}`).toBe(`${origin()}/oauth2/authorize`);
    expect(url.searchParams.get('response_type')).toBe('code');
    expect(url.searchParams.get('client_id')).toBe('fake-mailchimp-client');
    expect(url.searchParams.get('redirect_uri')).toMatch(/\/integrations\/mailchimp\/connect$/);
    expect(url.searchParams.get('state')).toMatch(/^[0-9a-f-]{36}\.[\w-]+$/);
    expect((await world.w.t.call({ method: 'GET', url: '/api/v1/oauth/mailchimp?name=x' })).status).toBe(401);
  });

  it('Allow → code → token → metadata: the account is stored encrypted with the api_endpoint, and the adapter uses the Bearer token', async () => {
    const start = await get({ name: 'Chimp OAuth' });
    const back = await completeConsent(start.body.data.authorize_url);
    expect(back.code).toBeTruthy();
    const done = await get({ code: back.code!, state: back.state! });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    const account = done.body.data.account;
    expect(account).toMatchObject({ integration: 'mailchimp', name: 'Chimp OAuth', remote_account: 'Fake Chimp Co' });
    const stored = (await world.w.t.db.db.select().from(integrationAccounts).where(eq(integrationAccounts.id, account.id)))[0]!;
    expect(stored.credentials).toMatch(/^v1\./);
    expect(stored.credentials).not.toContain(origin());

    // The same redirect again (a replay) is refused: the state is single use.
    const replay = await get({ code: back.code!, state: back.state! });
    expect(replay.status).toBe(400);
    expect(replay.body.error.message).toMatch(/expired or was already used/);

    // Lists and an import through the OAuth token (Bearer against the metadata's api_endpoint).
    const lists = await world.w.t.call({ method: 'GET', url: `/api/v1/integration/account/mailchimp/${account.id}`, token: owner.token });
    expect(lists.status, JSON.stringify(lists.body)).toBe(200);
    expect(lists.body.data.lists.map((l: { name: string }) => l.name)).toEqual(['Newsletter', 'Empty list']);
    const imp = await world.w.t.call({
      method: 'POST',
      url: '/api/v1/integration/account/mailchimp/verify_list',
      token: owner.token,
      payload: { account_id: account.id, list_id: 'list-a', write_back: { unsubscribe: true, append: false } },
    });
    expect(imp.status, JSON.stringify(imp.body)).toBe(200);
    // The third page meets Mailchimp's bare 429: the job goes back on the queue for the default second and carries on.
    const fake = world.fakes.mailchimp!;
    const throttledBefore = fake.throttled;
    const throttle = throttleWhenQueued(world.w.t.deps.queue, fake, [{ name: IMPORT_PAGE_JOB, when: (p) => p.page === 2 }]);
    let row;
    try {
      row = await runImport(world, imp.body.data.id);
    } finally {
      throttle.restore();
    }
    expect(row.state).toBe('completed');
    expect(fake.throttled).toBe(throttledBefore + 1);
    expect(throttle.requeues.map((r) => [r.name, r.payload, r.delayMs])).toEqual([[IMPORT_PAGE_JOB, { importId: row.id, page: 2 }, 1_000]]);
    // Pages of 7 through the OAuth token: four pages, every contact once.
    expect(row.pagesDone).toBe(4);
    expect(fake.requests.filter((r) => r.method === 'GET' && r.path === '/lists/list-a/members')).toHaveLength(5);
    expect(row.imported).toBe(23);
    expect(world.fakes.mailchimp!.writes.filter((w) => w.kind === 'unsubscribe')).toHaveLength(5);
  });

  it('refuses a state of another organisation, an expired state, a bad code and a denied consent; nothing is stored', async () => {
    const before = (await world.w.t.db.db.select().from(integrationAccounts)).length;
    // Another organisation's state: its signature does not match the caller.
    const mine = await get({ name: 'Stolen' });
    const back = await completeConsent(mine.body.data.authorize_url);
    const stolen = await get({ code: back.code!, state: back.state! }, other.token);
    expect(stolen.status).toBe(400);
    expect(stolen.body.error.reasons[0].field).toBe('state');
    // Expired.
    const late = await get({ name: 'Late' });
    const lateBack = await completeConsent(late.body.data.authorize_url);
    await world.w.t.db.db.update(integrationOauthStates).set({ expiresAt: new Date(Date.now() - 1_000) }).where(eq(integrationOauthStates.id, lateBack.state!.split('.')[0]!));
    expect((await get({ code: lateBack.code!, state: lateBack.state! })).status).toBe(400);
    // A code Mailchimp never issued.
    const fresh = await get({ name: 'Bad code' });
    const badCode = await get({ code: 'not-a-code', state: new URL(fresh.body.data.authorize_url).searchParams.get('state')! });
    expect(badCode.status).toBe(400);
    expect(badCode.body.error.message).toMatch(/Mailchimp/);
    // The user pressed Deny.
    const deny = await get({ name: 'Denied' });
    const denied = await completeConsent(deny.body.data.authorize_url, 'deny');
    expect(denied.error).toBe('access_denied');
    const refused = await get({ error: denied.error!, state: denied.state! });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toMatch(/not connected/);
    expect((await world.w.t.db.db.select().from(integrationAccounts)).length).toBe(before);
  });

  it('keeps friendly names unique: a taken name is refused before the consent page', async () => {
    const dup = await get({ name: 'chimp oauth' });
    expect(dup.status).toBe(400);
    expect(dup.body.error.reasons[0].field).toBe('name');
  });
});
