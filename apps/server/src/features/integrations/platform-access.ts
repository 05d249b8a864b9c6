import { createOutboundClient, outboundPolicyOf } from '../../platform/outbound-http/client';
import { INTEGRATION_CATALOG, type TIntegration } from '@verilead/contracts';
import type { TConfig } from '../../config';
import type { TDeps } from '../../platform/deps';
import { AppError, isAppError } from '../../platform/errors/app-error';
import { decryptSecret, encryptSecret } from '../../platform/secrets/secret-box';
import { RateLimitedError, RemoteAuthError, RemoteError } from './adapters/http';
import { ADAPTERS } from './adapters/registry';
import { isOwnLocalFake, oauthClientOf } from './oauth/providers';
import { getTestModeBaseUrl } from './test-mode';
import type { TAdapterContext, TCredentials, TIntegrationAdapter } from './adapters/types';

// Reaching a platform, shared by every integration use case: the runtime they take, an account's sealed
// credentials, the adapter built for them (with test mode's local fakes and the outbound policy), and a platform's
// failures as readable 4xx answers.

/** What the integration services need besides the database and queue. */
/** What the platform use cases need from the dependency record, and the adapters' tuning. */
export type TIntegrationRuntime = Pick<TDeps, 'config' | 'storage' | 'standIns'> & {
  /** Adapter tuning (tests: shorter in-process waits). */
  adapterOptions?: Pick<TAdapterContext, 'maxThrottleWaits' | 'maxInlineWaitMs' | 'pageSize'>;
};
/** The database and queue the integration use cases act on. */
export type TServiceDeps = Pick<TDeps, 'database' | 'queue'>;

/** A source's name as users see it (`leads`: this product's prospect lists). */
export const platformLabel = (p: string) => INTEGRATION_CATALOG[p as TIntegration]?.label ?? (p === 'leads' ? 'Leads' : p);

export function sealCredentials(config: TConfig, c: TCredentials): string {
  return encryptSecret(config.appSecret, JSON.stringify(c), 'integration-credentials');
}
export function openCredentials(config: TConfig, box: string): TCredentials {
  return JSON.parse(decryptSecret(config.appSecret, box, 'integration-credentials')) as TCredentials;
}

/** The adapter of a platform with these credentials, or 400 when the platform cannot be connected. */
export async function getAdapter(rt: TIntegrationRuntime, platform: TIntegration, credentials: TCredentials): Promise<TIntegrationAdapter> {
  const info = INTEGRATION_CATALOG[platform];
  const load = ADAPTERS[platform];
  if (!info.available || !load) throw new AppError('validation_failed', info.unavailable_reason ?? `${info.label} cannot be connected yet`);
  const oauthClient = oauthClientOf(rt.config, platform);
  // Test mode: a key-based platform without a configured base URL is answered by its local fake (test-mode.ts).
  const testBase = await getTestModeBaseUrl(rt, platform, credentials);
  const baseUrls = testBase ? { ...rt.config.integrationBaseUrls, [platform]: testBase } : rt.config.integrationBaseUrls;
  // Loopback addresses need ALLOW_PRIVATE_DESTINATIONS, except the test-mode fakes this server started itself (exact base URL).
  const allowPrivate = testBase !== null || isOwnLocalFake(rt, platform, credentials.oauth);
  const outbound = createOutboundClient(outboundPolicyOf(rt.config, { allowPrivate }));
  const make = await load();
  return make({ credentials, baseUrls, outbound, ...(oauthClient ? { oauthClient } : {}), ...rt.adapterOptions });
}

/** A platform failure as a readable 4xx (never a 500). */
export function toAppError(platform: TIntegration, err: unknown, field?: string): AppError {
  if (isAppError(err)) return err;
  if (err instanceof RemoteAuthError) {
    const message = `${platformLabel(platform)} did not accept these credentials (${err.message}). Please check them and try again.`;
    return new AppError('validation_failed', message, field ? { reasons: [{ field, location: 'body', messages: [message] }] } : {});
  }
  if (err instanceof RateLimitedError) {
    return new AppError('rate_limited', `${platformLabel(platform)} is busy; please try again in ${Math.ceil(err.retryAfterMs / 1000)} seconds.`, { additional_info: { retry_after: Math.ceil(err.retryAfterMs / 1000) } });
  }
  if (err instanceof RemoteError) return new AppError('validation_failed', `${platformLabel(platform)} could not be used: ${err.message}`);
  throw err;
}
