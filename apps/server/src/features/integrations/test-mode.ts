import type { TIntegration, TIntegrationTestCredentials, TIntegrationTestMode } from '@verilead/contracts';
import type { TConfig } from '../../config';
import type { TPlatformStandIn, TStandIn, TStandInMember, TStandIns } from '../../platform/test-doubles';

/**
 * Test mode for the platforms connected with an API key (the condition of payments' test mode: PAYMENTS_TEST_MODE,
 * by default outside NODE_ENV=production) with the local fakes wired (`config.testDoubles`, by the composition root). A
 * platform whose base URL is not configured (INTEGRATION_BASE_URLS) is answered by its local fake (from
 * @verilead/test-doubles), started on first use with demo contacts on the demo mail world's domains;
 * the connect screen offers the fake's credentials. The adapters reach the fake through their injectable base URL
 * (loopback allowed for exactly that base), never through a change of the HTTP client.
 */
export function isIntegrationTestMode(config: Pick<TConfig, 'paymentsTestMode' | 'testDoubles'>): boolean {
  return config.paymentsTestMode && config.testDoubles !== undefined;
}

/** Key-based platforms with a local fake (Zoho connects through OAuth only: its test mode is oauth/providers.ts'). */
const KEY_PLATFORMS = ['mailchimp', 'hubspot', 'active_campaign', 'sendgrid', 'mailerlite', 'moosend', 'clevertap', 'lemlist', 'go_high_level', 'kit', 'apollo'] as const;
type TKeyPlatform = (typeof KEY_PLATFORMS)[number];
const isKeyPlatform = (p: TIntegration): p is TKeyPlatform => (KEY_PLATFORMS as readonly string[]).includes(p);

/** The fakes' keys, each in its platform's own format. */
const TEST_KEYS: Record<TKeyPlatform, string> = {
  mailchimp: '00000000000000000000000000000000-us1',
  hubspot: 'pat-na1-00000000-0000-0000-0000-000000000000',
  active_campaign: 'test0000000000000000000000000000000000000000000000000000000000000000',
  sendgrid: 'SG.test-mode.00000000000000000000000000000000',
  mailerlite: 'test-mode-mailerlite-token',
  moosend: '00000000-0000-0000-0000-000000000000',
  clevertap: 'TST-MOD-PASS-test-mode',
  lemlist: '00000000000000000000000000000000',
  go_high_level: 'pit-00000000-0000-0000-0000-000000000000',
  kit: 'kit_00000000000000000000000000000000',
  apollo: 'test-mode-apollo-master-key',
};

/** The accounts the fakes are started with, offered on the connect screen: CleverTap's account and region, GoHighLevel's location. */
const CLEVERTAP_TEST_ACCOUNT = { accountId: 'W88-R65-9Z7Z', region: 'in1' };
const GHL_TEST_LOCATION_ID = 've9EPM428h8vShlRW1KT';

function testAccountOf(platform: TKeyPlatform): Pick<TPlatformStandIn, 'accountId' | 'region'> {
  if (platform === 'clevertap') return CLEVERTAP_TEST_ACCOUNT;
  if (platform === 'go_high_level') return { accountId: GHL_TEST_LOCATION_ID };
  return {};
}

/** Demo contacts on the demo mail world's domains (accept-all: catch_all; unknown users of strict.test: invalid). */
function demoMembers(count: number, numericIds: boolean): TStandInMember[] {
  return Array.from({ length: count }, (_, i) => ({
    id: numericIds ? String(1000 + i) : `t${i + 1}`,
    email: i % 4 === 0 ? `nobody${i}@strict.test` : `reader${i}@acceptall.test`,
    firstName: `Demo${i}`,
    lastName: 'Reader',
  }));
}

function seedOf(platform: TKeyPlatform): TPlatformStandIn['seed'] {
  const numeric = platform === 'kit' || platform === 'hubspot' || platform === 'active_campaign';
  // CleverTap's lists are events (the id is the event name).
  const id = platform === 'clevertap' ? 'App Launched' : numeric ? '101' : 'demo-list';
  const name = platform === 'clevertap' ? 'App Launched' : 'Demo contacts';
  return { apiKey: TEST_KEYS[platform], lists: [{ id, name, members: demoMembers(24, numeric) }] };
}


/** The base URL an adapter uses for a fake (CleverTap's names the region; ActiveCampaign's is the account URL, without /api/3). */
function adapterBaseOf(platform: TKeyPlatform, fake: TStandIn): string {
  if (platform === 'clevertap') return `${fake.baseUrl}/{region}/1`;
  if (platform === 'active_campaign') return fake.baseUrl.replace(/\/api\/3$/, '');
  return fake.baseUrl;
}

/**
 * In test mode, the base URL of this platform's local fake (started on first use), for key-based credentials of a
 * platform without a configured base URL; otherwise null (the platform's real host, or the configured one).
 */
export async function getTestModeBaseUrl(deps: { config: TConfig; standIns: TStandIns }, platform: TIntegration, credentials: { oauth?: unknown }): Promise<string | null> {
  const { config } = deps;
  const doubles = config.testDoubles;
  if (!isIntegrationTestMode(config) || !doubles || !isKeyPlatform(platform) || credentials.oauth || config.integrationBaseUrls[platform]) return null;
  // Started on first use and kept among the process's stand-ins (the dependency record's).
  const fake = await deps.standIns.get(`key:${platform}`, () => doubles.platform(platform, { seed: seedOf(platform), ...testAccountOf(platform) }));
  return adapterBaseOf(platform, fake);
}

/** What the connect screens show: test mode or not, and each platform's stand-in credentials. */
export async function describeIntegrationTestMode(config: TConfig): Promise<TIntegrationTestMode> {
  if (!isIntegrationTestMode(config)) return { test_mode: false, credentials: {} };
  const credentials: Partial<Record<TIntegration, TIntegrationTestCredentials>> = {};
  for (const p of KEY_PLATFORMS) {
    if (config.integrationBaseUrls[p]) continue;
    credentials[p] = {
      api_key: TEST_KEYS[p],
      ...(p === 'active_campaign' ? { api_url: 'https://test-mode.api-us1.com' } : {}),
      ...(p === 'clevertap' ? { account_id: CLEVERTAP_TEST_ACCOUNT.accountId, region: CLEVERTAP_TEST_ACCOUNT.region } : {}),
      ...(p === 'go_high_level' ? { account_id: GHL_TEST_LOCATION_ID } : {}),
    };
  }
  return { test_mode: true, credentials };
}
