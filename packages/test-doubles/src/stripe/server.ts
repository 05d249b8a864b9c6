import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeServer, listenOnLoopback, readBody } from '../http';
import { newId, signStripePayload, StripeFail, TEST_CARDS, type TCardBehaviour, type TFakeStripeEvent, type TObj } from './wire';
import { createFakeStripePages } from './pages';
import { createFakeBilling } from './billing';
import { createFakeCheckout } from './checkout';
import qs from 'qs';

/**
 * A small in-memory stand-in for the part of Stripe's REST API the payments module uses
 * (customers, payment methods, SetupIntents, PaymentIntents), speaking Stripe's wire format:
 * form-encoded requests with bracketed keys, JSON objects, `{ error: { type, code, decline_code, message } }`
 * errors with 400/402/404. Its webhooks are signed as Stripe signs them
 * (`Stripe-Signature: t=…,v1=HMAC-SHA256(secret, t + "." + body)`), so `stripe.webhooks.constructEvent` accepts them.
 * It also serves test-only pages a browser completes in place of Stripe.js: a checkout page with the
 * test cards (success, decline, authentication required) and the authentication challenge.
 */

export type { TFakeStripeEvent } from './wire';
export { signStripePayload, TEST_CARDS } from './wire';

export type TFakeStripeOptions = {
  /** Secret the webhooks are signed with. */
  webhookSecret: string;
  /** Where events are posted; or `deliver` (tests hand events to the app in-process). */
  webhookUrl?: string;
  deliver?: (event: TFakeStripeEvent) => Promise<void>;
  port?: number;
};

export type TFakeStripe = {
  port: number;
  baseUrl: string;
  events: TFakeStripeEvent[];
  /** Posts an already sent event again (a provider retry or a replay). */
  resend(eventId: string): Promise<void>;
  /** Builds a signed event body and header without sending it (tests). */
  sign(body: string, timestamp?: number): string;
  close(): Promise<void>;
};

export async function startFakeStripe(opts: TFakeStripeOptions): Promise<TFakeStripe> {
  const customers = new Map<string, TObj>();
  const paymentMethods = new Map<string, TObj & { behaviour: TCardBehaviour }>();
  const paymentIntents = new Map<string, TObj>();
  const setupIntents = new Map<string, TObj>();
  const idempotent = new Map<string, { status: number; body: string }>();
  const events: TFakeStripeEvent[] = [];
  let baseUrl = '';

  /** Delivers an event; answers what the webhook endpoint answered (status and body), or null when it was not reached. */
  async function post(event: TFakeStripeEvent): Promise<{ status: number; body: string } | null> {
    try {
      if (opts.deliver) await opts.deliver(event);
      else if (opts.webhookUrl) {
        const res = await fetch(opts.webhookUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'stripe-signature': event.header },
          body: event.body,
          signal: AbortSignal.timeout(10_000),
        });
        return { status: res.status, body: await res.text() };
      }
    } catch {
      // Stripe retries failed deliveries later; the app also confirms payments on return, so a lost delivery loses nothing.
    }
    return null;
  }

  async function emit(type: string, object: TObj) {
    const event = { id: newId('evt'), object: 'event', api_version: '2025-10-29.clover', created: Math.floor(Date.now() / 1000), type, livemode: false, pending_webhooks: 1, data: { object } };
    const body = JSON.stringify(event, null, 2);
    const e = { id: event.id, type, body, header: signStripePayload(opts.webhookSecret, body) };
    events.push(e);
    await post(e);
  }

  function paymentMethodFor(id: string, customer?: unknown): TObj & { behaviour: TCardBehaviour } {
    const existing = paymentMethods.get(id);
    if (existing) return existing;
    const test = TEST_CARDS[id];
    if (!test) throw new StripeFail(404, { type: 'invalid_request_error', code: 'resource_missing', param: 'payment_method', message: `No such PaymentMethod: '${id}'` });
    // Like Stripe, a test token becomes a fresh payment method each time it is used.
    const pm = {
      id: newId('pm'),
      object: 'payment_method',
      type: 'card',
      customer: typeof customer === 'string' ? customer : null,
      card: { brand: test.brand, last4: test.last4, exp_month: 12, exp_year: new Date().getUTCFullYear() + 3, funding: 'credit', country: 'US' },
      billing_details: {},
      created: Math.floor(Date.now() / 1000),
      livemode: false,
      behaviour: test.behaviour,
    };
    paymentMethods.set(pm.id, pm);
    return pm;
  }

  function publicPm(pm: TObj & { behaviour?: TCardBehaviour }): TObj {
    const { behaviour: _b, ...rest } = pm;
    return rest as TObj;
  }

  function getOr404(map: Map<string, TObj>, id: string, what: string): TObj {
    const o = map.get(id);
    if (!o) throw new StripeFail(404, { type: 'invalid_request_error', code: 'resource_missing', param: 'id', message: `No such ${what}: '${id}'` });
    return o;
  }

  /** Confirms a PaymentIntent with a card: the heart of the fake. */
  async function confirmIntent(pi: TObj, pmId: string, offSession: boolean, returnUrl?: string): Promise<TObj> {
    if (pi.status === 'succeeded' || pi.status === 'canceled') {
      throw new StripeFail(400, { type: 'invalid_request_error', code: 'payment_intent_unexpected_state', message: `This PaymentIntent's status is ${String(pi.status)}.`, payment_intent: pi });
    }
    // A card used for one payment is not saved on the customer (no setup_future_usage).
    const pm = paymentMethodFor(pmId);
    pi.payment_method = pm.id;
    pi.last_payment_error = null;
    pi.next_action = null;
    if (pm.behaviour === 'decline') {
      pi.status = 'requires_payment_method';
      const error = { type: 'card_error', code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.', payment_method: publicPm(pm) };
      pi.last_payment_error = error;
      await emit('payment_intent.payment_failed', { ...pi });
      throw new StripeFail(402, { ...error, payment_intent: { ...pi } });
    }
    if (pm.behaviour === 'authenticate') {
      if (offSession) {
        pi.status = 'requires_payment_method';
        const error = { type: 'card_error', code: 'authentication_required', decline_code: 'authentication_required', message: 'Your card was declined. This transaction requires authentication.' };
        pi.last_payment_error = error;
        await emit('payment_intent.payment_failed', { ...pi });
        throw new StripeFail(402, { ...error, payment_intent: { ...pi } });
      }
      pi.status = 'requires_action';
      const back = returnUrl ?? (typeof pi.return_url === 'string' ? pi.return_url : '');
      pi.next_action = {
        type: 'redirect_to_url',
        redirect_to_url: { url: `${baseUrl}/authenticate/${pi.id}?return_url=${encodeURIComponent(back)}`, return_url: back },
      };
      return pi;
    }
    pi.status = 'succeeded';
    pi.amount_received = pi.amount;
    pi.latest_charge = newId('ch');
    await emit('payment_intent.succeeded', { ...pi });
    return pi;
  }

  const billing = createFakeBilling({
    baseUrl: () => baseUrl,
    customers,
    emit,
    async charge(p) {
      const pi = newIntent({ amount: p.amount, currency: p.currency, customer: p.customer, description: p.description, metadata: p.metadata, return_url: p.returnUrl });
      try {
        await confirmIntent(pi, p.paymentMethod, false, p.returnUrl);
      } catch (err) {
        if (!(err instanceof StripeFail)) throw err;
      }
      return pi;
    },
  });

  const checkout = createFakeCheckout({
    baseUrl: () => baseUrl,
    newIntent: (p) => newIntent(p),
    confirmIntent: (...a) => confirmIntent(...a),
    intent: (id) => paymentIntents.get(id),
    emit,
    async setup(customer, paymentMethod, metadata) {
      const [, si] = await api('POST', '/v1/setup_intents', { customer, usage: 'off_session', metadata });
      const [, done] = await api('POST', `/v1/setup_intents/${(si as TObj).id}/confirm`, { payment_method: paymentMethod });
      return done as TObj;
    },
  });

  function newIntent(params: Record<string, unknown>): TObj {
    const pi: TObj = {
      id: newId('pi'),
      object: 'payment_intent',
      amount: Number(params.amount),
      amount_received: 0,
      currency: String(params.currency ?? 'usd').toLowerCase(),
      customer: params.customer ?? null,
      description: params.description ?? null,
      metadata: params.metadata ?? {},
      payment_method: null,
      payment_method_types: ['card'],
      status: 'requires_payment_method',
      last_payment_error: null,
      next_action: null,
      return_url: params.return_url ?? null,
      created: Math.floor(Date.now() / 1000),
      livemode: false,
    };
    pi.client_secret = `${pi.id}_secret_${randomBytes(8).toString('hex')}`;
    paymentIntents.set(pi.id, pi);
    return pi;
  }

  async function api(method: string, path: string, params: Record<string, unknown>): Promise<[number, unknown]> {
    const parts = path.split('/').filter(Boolean); // v1, resource, id, action
    const [, resource, id, action] = parts;
    const handled = (await billing.api(method, parts, params)) ?? (await checkout.api(method, parts, params));
    if (handled) return handled;
    if (resource === 'events' && method === 'GET') {
      const data = events.filter((e) => !params.type || e.type === params.type).map((e) => JSON.parse(e.body) as unknown).reverse();
      return [200, { object: 'list', data, has_more: false, url: '/v1/events' }];
    }
    if (resource === 'customers') {
      if (method === 'POST' && !id) {
        const c: TObj = {
          id: newId('cus'),
          object: 'customer',
          email: params.email ?? null,
          name: params.name ?? null,
          metadata: params.metadata ?? {},
          invoice_settings: { default_payment_method: null },
          /** Stripe's customer credit balance in the smallest unit: negative is credit the next invoices use. */
          balance: 0,
          test_clock: params.test_clock ?? null,
          created: Math.floor(Date.now() / 1000),
          livemode: false,
        };
        customers.set(c.id, c);
        return [200, c];
      }
      const c = getOr404(customers, id ?? '', 'customer');
      if (method === 'POST') {
        const settings = params.invoice_settings as Record<string, unknown> | undefined;
        if (settings && 'default_payment_method' in settings) {
          const pmId = String(settings.default_payment_method || '');
          if (pmId && paymentMethods.get(pmId)?.customer !== c.id) {
            throw new StripeFail(400, { type: 'invalid_request_error', code: 'resource_missing', param: 'invoice_settings[default_payment_method]', message: `No such PaymentMethod: '${pmId}'` });
          }
          c.invoice_settings = { default_payment_method: pmId || null };
        }
        if (params.metadata) c.metadata = params.metadata;
      }
      return [200, c];
    }
    if (resource === 'payment_methods') {
      if (method === 'GET' && !id) {
        const data = [...paymentMethods.values()].filter((p) => p.customer === params.customer).map(publicPm);
        return [200, { object: 'list', data, has_more: false, url: '/v1/payment_methods' }];
      }
      if (method === 'GET') return [200, publicPm(paymentMethodFor(id ?? ''))];
      if (action === 'attach') {
        const customer = getOr404(customers, String(params.customer ?? ''), 'customer');
        const pm = paymentMethodFor(id ?? '');
        if (pm.behaviour === 'decline') {
          throw new StripeFail(402, { type: 'card_error', code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.' });
        }
        pm.customer = customer.id;
        return [200, publicPm(pm)];
      }
      if (action === 'detach') {
        const pm = paymentMethods.get(id ?? '');
        if (!pm) throw new StripeFail(404, { type: 'invalid_request_error', code: 'resource_missing', message: `No such PaymentMethod: '${id}'` });
        for (const c of customers.values()) {
          const s = c.invoice_settings as { default_payment_method: string | null };
          if (s.default_payment_method === pm.id) s.default_payment_method = null;
        }
        pm.customer = null;
        return [200, publicPm(pm)];
      }
    }
    if (resource === 'setup_intents') {
      if (method === 'POST' && !id) {
        const si: TObj = {
          id: newId('seti'),
          object: 'setup_intent',
          customer: params.customer ?? null,
          status: 'requires_payment_method',
          usage: params.usage ?? 'off_session',
          payment_method: null,
          metadata: params.metadata ?? {},
          created: Math.floor(Date.now() / 1000),
          livemode: false,
        };
        si.client_secret = `${si.id}_secret_${randomBytes(8).toString('hex')}`;
        setupIntents.set(si.id, si);
        return [200, si];
      }
      const si = getOr404(setupIntents, id ?? '', 'setupintent');
      if (method === 'POST' && action === 'confirm') {
        const pm = paymentMethodFor(String(params.payment_method ?? ''), si.customer);
        if (pm.behaviour === 'decline') {
          si.status = 'requires_payment_method';
          si.last_setup_error = { type: 'card_error', code: 'card_declined', message: 'Your card was declined.' };
          throw new StripeFail(402, { type: 'card_error', code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.', setup_intent: si });
        }
        pm.customer = si.customer as string;
        si.payment_method = pm.id;
        si.status = 'succeeded';
        await emit('setup_intent.succeeded', { ...si });
      }
      return [200, si];
    }
    if (resource === 'payment_intents') {
      if (method === 'POST' && !id) {
        const amount = Number(params.amount);
        if (!Number.isInteger(amount) || amount < 50) throw new StripeFail(400, { type: 'invalid_request_error', code: 'amount_too_small', param: 'amount', message: 'Amount must be at least 50 cents.' });
        const pi = newIntent({ ...params, amount });
        if (params.confirm === 'true' && params.payment_method) {
          await confirmIntent(pi, String(params.payment_method), params.off_session === 'true', params.return_url as string | undefined);
        }
        return [200, pi];
      }
      const pi = getOr404(paymentIntents, id ?? '', 'payment_intent');
      if (method === 'POST' && action === 'confirm') {
        await confirmIntent(pi, String(params.payment_method ?? pi.payment_method ?? ''), params.off_session === 'true', params.return_url as string | undefined);
      } else if (method === 'POST' && action === 'cancel') {
        if (pi.status === 'succeeded') throw new StripeFail(400, { type: 'invalid_request_error', code: 'payment_intent_unexpected_state', message: 'You cannot cancel this PaymentIntent because it has a status of succeeded.' });
        pi.status = 'canceled';
        pi.cancellation_reason = params.cancellation_reason ?? 'requested_by_customer';
        await emit('payment_intent.canceled', { ...pi });
      }
      return [200, pi];
    }
    throw new StripeFail(404, { type: 'invalid_request_error', message: `Unrecognized request URL (${method}: ${path}).` });
  }

  const page = createFakeStripePages({
    webhookSecret: opts.webhookSecret,
    events,
    paymentIntents,
    setupIntents,
    confirmIntent: (...a) => confirmIntent(...a),
    emit,
    post,
    api: (...a) => api(...a),
    billing,
    checkout,
  });

  const server: Server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const raw = await readBody(req);
      const params = { ...(qs.parse(url.search.slice(1)) as Record<string, unknown>), ...(qs.parse(raw) as Record<string, unknown>) };
      if (!url.pathname.startsWith('/v1/')) return page(req, res, url, params);
      if (!String(req.headers.authorization ?? '').startsWith('Bearer sk_')) {
        res.writeHead(401, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ error: { type: 'invalid_request_error', message: 'Invalid API Key provided.' } }));
      }
      const key = req.headers['idempotency-key'];
      const idemKey = typeof key === 'string' && req.method === 'POST' ? `${url.pathname}|${key}` : null;
      const cached = idemKey ? idempotent.get(idemKey) : undefined;
      if (cached) {
        res.writeHead(cached.status, { 'content-type': 'application/json', 'idempotent-replayed': 'true', 'request-id': newId('req') });
        return res.end(cached.body);
      }
      let status = 200;
      let body: string;
      try {
        const [s, obj] = await api(req.method ?? 'GET', url.pathname, params);
        status = s;
        body = JSON.stringify(obj);
      } catch (err) {
        if (!(err instanceof StripeFail)) throw err;
        status = err.status;
        body = JSON.stringify({ error: err.body });
      }
      if (idemKey) idempotent.set(idemKey, { status, body });
      res.writeHead(status, { 'content-type': 'application/json', 'request-id': newId('req') });
      res.end(body);
    })().catch((err: unknown) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { type: 'api_error', message: err instanceof Error ? err.message : 'error' } }));
    });
  });
  await listenOnLoopback(server, opts.port);
  const port = (server.address() as AddressInfo).port;
  baseUrl = `http://127.0.0.1:${port}`;
  return {
    port,
    baseUrl,
    events,
    sign: (body, timestamp) => signStripePayload(opts.webhookSecret, body, timestamp),
    async resend(eventId) {
      const e = events.find((x) => x.id === eventId);
      if (!e) throw new Error(`no event ${eventId}`);
      await post({ ...e, header: signStripePayload(opts.webhookSecret, e.body) });
    },
    close: () => closeServer(server),
  };
}
