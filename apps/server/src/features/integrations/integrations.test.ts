import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { count, countDistinct, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TIntegration } from '@verilead/contracts';
import { verifyLists } from '../email-verifier/tables';
import { createSourcedList } from '../email-verifier/upload-list';
import { importRuns } from './queries';
import { IMPORT_PAGE_JOB, WRITE_BACK_JOB } from './service';
import { integrationAccounts, integrationImportMembers } from './tables';
import { BAD_KEYS, connectBody, createIntegrationWorld, makeWorldMembers, runImport, startDelayOf, throttleWhenQueued, topUp, type TIntegrationWorld } from './test-support';

const PLATFORMS = ['mailchimp', 'hubspot', 'active_campaign', 'mailerlite', 'moosend', 'kit', 'sendgrid'] as const satisfies TIntegration[];
const MEMBERS = 23; // pages of 7: four pages (the last short)

/**
 * The wait (ms, exclusive minimum and maximum) each fake's throttling signal asks for: Mailchimp's and Kit's bare 429
 * (1 s by default), HubSpot's rate-limit window (1,000 ms), Retry-After: 1 (ActiveCampaign, MailerLite), SendGrid's
 * X-RateLimit-Reset (the next second but one, in epoch seconds), Moosend's HTTP 200 {Code: 429} (10 s).
 */
const THROTTLE_WAIT_MS: Record<(typeof PLATFORMS)[number], [number, number]> = {
  mailchimp: [999, 1_000],
  hubspot: [999, 1_000],
  active_campaign: [999, 1_000],
  mailerlite: [999, 1_000],
  moosend: [9_999, 10_000],
  kit: [999, 1_000],
  sendgrid: [0, 2_000],
};

describe('integrations against local fakes of each platform', () => {
  let world: TIntegrationWorld;
  let owner: { token: string; orgId: string };
  let other: { token: string; orgId: string };
  beforeAll(async () => {
    world = await createIntegrationWorld(MEMBERS);
    owner = await world.w.t.createOwner('owner@integrations.test');
    other = await world.w.t.createOwner('other@integrations.test');
    await topUp(world.w, owner.orgId);
  });
  afterAll(async () => {
    await world?.close();
  });
  const call = (method: 'GET' | 'POST' | 'DELETE', url: string, token: string, payload?: unknown) =>
    world.w.t.call({ method, url: `/api/v1${url}`, token, ...(payload ? { payload: payload as Record<string, unknown> } : {}) });

  it('refuses Automizy (defunct) and Skylead (no public API) with a clear message', async () => {
    const a = await call('POST', '/integration/account/automizy', owner.token, { name: 'Old', api_key: 'x' });
    expect(a.status).toBe(400);
    expect(a.body.error.message).toMatch(/Automizy has shut down/);
    const s = await call('POST', '/integration/account/skylead', owner.token, { name: 'S', api_key: 'x' });
    expect(s.body.error.message).toMatch(/no API reference/);
  });

  it('keeps lists imported earlier from Automizy, with `automizy` as their source, while connecting Automizy is refused', async () => {
    const { t } = world.w;
    const owner2 = await t.createOwner('automizy@integrations.test');
    // An import from the days Automizy still ran: its account is gone, its verifier list (source automizy) stays.
    const verifyListId = randomUUID();
    const storageKey = `uploads/${owner2.orgId}/${verifyListId}`;
    const { size } = await t.deps.storage.write(storageKey, Readable.from(['email,first_name,last_name\n', 'ann@acceptall.test,Ann,Old\n', 'bob@acceptall.test,Bob,Old\n']));
    await createSourcedList(t.deps, { orgId: owner2.orgId, userId: owner2.userId }, { listId: verifyListId, name: 'Spring newsletter (Automizy)', fileName: 'Spring newsletter (Automizy).csv', source: 'automizy', storageKey, sizeBytes: size });
    await t.db.transaction((tx) =>
      importRuns.insert(tx, { orgId: owner2.orgId, userId: owner2.userId, accountId: null, accountName: 'Old Automizy', platform: 'automizy', remoteListId: '42', remoteListName: 'Spring newsletter', remoteTotal: 2, state: 'completed', imported: 2, verifyListId, verifyListCreated: 1, writeBack: { unsubscribe: false, append: false } }),
    );
    await t.deps.queue.runUntilIdle();

    const refused = await call('POST', '/integration/account/automizy', owner2.token, { name: 'Again', api_key: 'old-key' });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toMatch(/Automizy has shut down/);
    expect(await t.db.db.select().from(integrationAccounts).where(eq(integrationAccounts.orgId, owner2.orgId))).toHaveLength(0);

    // The list is still shown, with its source and its contacts; so is the import on the integrations screen.
    const lists = await call('POST', '/email_verify/list', owner2.token, {});
    expect(lists.status, JSON.stringify(lists.body)).toBe(200);
    const shown = (lists.body.data.items as { id: string; source: string; name: string; analysis: { state: string }; counts: { unique: number } }[]).find((l) => l.id === verifyListId);
    expect(shown).toMatchObject({ source: 'automizy', name: 'Spring newsletter (Automizy)', analysis: { state: 'ready' }, counts: { unique: 2 } });
    const imports = await call('GET', '/integration/imports', owner2.token);
    expect(imports.status, JSON.stringify(imports.body)).toBe(200);
    expect(imports.body.data.items).toEqual([expect.objectContaining({ integration: 'automizy', remote_list_name: 'Spring newsletter', state: 'completed', verify_list_id: verifyListId, account_id: null })]);
  });

  it('asks Kit users to confirm a paid plan before connecting', async () => {
    const fake = world.fakes.kit!;
    const res = await call('POST', '/integration/account/kit', owner.token, { ...connectBody('kit', fake, 'Kit unconfirmed'), paid_plan_confirmed: false });
    expect(res.status).toBe(400);
    expect(res.body.error.reasons[0].field).toBe('paid_plan_confirmed');
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

    it('connects with good credentials (encrypted at rest), names unique per platform', async () => {
      const fake = world.fakes[platform]!;
      const res = await call('POST', `/integration/account/${platform}`, owner.token, connectBody(platform, fake, 'Main'));
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      accountId = res.body.data.id;
      const second = await call('POST', `/integration/account/${platform}`, owner.token, connectBody(platform, fake, 'Second'));
      expect(second.status).toBe(200);
      const dup = await call('POST', `/integration/account/${platform}`, owner.token, connectBody(platform, fake, 'main'));
      expect(dup.status).toBe(400);
      expect(dup.body.error.reasons[0].field).toBe('name');
      const stored = (await world.w.t.db.db.select().from(integrationAccounts).where(eq(integrationAccounts.id, accountId)))[0]!;
      expect(stored.credentials).toMatch(/^v1\./);
      expect(stored.credentials).not.toContain(connectBody(platform, fake, 'x').api_key);
      const linked = await call('GET', '/integration/linked_accounts', owner.token);
      expect(linked.body.data.items.filter((a: { integration: string }) => a.integration === platform)).toHaveLength(2);
    });

    it("lists the account's lists; another organisation gets 404", async () => {
      const res = await call('GET', `/integration/account/${platform}/${accountId}`, owner.token);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.data.lists.map((l: { name: string }) => l.name)).toEqual(['Newsletter', 'Empty list']);
      expect((await call('GET', `/integration/account/${platform}/${accountId}`, other.token)).status).toBe(404);
      const list = res.body.data.lists[0].id;
      expect((await call('POST', `/integration/account/${platform}/verify_list`, other.token, { account_id: accountId, list_id: list })).status).toBe(404);
      expect((await call('DELETE', `/integration/account/${platform}?account_id=${accountId}`, other.token)).status).toBe(404);
    });

    it("imports page by page, verifies and writes back; a 429 on a members page and on a write-back puts the job back on the queue with the platform's delay", async () => {
      const fake = world.fakes[platform]!;
      const queue = world.w.t.deps.queue;
      const lists = await call('GET', `/integration/account/${platform}/${accountId}`, owner.token);
      const listId = lists.body.data.lists[0].id as string;
      const before = fake.throttled;
      const start = await call('POST', `/integration/account/${platform}/verify_list`, owner.token, { account_id: accountId, list_id: listId, write_back: { unsubscribe: true, append: true } });
      expect(start.status, JSON.stringify(start.body)).toBe(200);
      // The job of the second page and the first write-back chunk each meet the platform's throttling signal on their first call.
      const throttle = throttleWhenQueued(queue, fake, [
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
      expect(fake.throttled).toBe(before + 2);
      // Each throttled job was queued again, as itself, with the wait the platform's signal asked for; pg-boss holds it that long.
      expect(throttle.requeues.map((r) => r.name)).toEqual([IMPORT_PAGE_JOB, WRITE_BACK_JOB]);
      expect(throttle.requeues[0]!.payload).toEqual({ importId: row.id, page: 1 });
      // The write-back chunk resumes after the members already written: Mailchimp writes four at a time, and the
      // three beside the throttled one went through; the other platforms' first call of the chunk was the throttled one.
      const resumeAfter = (throttle.requeues[1]!.payload.written as string[] | undefined) ?? [];
      expect(throttle.requeues[1]!.payload).toMatchObject({ importId: row.id, afterSeq: 0 });
      expect(resumeAfter).toHaveLength(platform === 'mailchimp' ? 3 : 0);
      for (const r of throttle.requeues) {
        const [min, max] = THROTTLE_WAIT_MS[platform];
        expect(r.delayMs).toBeGreaterThan(min);
        expect(r.delayMs).toBeLessThanOrEqual(max);
        expect(await startDelayOf(queue, r.jobId)).toBe(Math.ceil(r.delayMs / 1000) * 1000);
      }

      expect(row.imported).toBe(MEMBERS);
      // SendGrid reads an asynchronous export: one page asks for it, one waits for it to be ready, then the file's pages.
      expect(row.pagesDone).toBe(Math.ceil(MEMBERS / 7) + (platform === 'sendgrid' ? 2 : 0));
      const [stored] = await world.w.t.db.db.select({ rows: count(), remote: countDistinct(integrationImportMembers.remoteId) }).from(integrationImportMembers).where(eq(integrationImportMembers.importId, row.id));
      expect(stored).toEqual({ rows: MEMBERS, remote: MEMBERS });

      const list = (await world.w.t.db.db.select().from(verifyLists).where(eq(verifyLists.id, row.verifyListId)))[0]!;
      expect(list.source).toBe(platform);
      expect(list.state).toBe('verified');
      expect(list.uniqueCount).toBe(MEMBERS);

      // After the retry every contact was written back once: undeliverable ones unsubscribed, everyone's result fields.
      const invalid = fake.seed.lists[0]!.members.filter((m) => m.email.startsWith('missing'));
      const unsubscribed = fake.writes.filter((w) => w.kind === 'unsubscribe');
      expect(unsubscribed).toHaveLength(invalid.length);
      expect(new Set(unsubscribed.map((w) => w.memberId ?? w.email)).size).toBe(invalid.length);
      const fieldWrites = fake.writes.filter((w) => w.kind === 'fields');
      // One write per member (ActiveCampaign writes each field value separately).
      expect(fieldWrites.length).toBe(platform === 'active_campaign' ? MEMBERS * 3 : MEMBERS);
      expect(new Set(fieldWrites.map((w) => `${w.memberId ?? w.email}:${Object.keys(w.data as object).join()}`)).size).toBe(fieldWrites.length);
      expect(new Set(fieldWrites.map((w) => w.memberId ?? w.email)).size).toBe(MEMBERS);
      expect(fake.writes.filter((w) => w.kind === 'field_created').length).toBeGreaterThanOrEqual(3);
      expect(JSON.stringify(fieldWrites)).toContain('invalid');
      expect(row.writtenBack).toBe(MEMBERS);
    });

    if (platform === 'hubspot') {
      it('fails the write-back with HubSpot\'s reason when the list is DYNAMIC (its members cannot be removed)', async () => {
        const fake = world.fakes.hubspot!;
        fake.seed.lists.push({ id: '103', name: 'Active list', members: makeWorldMembers(6, 2, true), dynamic: true });
        const start = await call('POST', '/integration/account/hubspot/verify_list', owner.token, { account_id: accountId, list_id: '103', write_back: { unsubscribe: true, append: false } });
        expect(start.status, JSON.stringify(start.body)).toBe(200);
        const row = await runImport(world, start.body.data.id);
        expect(row.state).toBe('failed');
        expect(row.error).toMatch(/DYNAMIC lists cannot be edited/);
        fake.seed.lists.pop();
      });
    }

    it('disconnects an account', async () => {
      const res = await call('DELETE', `/integration/account/${platform}?account_id=${accountId}`, owner.token);
      expect(res.status).toBe(200);
      expect((await call('GET', `/integration/account/${platform}/${accountId}`, owner.token)).status).toBe(404);
    });
  });
});
