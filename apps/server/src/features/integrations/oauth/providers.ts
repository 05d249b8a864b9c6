import { randomBytes } from 'node:crypto';
import { ZOHO_REGIONS, type TIntegration } from '@verilead/contracts';
import type { TConfig } from '../../../config';
import { AppError } from '../../../platform/errors/app-error';
import type { TOAuthCredentials } from '../adapters/types';
import { getPublicBaseUrl } from '../../../platform/http/public-url';
import type { TPlatformStandIn, TStandIn, TStandInMember, TStandIns } from '../../../platform/test-doubles';

type TOAuthPlatform = 'mailchimp' | 'zoho';

/** An OAuth client of a platform; `local`: the fake this server started itself (test mode: no client configured). */
export type TOAuthClient = { clientId: string; clientSecret: string; local: boolean };
export type TMailchimpOAuth = TOAuthClient & { baseUrl: string };
export type TZohoOAuth = TOAuthClient & {
  /** The accounts server of a data centre. */
  accountsServer(region: string): string;
  /** Accounts servers a redirect's `accounts-server` may name (the client secret is only ever sent to these). */
  trusted: Set<string>;
};

export const FAKE_CLIENTS = {
  mailchimp: { clientId: 'fake-mailchimp-client', clientSecret: 'fake-mailchimp-secret' },
  zoho: { clientId: '1000.FAKEZOHOCLIENT', clientSecret: 'fake-zoho-secret' },
} as const;

/** Zoho's accounts server per data centre (the multi-DC list). */
export const ZOHO_ACCOUNTS: Record<string, string> = Object.fromEntries(ZOHO_REGIONS.map((r) => [r, `https://accounts.zoho.${r}`]));
/** Zoho's redirect says `location=us|eu|in|au|jp|cn`. */
export const ZOHO_LOCATIONS: Record<string, string> = { us: 'com', eu: 'eu', in: 'in', au: 'com.au', jp: 'jp', cn: 'com.cn' };

/** Demo contacts of the test-mode fakes: on the demo mail world's domains, so they verify to real verdicts there. */
function demoMembers(n: number): TStandInMember[] {
  return Array.from({ length: n }, (_, i) => ({ id: `d${i + 1}`, email: i % 4 === 0 ? `nobody${i}@strict.test` : `reader${i}@acceptall.test`, firstName: `Demo${i}`, lastName: 'Reader' }));
}
const demoSeed = (): TPlatformStandIn['seed'] => ({ apiKey: randomBytes(16).toString('hex'), lists: [{ id: 'demo-audience', name: 'Demo audience', members: demoMembers(24) }] });

/** The configuration and the process's stand-ins (the dependency record's), where the OAuth fakes are kept. */
type TOAuthDeps = { config: TConfig; standIns: TStandIns };
const LABELS: Record<TOAuthPlatform, { label: string; env: string }> = {
  mailchimp: { label: 'Mailchimp', env: 'MAILCHIMP_CLIENT_ID and MAILCHIMP_CLIENT_SECRET' },
  zoho: { label: 'Zoho CRM', env: 'ZOHO_CLIENT_ID and ZOHO_CLIENT_SECRET' },
};

/**
 * The local fake of a platform (test mode: the composition root's `config.testDoubles`), started on first use and
 * kept among the process's stand-ins. A production server (NODE_ENV=production) never starts one, nor a server without fakes
 * wired: connecting answers 503 with what the operator has to configure.
 */
function localFake({ config, standIns }: TOAuthDeps, platform: TOAuthPlatform): Promise<TStandIn> {
  const doubles = config.testDoubles;
  if (config.production || !doubles) {
    const { label, env } = LABELS[platform];
    throw new AppError('integration_not_configured', `Connecting with ${label} is not configured on this server: its operator has to set ${env}.`);
  }
  return standIns.get(`oauth:${platform}`, () => doubles.platform(platform, { seed: demoSeed(), oauthClient: FAKE_CLIENTS[platform] }));
}

/**
 * True when every address of these OAuth credentials is exactly the base URL of the local fake this server itself
 * started (test mode): only that loopback server is exempt from the outbound guard, never an address an account
 * merely claims.
 */
export function isOwnLocalFake({ standIns }: Pick<TOAuthDeps, 'standIns'>, platform: TIntegration, oauth: TOAuthCredentials | undefined): boolean {
  if (!oauth || (platform !== 'mailchimp' && platform !== 'zoho')) return false;
  const fake = standIns.running(`oauth:${platform}`);
  if (!fake) return false;
  const origin = new URL(fake.baseUrl).origin;
  const addresses = [oauth.apiEndpoint, ...(oauth.accountsServer !== undefined ? [oauth.accountsServer] : [])];
  return addresses.every((a) => a.replace(/\/+$/, '') === origin);
}

/** Mailchimp's OAuth server: the configured app, or (no client id; not in production) a local fake Mailchimp. */
export async function mailchimpOAuthOf(deps: TOAuthDeps): Promise<TMailchimpOAuth> {
  const c = deps.config.integrationOAuth.mailchimp;
  if (c.clientId && c.clientSecret) return { clientId: c.clientId, clientSecret: c.clientSecret, baseUrl: c.baseUrl, local: false };
  const fake = await localFake(deps, 'mailchimp');
  return { ...FAKE_CLIENTS.mailchimp, baseUrl: new URL(fake.baseUrl).origin, local: true };
}

/** Zoho's accounts servers: the configured client (ZOHO_ACCOUNTS_URL overriding every data centre), or (not in production) a local fake Zoho. */
export async function zohoOAuthOf(deps: TOAuthDeps): Promise<TZohoOAuth> {
  const c = deps.config.integrationOAuth.zoho;
  if (c.clientId && c.clientSecret) {
    const override = c.accountsUrl;
    return {
      clientId: c.clientId,
      clientSecret: c.clientSecret,
      local: false,
      accountsServer: (r) => override ?? ZOHO_ACCOUNTS[r] ?? ZOHO_ACCOUNTS.com!,
      trusted: new Set(override ? [override] : Object.values(ZOHO_ACCOUNTS)),
    };
  }
  const origin = new URL((await localFake(deps, 'zoho')).baseUrl).origin;
  return { ...FAKE_CLIENTS.zoho, local: true, accountsServer: () => origin, trusted: new Set([origin]) };
}

/** The OAuth client an adapter refreshes tokens with (configured, or outside production the test-mode fake's). */
export function oauthClientOf(config: TConfig, platform: TIntegration): { clientId: string; clientSecret: string } | undefined {
  if (platform !== 'zoho' && platform !== 'mailchimp') return undefined;
  const c = config.integrationOAuth[platform];
  if (c.clientId && c.clientSecret) return { clientId: c.clientId, clientSecret: c.clientSecret };
  return config.production ? undefined : FAKE_CLIENTS[platform];
}

/** Where the platform sends the browser back: the connect screen, which hands `code` and `state` to GET /oauth/{platform}. */
export const oauthRedirectUri = (config: TConfig, platform: TIntegration) => `${getPublicBaseUrl(config)}/integrations/${platform}/connect`;
