import { eq } from 'drizzle-orm';
import type { TIntegration } from '@verilead/contracts';
import type { TConfig } from '../../config';
import { grantCredits } from '../../platform/credits/ledger';
import { createWorldApp, type TWorldApp } from '../email-verifier/test-support';
import { CLEVERTAP_FAKE_ACCOUNT_ID, CLEVERTAP_FAKE_REGION, FAKES, GHL_FAKE_LOCATION_ID, type TFakeMember, type TFakePlatform, type TFakeSeed } from '@verilead/test-doubles/platforms';
import { createIntegrationJobs } from './jobs';
import { FAKE_CLIENTS } from './oauth/providers';
import { integrationImports } from './tables';
import type { TIntegrationRuntime } from './service';
import type { TJobQueue } from '../../platform/jobs/jobs';

/** Good keys in each platform's own format. */
export const GOOD_KEYS: Partial<Record<TIntegration, string>> = {
  mailchimp: '0123456789abcdef0123456789abcdef-us19',
  hubspot: 'pat-na1-11111111-2222-3333-4444-555555555555',
  active_campaign: 'ac0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef01',
  mailerlite: 'eyJ0eXAiOiJKV1QiLCJhbGciOiJSUzI1NiJ9.fake-mailerlite-token',
  moosend: '00000000-1111-2222-3333-444444444444',
  kit: 'kit_0123456789abcdef0123456789abcdef',
  sendgrid: 'SG.fake-key.0123456789abcdef0123456789abcdef',
  clevertap: 'ABC-DEF-GHIJ-fake-passcode',
  lemlist: '0123456789abcdef0123456789abcdef',
  go_high_level: 'pit-11111111-2222-3333-4444-555555555555',
  apollo: 'apollo-master-0123456789abcdef',
};
export const BAD_KEYS: Partial<Record<TIntegration, string>> = {
  mailchimp: 'ffffffffffffffffffffffffffffffff-us19',
  hubspot: 'pat-na1-wrong',
  active_campaign: 'wrong-token',
  mailerlite: 'wrong-token',
  moosend: '99999999-1111-2222-3333-444444444444',
  kit: 'kit_wrong',
  sendgrid: 'SG.wrong',
  clevertap: 'wrong-passcode',
  lemlist: 'ffffffffffffffffffffffffffffffff',
  go_high_level: 'pit-wrong',
  apollo: 'apollo-wrong',
};

/** Members on the mail world's domains: accept-all ones (catch_all) and unknown users of a strict domain (invalid). */
export function makeWorldMembers(count: number, invalidEvery = 5, numericIds = false): TFakeMember[] {
  return Array.from({ length: count }, (_, i) => ({
    id: numericIds ? String(1000 + i) : `c${i + 1}`,
    email: i % invalidEvery === 0 ? `missing${i}@strict.test` : `someone${i}@acceptall.test`,
    firstName: `First${i}`,
    lastName: `Last${i}`,
  }));
}

/** The seed of a fake: one list of `count` members plus an empty one (Kit tags and Moosend lists use their own id styles). */
export function makeSeed(platform: TIntegration, count: number): TFakeSeed {
  const numeric = platform === 'kit' || platform === 'hubspot' || platform === 'active_campaign';
  // CleverTap's lists are events: the list id is the event name.
  if (platform === 'clevertap') {
    return {
      apiKey: GOOD_KEYS[platform]!,
      lists: [
        { id: 'App Launched', name: 'App Launched', members: makeWorldMembers(count, 5) },
        { id: 'Charged', name: 'Charged', members: [] },
      ],
    };
  }
  return {
    apiKey: GOOD_KEYS[platform]!,
    lists: [
      { id: numeric ? '101' : 'list-a', name: 'Newsletter', members: makeWorldMembers(count, 5, numeric) },
      { id: numeric ? '102' : 'list-b', name: 'Empty list', members: [] },
    ],
  };
}

/** The base URL the app uses for a fake (ActiveCampaign's is the account URL the user types, so none). */
export function baseUrlsOf(fakes: Partial<Record<TIntegration, TFakePlatform>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, f] of Object.entries(fakes)) if (k !== 'active_campaign' && f) out[k] = f.baseUrl;
  // CleverTap's base URL names the account's region.
  if (fakes.clevertap) out.clevertap = `${fakes.clevertap.baseUrl}/{region}/1`;
  return out;
}

/** The connect body for a platform's fake. */
export function connectBody(platform: TIntegration, fake: TFakePlatform, name: string, apiKey = GOOD_KEYS[platform]!) {
  return {
    name,
    api_key: apiKey,
    ...(platform === 'active_campaign' ? { api_url: fake.baseUrl.replace(/\/api\/3$/, '') } : {}),
    ...(platform === 'kit' ? { paid_plan_confirmed: true } : {}),
    ...(platform === 'clevertap' ? { account_id: CLEVERTAP_FAKE_ACCOUNT_ID, region: CLEVERTAP_FAKE_REGION } : {}),
    ...(platform === 'go_high_level' ? { account_id: GHL_FAKE_LOCATION_ID } : {}),
  };
}

/** The OAuth clients of the Mailchimp and Zoho fakes (their consent pages, token endpoints and metadata). */
export function oauthConfigOf(fakes: Partial<Record<TIntegration, TFakePlatform>>): TConfig['integrationOAuth'] {
  return {
    mailchimp: { ...FAKE_CLIENTS.mailchimp, baseUrl: fakes.mailchimp ? new URL(fakes.mailchimp.baseUrl).origin : 'http://127.0.0.1:9' },
    zoho: { ...FAKE_CLIENTS.zoho, ...(fakes.zoho ? { accountsUrl: new URL(fakes.zoho.baseUrl).origin } : {}) },
  };
}

/**
 * What a browser does on a platform's consent page: opens the authorize URL, presses "Allow" (or "Deny"), and
 * answers the query the platform sends back to the redirect URI (`code`, `state`, Zoho's `location` and `accounts-server`).
 */
export async function completeConsent(authorizeUrl: string, decision: 'allow' | 'deny' = 'allow'): Promise<Record<string, string>> {
  const page = await fetch(authorizeUrl);
  const html = await page.text();
  if (!page.ok || !html.includes('>Allow<')) throw new Error(`no consent page (${page.status}): ${html.slice(0, 200)}`);
  const action = /<form method="post" action="([^"]+)"/.exec(html)![1]!.replace(/&#38;/g, '&');
  const form = new URLSearchParams({ decision });
  for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) form.set(m[1]!, m[2]!.replace(/&#(\d+);/g, (_, c: string) => String.fromCharCode(Number(c))));
  const back = await fetch(action, { method: 'POST', body: form, redirect: 'manual' });
  const location = back.headers.get('location');
  if (back.status !== 302 || !location) throw new Error(`the consent page did not redirect (${back.status})`);
  return Object.fromEntries(new URL(location).searchParams);
}

export type TIntegrationWorld = { w: TWorldApp; fakes: Partial<Record<TIntegration, TFakePlatform>>; close(): Promise<void> };

/** A world app whose integration jobs use small pages and hand every throttle to the queue; every fake started. */
export async function createIntegrationWorld(count: number, runtime: Partial<TIntegrationRuntime> = {}, overrides: Partial<TConfig> = {}, clock?: () => Date): Promise<TIntegrationWorld> {
  const fakes: Partial<Record<TIntegration, TFakePlatform>> = {};
  for (const [k, start] of Object.entries(FAKES) as [TIntegration, NonNullable<(typeof FAKES)[TIntegration]>][]) fakes[k] = await start(makeSeed(k, count));
  const w = await createWorldApp(
    undefined,
    // Every platform reaches its fake here (base URLs, ActiveCampaign's typed account URL): no test-mode stand-ins (test-mode.ts).
    { allowPrivateDestinations: true, paymentsTestMode: false, integrationBaseUrls: baseUrlsOf(fakes), integrationOAuth: oauthConfigOf(fakes), ...overrides },
    { extraJobs: (ctx) => createIntegrationJobs({ ...ctx, runtime: { adapterOptions: { pageSize: 7, maxInlineWaitMs: 0 }, ...runtime } }), ...(clock ? { clock } : {}) },
  );
  return {
    w,
    fakes,
    close: async () => {
      await w.close();
      for (const f of Object.values(fakes)) await f?.close();
    },
  };
}

export async function topUp(w: TWorldApp, orgId: string, amount = 10_000) {
  await w.t.db.transaction((tx) => grantCredits(tx, { orgId, amount, reason: 'Test top-up' }));
}

/** Works the queue (delayed retries included) until the import is finished or `rounds` runs out. */
export async function runImport(world: TIntegrationWorld, importId: string, rounds = 60) {
  for (let i = 0; i < rounds; i += 1) {
    await world.w.t.deps.queue.runUntilIdle({ includeDelayed: true, maxJobs: 200 });
    const row = (await world.w.t.db.db.select().from(integrationImports).where(eq(integrationImports.id, importId)))[0]!;
    if (['completed', 'failed', 'cancelled'].includes(row.state)) return row;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the import did not finish');
}


/** A job the import queued again after the platform's throttling signal: the delay the job system was given and the job's id. */
export type TRequeue = { name: string; payload: Record<string, unknown>; delayMs: number; jobId: string };

/**
 * Makes the import itself meet the platform's throttling signal: when the import queues a job `name` whose payload
 * matches `when` (first time only), the fake's next request, that job's first call to the platform, answers the
 * platform's 429. Records the job's next delayed enqueue of the same kind: its retry after the throttle (other
 * delayed jobs, e.g. a poll for a SendGrid export, are not retries). Until `restore()`.
 */
export function throttleWhenQueued(queue: TJobQueue, fake: TFakePlatform, triggers: { name: string; when(payload: Record<string, unknown>): boolean }[]) {
  const original = queue.enqueue;
  const pending = [...triggers];
  const awaitingRetry: string[] = [];
  const requeues: TRequeue[] = [];
  queue.enqueue = async (name, payload, opts) => {
    const p = payload as Record<string, unknown>;
    const jobId = await original.call(queue, name, payload, opts);
    if (opts?.delayMs) {
      const i = awaitingRetry.indexOf(name);
      if (i >= 0) {
        awaitingRetry.splice(i, 1);
        requeues.push({ name, payload: p, delayMs: opts.delayMs, jobId });
      }
      return jobId;
    }
    const i = pending.findIndex((t) => t.name === name && t.when(p));
    if (i >= 0) {
      pending.splice(i, 1);
      awaitingRetry.push(name);
      fake.throttleNext(1);
    }
    return jobId;
  };
  return {
    requeues,
    /** Triggers that never fired (the import never queued such a job). */
    unfired: pending,
    restore: () => {
      queue.enqueue = original;
    },
  };
}

/** How long after its creation pg-boss lets a job start (its `start_after` minus `created_on`), in ms. */
export async function startDelayOf(queue: TJobQueue, jobId: string): Promise<number> {
  const job = await queue.get(jobId);
  if (!job) throw new Error(`no job ${jobId}`);
  return job.runAt.getTime() - job.createdAt.getTime();
}
