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

/**
 * The stand-ins this process started, one per name (`oauth:zoho`, `key:hubspot`), each started on first use and shared
 * by the routes and the jobs. The composition root builds one per process and hands it over in the dependency record.
 */
export type TStandIns = {
  /** The stand-in of `name`: started with `start` on the first call, the same one after. */
  get(name: string, start: () => Promise<TStandIn>): Promise<TStandIn>;
  /** The stand-in of `name` once it listens; undefined before (or when none was asked for). */
  running(name: string): TStandIn | undefined;
  /** Stops every stand-in started so far (tests). */
  close(): Promise<void>;
};

export function createStandIns(): TStandIns {
  const pending = new Map<string, Promise<TStandIn>>();
  const listening = new Map<string, TStandIn>();
  return {
    get(name, start) {
      let p = pending.get(name);
      if (!p) {
        p = start().then((standIn) => {
          listening.set(name, standIn);
          return standIn;
        });
        pending.set(name, p);
      }
      return p;
    },
    running: (name) => listening.get(name),
    async close() {
      for (const p of pending.values()) await (await p).close();
      pending.clear();
      listening.clear();
    },
  };
}
