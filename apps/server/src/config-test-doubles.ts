// The shape of config.testDoubles (the composition root sets it; config.ts names it): the local fakes test mode may
// start, described without the package that builds them (@verilead/test-doubles). Beside config.ts, which it serves.
import type { TIntegration } from '@verilead/contracts';

/** A local server standing in for an unconfigured provider (test mode); `close` stops it. */
export type TStandIn = { baseUrl: string; close(): Promise<void> };

/** A member of a stand-in platform's list. */
export type TStandInMember = { id: string; email: string; firstName: string; lastName: string };

/** What a stand-in integration platform holds and accepts. */
export type TPlatformStandIn = {
  /** The API key it accepts and the lists (with their members) it holds. */
  seed: { apiKey: string; lists: { id: string; name: string; members: TStandInMember[] }[] };
  /** Mailchimp and Zoho: the OAuth client it accepts. */
  oauthClient?: { clientId: string; clientSecret: string };
  /** CleverTap: the account id; GoHighLevel: the location id. */
  accountId?: string;
  /** CleverTap: the region the account lives in. */
  region?: string;
};

/**
 * The local fakes test mode runs in place of a provider that is not configured: Stripe, PayPal and the integration
 * platforms. The product only asks for one when it needs it; it never builds them. The composition root
 * (src/runtime.ts, `withTestDoubles`) wires them from @verilead/test-doubles outside production or with
 * PAYMENTS_TEST_MODE; without them (production) an unconfigured provider is refused, never faked.
 */
export type TTestDoubles = {
  /** A fake Stripe whose webhooks, signed with `webhookSecret`, go to `webhookUrl`. */
  stripe(opts: { webhookSecret: string; webhookUrl: string }): Promise<TStandIn>;
  /** A fake PayPal whose webhooks, for `webhookId`, go to `webhookUrl`. */
  paypal(opts: { webhookId: string; webhookUrl: string }): Promise<TStandIn>;
  /** A fake of an integration platform. */
  platform(platform: TIntegration, opts: TPlatformStandIn): Promise<TStandIn>;
};
