import { createOutboundClient } from '../../../platform/outbound-http/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLEVERTAP_FAKE_ACCOUNT_ID, GHL_FAKE_LOCATION_ID, startApolloFake, startClevertapFake, startGoHighLevelFake, startKitFake, startLemlistFake, type TFakePlatform } from '@verilead/test-doubles/platforms';
import { makeWorldMembers } from '../test-support';
import { createApolloAdapter, apolloThrottle } from './apollo';
import { createClevertapAdapter } from './clevertap';
import { ghlThrottle } from './go-high-level';
import { RateLimitedError, RemoteAuthError, type TRemoteResponse } from './http';
import { hubspotThrottle } from './hubspot';
import { createKitAdapter } from './kit';
import { lemlistThrottle } from './lemlist';
import { moosendThrottle } from './moosend';
import { sendgridThrottle } from './sendgrid';

const res = (status: number, headers: Record<string, string>): TRemoteResponse => ({ status, headers: new Headers(headers), body: null });

describe('throttling signals of CleverTap, lemlist, GoHighLevel and Apollo', () => {
  it("GoHighLevel: Retry-After, else the burst window, else an hour when the day's allowance is spent", () => {
    expect(ghlThrottle(res(200, {}))).toBeNull();
    expect(ghlThrottle(res(429, { 'x-ratelimit-interval-milliseconds': '10000', 'x-ratelimit-daily-remaining': '5' }))).toBe(10_000);
    expect(ghlThrottle(res(429, { 'x-ratelimit-interval-milliseconds': '10000', 'x-ratelimit-daily-remaining': '0' }))).toBe(3_600_000);
    expect(ghlThrottle(res(429, { 'retry-after': '3' }))).toBe(3_000);
  });

  it('lemlist: Retry-After in seconds, else X-RateLimit-Reset as a date string', () => {
    expect(lemlistThrottle(res(429, { 'retry-after': '2' }))).toBe(2_000);
    const wait = lemlistThrottle(res(429, { 'x-ratelimit-reset': new Date(Date.now() + 60_000).toString() }))!;
    expect(wait).toBeGreaterThan(50_000);
    expect(wait).toBeLessThanOrEqual(60_000);
  });

  it('Apollo: retry-after, else a spent hourly window waits an hour and a minute window a minute', () => {
    expect(apolloThrottle(res(429, { 'retry-after': '5' }))).toBe(5_000);
    expect(apolloThrottle(res(429, { 'x-hourly-requests-left': '0' }))).toBe(3_600_000);
    expect(apolloThrottle(res(429, { 'x-minute-requests-left': '0', 'x-hourly-requests-left': '10' }))).toBe(60_000);
  });
});

describe('throttling signals of HubSpot, SendGrid and Moosend', () => {
  const body = (status: number, b: unknown): TRemoteResponse => ({ status, headers: new Headers(), body: b });

  it('HubSpot: Retry-After, else the rolling window of X-HubSpot-RateLimit-Interval-Milliseconds, else ten seconds', () => {
    expect(hubspotThrottle(res(200, { 'x-hubspot-ratelimit-remaining': '0' }))).toBeNull();
    expect(hubspotThrottle(res(429, { 'retry-after': '4' }))).toBe(4_000);
    expect(hubspotThrottle(res(429, { 'x-hubspot-ratelimit-max': '190', 'x-hubspot-ratelimit-remaining': '0', 'x-hubspot-ratelimit-interval-milliseconds': '10000' }))).toBe(10_000);
    expect(hubspotThrottle(res(429, { 'x-hubspot-ratelimit-interval-milliseconds': '2500' }))).toBe(2_500);
    expect(hubspotThrottle(res(429, {}))).toBe(10_000);
  });

  it('SendGrid: X-RateLimit-Reset is an epoch in seconds (wait until then); without it a second', () => {
    expect(sendgridThrottle(res(200, { 'x-ratelimit-remaining': '0' }))).toBeNull();
    const wait = sendgridThrottle(res(429, { 'x-ratelimit-limit': '600', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + 30) }))!;
    expect(wait).toBeGreaterThan(28_000);
    expect(wait).toBeLessThanOrEqual(30_000);
    // A reset already past: go again at once.
    expect(sendgridThrottle(res(429, { 'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) - 5) }))).toBe(0);
    expect(sendgridThrottle(res(429, {}))).toBe(1_000);
  });

  it('Moosend: HTTP 200 with {Code: 429} (or a real 429) waits out its 10-second window; other envelopes are no throttle', () => {
    expect(moosendThrottle(body(200, { Code: 429, Error: 'Too many requests', Context: null }))).toBe(10_000);
    expect(moosendThrottle(body(429, null))).toBe(10_000);
    expect(moosendThrottle(body(200, { Code: 0, Error: null, Context: [] }))).toBeNull();
    expect(moosendThrottle(body(200, { Code: 102, Error: 'API KEY is invalid', Context: null }))).toBeNull();
  });
});

describe('platform specifics against the fakes', () => {
  const fakes: TFakePlatform[] = [];
  let apollo: TFakePlatform;
  let clevertap: TFakePlatform;
  let ghl: TFakePlatform;
  let lemlist: TFakePlatform;
  beforeAll(async () => {
    apollo = await startApolloFake({ apiKey: 'master', lists: [{ id: 'lbl-a', name: 'Leads', members: makeWorldMembers(3) }] }, { nonMasterKey: 'plain' });
    clevertap = await startClevertapFake({ apiKey: 'pass', lists: [{ id: 'Charged', name: 'Charged', members: makeWorldMembers(12) }] });
    ghl = await startGoHighLevelFake({ apiKey: 'pit', lists: [{ id: 't', name: 'vip', members: makeWorldMembers(3) }] });
    lemlist = await startLemlistFake({ apiKey: 'key', lists: [{ id: 'cam_1', name: 'Outreach', members: makeWorldMembers(3) }] });
    fakes.push(apollo, clevertap, ghl, lemlist);
  });
  afterAll(async () => {
    for (const f of fakes) await f.close();
  });

  it("Apollo: a key that is not a master key is refused with Apollo's reason", async () => {
    const adapter = createApolloAdapter({ credentials: { apiKey: 'plain' }, baseUrls: { apollo: apollo.baseUrl }, outbound: createOutboundClient({ allowPrivate: true }) });
    const err = await adapter.verifyCredentials().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RemoteAuthError);
    expect((err as Error).message).toMatch(/not accessible with this api_key: please use a master API key/);
  });

  it('Apollo: undeliverable contacts keep their labels and gain "Verilead Undeliverable" once', async () => {
    const adapter = createApolloAdapter({ credentials: { apiKey: 'master' }, baseUrls: { apollo: apollo.baseUrl }, outbound: createOutboundClient({ allowPrivate: true }) });
    const item = { member: { id: 'c1', email: 'missing0@strict.test' }, status: 'invalid', safeToSend: false, reason: 'rejected_email', undeliverable: true };
    await adapter.writeBack('lbl-a', [item], { unsubscribe: true, append: false });
    await adapter.writeBack('lbl-a', [item], { unsubscribe: true, append: false });
    const labelled = apollo.writes.filter((w) => w.kind === 'unsubscribe');
    expect(labelled).toHaveLength(1);
    expect(labelled[0]!.data).toEqual(['Leads', 'Verilead Undeliverable']);
  });

  it('CleverTap: the download is cursor-based (a cursor first, then batches until no next_cursor); unsubscribe-only uploads MSG-email alone', async () => {
    const adapter = createClevertapAdapter({ credentials: { apiKey: 'pass', accountId: CLEVERTAP_FAKE_ACCOUNT_ID, region: 'in1' }, baseUrls: { clevertap: `${clevertap.baseUrl}/{region}/1` }, outbound: createOutboundClient({ allowPrivate: true }), pageSize: 5 });
    const first = await adapter.listMembers('Charged', null);
    expect(first.members).toHaveLength(0);
    const sizes: number[] = [];
    for (let cursor = first.nextCursor; cursor; ) {
      const page = await adapter.listMembers('Charged', cursor);
      sizes.push(page.members.length);
      cursor = page.nextCursor;
    }
    expect(sizes).toEqual([5, 5, 2]);
    await adapter.writeBack('Charged', [{ member: { id: 'c1', email: 'x@y.test' }, status: 'invalid', safeToSend: false, reason: 'r', undeliverable: true }], { unsubscribe: true, append: false });
    expect(clevertap.writes).toEqual([{ kind: 'unsubscribe', memberId: 'c1', email: 'missing0@strict.test' }]);
  });

  it('GoHighLevel refuses a call without the Version header; lemlist refuses Bearer and exports nothing without `state`', async () => {
    const noVersion = await fetch(`${ghl.baseUrl}/locations/${GHL_FAKE_LOCATION_ID}/tags`, { headers: { authorization: 'Bearer pit' } });
    expect(noVersion.status).toBe(400);
    const bearer = await fetch(`${lemlist.baseUrl}/team`, { headers: { authorization: 'Bearer key' } });
    expect(bearer.status).toBe(401);
    const basic = { authorization: `Basic ${Buffer.from(':key').toString('base64')}` };
    const noState = await fetch(`${lemlist.baseUrl}/campaigns/cam_1/export/leads?format=json`, { headers: basic });
    expect(await noState.json()).toEqual([]);
    const all = await fetch(`${lemlist.baseUrl}/campaigns/cam_1/export/leads?state=all&format=json`, { headers: basic });
    expect(await all.json()).toHaveLength(3);
  });
});

describe('a write-back chunk that meets a throttle part-way', () => {
  it('reports the members it finished before the 429, and the retry of the rest writes each member once', async () => {
    const members = makeWorldMembers(6, 2, true);
    const kit = await startKitFake({ apiKey: 'key', lists: [{ id: '9', name: 'Tag', members }] });
    try {
      const adapter = createKitAdapter({ credentials: { apiKey: 'key' }, baseUrls: { kit: kit.baseUrl }, outbound: createOutboundClient({ allowPrivate: true }), maxInlineWaitMs: 0 });
      const mode = { unsubscribe: true, append: true };
      await adapter.prepareWriteBack('9', mode);
      const items = members.map((m) => ({ member: { id: m.id, email: m.email }, status: m.email.startsWith('missing') ? 'invalid' : 'catch_all', safeToSend: false, reason: 'r', undeliverable: m.email.startsWith('missing') }));
      // The fourth member's field update meets Kit's bare 429.
      kit.throttleNext(1, (r) => r.method === 'PUT' && r.path === `/subscribers/${members[3]!.id}`);
      const done: string[] = [];
      const err = await adapter.writeBack('9', items, mode, (ids) => done.push(...ids)).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(RateLimitedError);
      expect((err as RateLimitedError).retryAfterMs).toBe(1_000);
      expect(done).toEqual(members.slice(0, 3).map((m) => m.id));
      await adapter.writeBack('9', items.filter((i) => !done.includes(i.member.id)), mode, (ids) => done.push(...ids));
      expect(done).toEqual(members.map((m) => m.id));
      const fields = kit.writes.filter((w) => w.kind === 'fields').map((w) => w.memberId);
      expect(fields).toEqual(members.map((m) => m.id));
      expect(kit.writes.filter((w) => w.kind === 'unsubscribe').map((w) => w.memberId)).toEqual(members.filter((m) => m.email.startsWith('missing')).map((m) => m.id));
    } finally {
      await kit.close();
    }
  });
});
