import type { TIntegration } from '@verilead/contracts';

/** A local server standing in for a provider; `close` stops it. */
export type TStandIn = { baseUrl: string; close(): Promise<void> };

/** What a stand-in integration platform holds and accepts. */
export type TPlatformStandInOptions = {
  /** The API key it accepts and the lists (with their members) it holds. */
  seed: { apiKey: string; lists: { id: string; name: string; members: { id: string; email: string; firstName: string; lastName: string }[] }[] };
  /** Mailchimp and Zoho: the OAuth client it accepts (its own default otherwise). */
  oauthClient?: { clientId: string; clientSecret: string };
  /** CleverTap: the account id; GoHighLevel: the location id (each fake's own default otherwise). */
  accountId?: string;
  /** CleverTap: the region the account lives in. */
  region?: string;
};

/**
 * The stand-ins the server's test mode runs in place of a provider that is not configured: a fake Stripe, a fake
 * PayPal, and a fake of each integration platform. The composition root (apps/server/src/runtime.ts) hands this record
 * to the product, which starts a stand-in on first use; the product itself never imports this package.
 *
 * Each fake is loaded by a dynamic import when it is first started, so a server that never starts one (production)
 * holds none of their modules, nor the packages only they use.
 */
export function createTestDoubles() {
  return {
    async stripe(opts: { webhookSecret: string; webhookUrl: string }): Promise<TStandIn> {
      return (await import('./stripe/server')).startFakeStripe(opts);
    },
    async paypal(opts: { webhookId: string; webhookUrl: string }): Promise<TStandIn> {
      return (await import('./paypal/server')).startFakePayPal(opts);
    },
    async platform(platform: TIntegration, opts: TPlatformStandInOptions): Promise<TStandIn> {
      const { seed, oauthClient, accountId, region } = opts;
      if (platform === 'mailchimp') return (await import('./platforms/mailchimp-fake')).startMailchimpFake(seed, oauthClient);
      if (platform === 'zoho') return (await import('./platforms/zoho-fake')).startZohoFake(seed, oauthClient);
      if (platform === 'clevertap') return (await import('./platforms/clevertap-fake')).startClevertapFake(seed, { accountId, region });
      if (platform === 'go_high_level') return (await import('./platforms/go-high-level-fake')).startGoHighLevelFake(seed, { locationId: accountId });
      const start = (await import('./platforms')).FAKES[platform];
      if (!start) throw new Error(`No local fake of ${platform}`);
      return start(seed);
    },
  };
}
