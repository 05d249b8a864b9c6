import type { TIntegration } from '@verilead/contracts';
import type { TConfig } from '../../config';
import { grantCredits } from '../../platform/credits/ledger';
import { createWorldApp, type TWorldApp } from '../email-verifier/test-support';
import { FAKES, type TFakeMember, type TFakePlatform, type TFakeSeed } from './fakes';
import { createIntegrationJobs } from './jobs';
import type { TIntegrationRuntime } from './service';

/** Good keys in each platform's own format. */
export const GOOD_KEYS: Partial<Record<TIntegration, string>> = {
  mailchimp: '0123456789abcdef0123456789abcdef-us19',
  hubspot: 'pat-na1-11111111-2222-3333-4444-555555555555',
  active_campaign: 'ac0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef01',
  mailerlite: 'eyJ0eXAiOiJKV1QiLCJhbGciOiJSUzI1NiJ9.fake-mailerlite-token',
  moosend: '00000000-1111-2222-3333-444444444444',
  kit: 'kit_0123456789abcdef0123456789abcdef',
  sendgrid: 'SG.fake-key.0123456789abcdef0123456789abcdef',
};
export const BAD_KEYS: Partial<Record<TIntegration, string>> = {
  mailchimp: 'ffffffffffffffffffffffffffffffff-us19',
  hubspot: 'pat-na1-wrong',
  active_campaign: 'wrong-token',
  mailerlite: 'wrong-token',
  moosend: '99999999-1111-2222-3333-444444444444',
  kit: 'kit_wrong',
  sendgrid: 'SG.wrong',
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
  return out;
}

/** The connect body for a platform's fake. */
export function connectBody(platform: TIntegration, fake: TFakePlatform, name: string, apiKey = GOOD_KEYS[platform]!) {
  return {
    name,
    api_key: apiKey,
    ...(platform === 'active_campaign' ? { api_url: fake.baseUrl.replace(/\/api\/3$/, '') } : {}),
    ...(platform === 'kit' ? { paid_plan_confirmed: true } : {}),
  };
}

export type TIntegrationWorld = { w: TWorldApp; fakes: Partial<Record<TIntegration, TFakePlatform>>; close(): Promise<void> };

/** A world app whose integration jobs use small pages and hand every throttle to the queue; every fake started. */
export async function createIntegrationWorld(count: number, runtime: Partial<TIntegrationRuntime> = {}, overrides: Partial<TConfig> = {}): Promise<TIntegrationWorld> {
  const fakes: Partial<Record<TIntegration, TFakePlatform>> = {};
  for (const [k, start] of Object.entries(FAKES) as [TIntegration, NonNullable<(typeof FAKES)[TIntegration]>][]) fakes[k] = await start(makeSeed(k, count));
  const w = await createWorldApp(
    undefined,
    { allowPrivateWebhooks: true, integrationBaseUrls: baseUrlsOf(fakes), ...overrides },
    { extraJobs: (ctx) => createIntegrationJobs({ ...ctx, runtime: { adapterOptions: { pageSize: 7, maxInlineWaitMs: 0 }, ...runtime } }) },
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
