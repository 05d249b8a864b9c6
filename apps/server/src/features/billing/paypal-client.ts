import type { TConfig } from '../../config';
import { startFakePayPal, type TFakePayPal } from './fake-paypal/fake-paypal-server';

/**
 * A small client for PayPal's documented REST API (OAuth client credentials, Orders v2, Subscriptions v1) over
 * fetch, on a configurable base URL. (PayPal's server SDK fixes its hosts; this keeps the base configurable.)
 */
export class PayPalApiError extends Error {
  constructor(
    public status: number,
    public issue: string | null,
    message: string,
  ) {
    super(message);
  }
}

export type TPayPalLink = { href: string; rel: string };
export type TPayPalOrder = { id: string; status: string; links?: TPayPalLink[]; purchase_units: { custom_id?: string; amount: { currency_code: string; value: string } }[] };
export type TPayPalSubscription = { id: string; status: string; plan_id: string; custom_id?: string; links?: TPayPalLink[] };

export type TPayPalClient = {
  testMode: boolean;
  request<T>(method: 'GET' | 'POST', path: string, body?: unknown, requestId?: string): Promise<T>;
  close(): Promise<void>;
};

function makeClient(base: string, clientId: string, clientSecret: string, testMode: boolean, close: () => Promise<void>): TPayPalClient {
  let token: { value: string; until: number } | null = null;
  async function accessToken(): Promise<string> {
    if (token && token.until > Date.now()) return token.value;
    const res = await fetch(`${base}/v1/oauth2/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
      signal: AbortSignal.timeout(15_000),
    });
    if (!res.ok) throw new PayPalApiError(res.status, null, 'PayPal refused the client credentials.');
    const body = (await res.json()) as { access_token: string; expires_in: number };
    token = { value: body.access_token, until: Date.now() + (body.expires_in - 60) * 1000 };
    return token.value;
  }
  return {
    testMode,
    close,
    async request<T>(method: 'GET' | 'POST', path: string, body?: unknown, requestId?: string): Promise<T> {
      const res = await fetch(`${base}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${await accessToken()}`,
          'content-type': 'application/json',
          prefer: 'return=representation',
          ...(requestId ? { 'paypal-request-id': requestId } : {}),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(15_000),
      });
      const text = await res.text();
      const parsed = text ? (JSON.parse(text) as Record<string, unknown>) : {};
      // 204 No Content (cancel) answers an empty object.
      if (!res.ok) {
        const details = parsed.details as { issue?: string; description?: string }[] | undefined;
        throw new PayPalApiError(res.status, details?.[0]?.issue ?? null, details?.[0]?.description ?? String(parsed.message ?? 'PayPal request failed'));
      }
      return parsed as T;
    },
  };
}

const shared = new WeakMap<TConfig, Promise<TPayPalClient>>();

export const FAKE_PAYPAL_WEBHOOK_ID = 'WH-LOCAL-FAKE';

/** The webhook id events are verified against: the configured one, or the local fake's. */
export function getPayPalWebhookId(config: TConfig): string {
  return config.paypal.clientId && config.paypal.apiBase ? (config.paypal.webhookId ?? '') : FAKE_PAYPAL_WEBHOOK_ID;
}

/** The PayPal client of this configuration: credentials and PAYPAL_API_BASE, or a local fake PayPal started on first use (test mode). */
export function getPayPalClient(config: TConfig): Promise<TPayPalClient> {
  let client = shared.get(config);
  if (!client) {
    const { clientId, clientSecret, apiBase } = config.paypal;
    client =
      clientId && clientSecret && apiBase
        ? Promise.resolve(makeClient(apiBase.replace(/\/+$/, ''), clientId, clientSecret, apiBase.includes('sandbox') || apiBase.startsWith('http://127.'), async () => undefined))
        : startFakePayPal({ webhookId: FAKE_PAYPAL_WEBHOOK_ID, webhookUrl: `${config.publicUrl}/api/v1/payment/webhook/paypal` }).then((fake: TFakePayPal) => makeClient(fake.baseUrl, 'fake-client', 'fake-secret', true, () => fake.close()));
    shared.set(config, client);
  }
  return client;
}

export async function closePayPalClient(config: TConfig) {
  const client = shared.get(config);
  if (client) await (await client).close();
}

export function approveLink(links: TPayPalLink[] | undefined): string {
  return links?.find((l) => l.rel === 'approve' || l.rel === 'payer-action')?.href ?? '';
}
