import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TIntegration } from '@verilead/contracts';
import { verifyLists } from '../email-verifier/tables';
import { integrationAccounts, integrationImports } from './tables';
import { BAD_KEYS, connectBody, createIntegrationWorld, topUp, type TIntegrationWorld } from './test-support';

/** CleverTap (regions, cursor download), lemlist (campaign export), GoHighLevel (tags as lists) and Apollo (labels). */
const PLATFORMS = ['clevertap', 'lemlist', 'go_high_level', 'apollo'] as const satisfies TIntegration[];
const MEMBERS = 23; // pages of 7: four pages (the last short)

/** What each platform's write-back leaves on its fake. */
const EXPECT: Record<(typeof PLATFORMS)[number], { listName: string; extraPages: number; fieldsCreated: number; extraWrites?: string }> = {
  // CleverTap's first page asks for the download cursor; its properties need no creation.
  clevertap: { listName: 'App Launched (last 30 days)', extraPages: 1, fieldsCreated: 0 },
  // lemlist variables are added with the first write.
  lemlist: { listName: 'Newsletter', extraPages: 0, fieldsCreated: 0 },
  go_high_level: { listName: 'Newsletter', extraPages: 0, fieldsCreated: 3, extraWrites: 'tag_added' },
  apollo: { listName: 'Newsletter', extraPages: 0, fieldsCreated: 3 },
};

async function runImport(world: TIntegrationWorld, importId: string, rounds = 80) {
  for (let i = 0; i < rounds; i += 1) {
    await world.w.t.deps.queue.runUntilIdle({ includeDelayed: true, maxJobs: 200 });
    const row = (await world.w.t.db.db.select().from(integrationImports).where(eq(integrationImports.id, importId)))[0]!;
    if (['completed', 'failed', 'cancelled'].includes(row.state)) return row;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the import did not finish');
}

describe('CleverTap, lemlist, GoHighLevel and Apollo against their local fakes', () => {
  let world: TIntegrationWorld;
  let owner: { token: string; orgId: string };
  let other: { token: string; orgId: string };
  beforeAll(async () => {
    world = await createIntegrationWorld(MEMBERS);
    owner = await world.w.t.createOwner('owner@more-platforms.test');
    other = await world.w.t.createOwner('other@more-platforms.test');
    await topUp(world.w, owner.orgId);
  });
  afterAll(async () => {
    await world?.close();
  });
  const call = (method: 'GET' | 'POST' | 'DELETE', url: string, token: string, payload?: unknown) =>
    world.w.t.call({ method, url: `/api/v1${url}`, token, ...(payload ? { payload: payload as Record<string, unknown> } : {}) });

  it('CleverTap: the region is required and must be one of its regions; the right keys in another region are refused', async () => {
    const fake = world.fakes.clevertap!;
    const body = connectBody('clevertap', fake, 'Region check');
    const missing = await call('POST', '/integration/account/clevertap', owner.token, { ...body, region: undefined });
    expect(missing.status).toBe(400);
    expect(missing.body.error.reasons[0].field).toBe('region');
    const bogus = await call('POST', '/integration/account/clevertap', owner.token, { ...body, region: 'mars1' });
    expect(bogus.body.error.reasons[0].field).toBe('region');
    const noAccount = await call('POST', '/integration/account/clevertap', owner.token, { ...body, account_id: undefined });
    expect(noAccount.body.error.reasons[0].field).toBe('account_id');
    const elsewhere = await call('POST', '/integration/account/clevertap', owner.token, { ...body, region: 'us1' });
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body.error.message).toMatch(/CleverTap did not accept these credentials \(Account ID and\/or Passcode is incorrect\)/);
    expect(fake.requests.some((r) => r.path.startsWith('/us1/1/'))).toBe(true);
  });

  it('GoHighLevel: a location the token cannot reach is refused on save', async () => {
    const fake = world.fakes.go_high_level!;
    const res = await call('POST', '/integration/account/go_high_level', owner.token, { ...connectBody('go_high_level', fake, 'Other location'), account_id: 'someOtherLocation' });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/does not have access to this location/);
  });

  describe.each(PLATFORMS)('%s', (platform) => {
    let accountId: string;

    it('refuses bad credentials on save and stores nothing', async () => {
      const fake = world.fakes[platform]!;
      const res = await call('POST', `/integration/account/${platform}`, owner.token, connectBody(platform, fake, 'Bad', BAD_KEYS[platform]));
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.error.message).toMatch(/did not accept these credentials/);
      const rows = await world.w.t.db.db.select().from(integrationAccounts).where(eq(integrationAccounts.platform, platform));
      expect(rows).toHaveLength(0);
    });

    it('connects with good credentials, stored encrypted (key, account id and region alike)', async () => {
      const fake = world.fakes[platform]!;
      const body = connectBody(platform, fake, 'Main');
      const res = await call('POST', `/integration/account/${platform}`, owner.token, body);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      accountId = res.body.data.id;
      const stored = (await world.w.t.db.db.select().from(integrationAccounts).where(eq(integrationAccounts.id, accountId)))[0]!;
      expect(stored.credentials).toMatch(/^v1\./);
      expect(stored.credentials).not.toContain(body.api_key);
      if ('account_id' in body) expect(stored.credentials).not.toContain(body.account_id);
      const dup = await call('POST', `/integration/account/${platform}`, owner.token, connectBody(platform, fake, 'MAIN'));
      expect(dup.body.error.reasons[0].field).toBe('name');
    });

    it("lists the account's lists; another organisation gets 404", async () => {
      const res = await call('GET', `/integration/account/${platform}/${accountId}`, owner.token);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.data.lists.map((l: { name: string }) => l.name)).toContain(EXPECT[platform].listName);
      expect((await call('GET', `/integration/account/${platform}/${accountId}`, other.token)).status).toBe(404);
    });

    it('imports page by page, waits out a 429 in the job, verifies, and writes back (unsubscribe + fields)', async () => {
      const fake = world.fakes[platform]!;
      const lists = await call('GET', `/integration/account/${platform}/${accountId}`, owner.token);
      const listId = (lists.body.data.lists as { id: string; name: string }[]).find((l) => l.name === EXPECT[platform].listName)!.id;
      const start = await call('POST', `/integration/account/${platform}/verify_list`, owner.token, { account_id: accountId, list_id: listId, write_back: { unsubscribe: true, append: true } });
      expect(start.status, JSON.stringify(start.body)).toBe(200);
      // The job's first call meets the platform's throttling signal: it goes back on the queue with the wait asked for.
      const before = fake.throttled;
      fake.throttleNext(1);
      const row = await runImport(world, start.body.data.id);
      expect(row.error).toBeNull();
      expect(row.state).toBe('completed');
      expect(fake.throttled).toBe(before + 1);
      expect(row.imported).toBe(MEMBERS);
      expect(row.pagesDone).toBe(Math.ceil(MEMBERS / 7) + EXPECT[platform].extraPages);

      const list = (await world.w.t.db.db.select().from(verifyLists).where(eq(verifyLists.id, row.verifyListId)))[0]!;
      expect(list.source).toBe(platform);
      expect(list.state).toBe('verified');
      expect(list.uniqueCount).toBe(MEMBERS);

      const seedMembers = fake.seed.lists.find((l) => l.members.length > 0)!.members;
      const invalid = seedMembers.filter((m) => m.email.startsWith('missing'));
      const unsubscribed = fake.writes.filter((w) => w.kind === 'unsubscribe');
      expect(unsubscribed.map((w) => w.memberId).sort()).toEqual(invalid.map((m) => m.id).sort());
      const fieldWrites = fake.writes.filter((w) => w.kind === 'fields');
      expect(fieldWrites).toHaveLength(MEMBERS);
      expect(JSON.stringify(fieldWrites)).toContain('invalid');
      expect(fake.writes.filter((w) => w.kind === 'field_created')).toHaveLength(EXPECT[platform].fieldsCreated);
      if (EXPECT[platform].extraWrites) expect(fake.writes.filter((w) => w.kind === EXPECT[platform].extraWrites)).toHaveLength(invalid.length);
      expect(row.writtenBack).toBe(MEMBERS);
    });

    it('disconnects the account', async () => {
      expect((await call('DELETE', `/integration/account/${platform}?account_id=${accountId}`, owner.token)).status).toBe(200);
      expect((await call('GET', `/integration/account/${platform}/${accountId}`, owner.token)).status).toBe(404);
    });
  });
});
