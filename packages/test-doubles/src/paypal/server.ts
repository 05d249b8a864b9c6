import { randomBytes } from 'node:crypto';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeServer, escapeHtml, listenOnLoopback, readBody } from '../http';

/**
 * A small in-memory stand-in for the part of PayPal's REST API the payments module uses: OAuth client
 * credentials, Orders v2 (create, get, capture) and Subscriptions v1 (products, plans, subscriptions, cancel),
 * with PayPal's JSON shapes, `PayPal-Request-Id` idempotency and `{ name, message, details: [{ issue }] }` errors.
 * It serves the buyer's approval pages a browser completes in place of PayPal's own.
 */
type TObj = Record<string, unknown> & { id: string };

export type TFakePayPalEvent = { id: string; event_type: string; body: string; headers: Record<string, string> };
export type TFakePayPal = {
  baseUrl: string;
  events: TFakePayPalEvent[];
  /** Time moves on: PayPal bills the subscription's next cycle and posts PAYMENT.SALE.COMPLETED. */
  billNextCycle(subscriptionId: string): Promise<void>;
  /** Posts a sent event again (PayPal's retries, a replay). */
  resend(eventId: string): Promise<void>;
  close(): Promise<void>;
};

export type TFakePayPalOptions = {
  port?: number;
  /** The webhook id the events are sent for, and where they go (or `deliver`, for tests in-process). */
  webhookId?: string;
  webhookUrl?: string;
  deliver?: (event: TFakePayPalEvent) => Promise<void>;
};

function newId(prefix: string): string {
  return `${prefix}${randomBytes(8).toString('hex').toUpperCase()}`;
}


function json(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json', 'paypal-debug-id': newId('') });
  res.end(body === undefined ? '' : JSON.stringify(body));
}


function page(res: ServerResponse, title: string, body: string) {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(`<!doctype html><html><head><meta charset="utf-8"><title>${title}</title><style>body{font-family:system-ui,sans-serif;max-width:520px;margin:40px auto}button{display:block;width:100%;margin:8px 0;padding:12px;font-size:15px;border-radius:20px;border:1px solid #cbd5e1;background:#ffc439;cursor:pointer}.badge{background:#fef3c7;color:#92400e;padding:2px 8px;border-radius:6px;font-size:12px}</style></head><body><span class="badge">PayPal sandbox (test mode)</span>${body}</body></html>`);
}

class PayPalFail extends Error {
  constructor(
    public status: number,
    public body: Record<string, unknown>,
  ) {
    super(String(body.message));
  }
}

function unprocessable(issue: string, description: string): PayPalFail {
  return new PayPalFail(422, { name: 'UNPROCESSABLE_ENTITY', message: 'The requested action could not be performed, semantically incorrect, or failed business validation.', details: [{ issue, description }] });
}

export async function startFakePayPal(opts: TFakePayPalOptions = {}): Promise<TFakePayPal> {
  const events: TFakePayPalEvent[] = [];
  const signatures = new Map<string, string>();
  async function post(e: TFakePayPalEvent) {
    try {
      if (opts.deliver) await opts.deliver(e);
      else if (opts.webhookUrl) await fetch(opts.webhookUrl, { method: 'POST', headers: { 'content-type': 'application/json', ...e.headers }, body: e.body, signal: AbortSignal.timeout(10_000) });
    } catch {
      // PayPal retries failed deliveries; the app also settles on the buyer's return.
    }
  }
  async function emit(eventType: string, resource: Record<string, unknown>) {
    const id = newId('WH-');
    const body = JSON.stringify({ id, event_version: '1.0', create_time: new Date().toISOString(), resource_type: eventType.split('.')[1]?.toLowerCase(), event_type: eventType, resource });
    const transmissionId = randomBytes(12).toString('hex');
    const sig = randomBytes(32).toString('base64');
    signatures.set(transmissionId, `${sig}|${id}`);
    const e = {
      id,
      event_type: eventType,
      body,
      headers: {
        'paypal-transmission-id': transmissionId,
        'paypal-transmission-time': new Date().toISOString(),
        'paypal-transmission-sig': sig,
        'paypal-cert-url': `${baseUrl}/v1/notifications/certs/CERT-FAKE`,
        'paypal-auth-algo': 'SHA256withRSA',
      },
    };
    events.push(e);
    await post(e);
  }
  const orders = new Map<string, TObj & { declines?: boolean }>();
  const products = new Map<string, TObj>();
  const plans = new Map<string, TObj>();
  const subs = new Map<string, TObj>();
  const tokens = new Set<string>();
  const idempotent = new Map<string, { status: number; body: unknown }>();
  let baseUrl = '';

  const pendingEvents: [string, Record<string, unknown>][] = [];
  function api(method: string, path: string, body: Record<string, unknown>): [number, unknown] {
    if (path === '/v1/notifications/verify-webhook-signature' && method === 'POST') {
      const known = signatures.get(String(body.transmission_id));
      const event = body.webhook_event as { id?: string } | undefined;
      const ok = known === `${String(body.transmission_sig)}|${event?.id ?? ''}` && (!opts.webhookId || body.webhook_id === opts.webhookId);
      return [200, { verification_status: ok ? 'SUCCESS' : 'FAILURE' }];
    }
    const parts = path.split('/').filter(Boolean);
    if (path === '/v2/checkout/orders' && method === 'POST') {
      const unit = ((body.purchase_units as Record<string, unknown>[] | undefined) ?? [])[0];
      const amount = unit?.amount as { currency_code?: string; value?: string } | undefined;
      if (body.intent !== 'CAPTURE' || !amount?.value || !/^\d+(\.\d{2})?$/.test(amount.value)) {
        throw new PayPalFail(400, { name: 'INVALID_REQUEST', message: 'Request is not well-formed, syntactically incorrect, or violates schema.', details: [{ issue: 'INVALID_PARAMETER_VALUE', field: '/purchase_units/0/amount' }] });
      }
      const ctx = (body.application_context ?? {}) as { return_url?: string; cancel_url?: string };
      const order: TObj = { id: newId('O'), intent: 'CAPTURE', status: 'CREATED', purchase_units: [{ ...unit, reference_id: unit?.reference_id ?? 'default' }], create_time: new Date().toISOString(), return_url: ctx.return_url, cancel_url: ctx.cancel_url };
      order.links = [
        { href: `${baseUrl}/v2/checkout/orders/${order.id}`, rel: 'self', method: 'GET' },
        { href: `${baseUrl}/checkoutnow?token=${order.id}`, rel: 'approve', method: 'GET' },
        { href: `${baseUrl}/v2/checkout/orders/${order.id}/capture`, rel: 'capture', method: 'POST' },
      ];
      orders.set(order.id, order);
      return [201, publicOrder(order)];
    }
    if (parts[0] === 'v2' && parts[2] === 'orders' && parts[3]) {
      const order = orders.get(parts[3]);
      if (!order) throw new PayPalFail(404, { name: 'RESOURCE_NOT_FOUND', message: 'The specified resource does not exist.', details: [{ issue: 'INVALID_RESOURCE_ID' }] });
      if (method === 'GET') return [200, publicOrder(order)];
      if (method === 'POST' && parts[4] === 'capture') {
        if (order.status === 'COMPLETED') throw unprocessable('ORDER_ALREADY_CAPTURED', 'Order already captured.');
        if (order.status !== 'APPROVED') throw unprocessable('ORDER_NOT_APPROVED', 'Payer has not yet approved the Order for payment.');
        if (order.declines) throw unprocessable('INSTRUMENT_DECLINED', 'The instrument presented was either declined by the processor or bank, or it cannot be used for this payment.');
        order.status = 'COMPLETED';
        const unit = (order.purchase_units as Record<string, unknown>[])[0]!;
        const capture = { id: newId('C'), status: 'COMPLETED', amount: unit.amount, final_capture: true, custom_id: unit.custom_id, supplementary_data: { related_ids: { order_id: order.id } }, create_time: new Date().toISOString() };
        unit.payments = { captures: [capture] };
        pendingEvents.push(['PAYMENT.CAPTURE.COMPLETED', capture]);
        return [201, publicOrder(order)];
      }
    }
    if (path === '/v1/catalogs/products' && method === 'POST') {
      const p: TObj = { id: newId('PROD-'), name: body.name, type: body.type ?? 'SERVICE', create_time: new Date().toISOString() };
      products.set(p.id, p);
      return [201, p];
    }
    if (path === '/v1/billing/plans' && method === 'POST') {
      if (!products.has(String(body.product_id))) throw unprocessable('INVALID_PRODUCT_ID', 'Product not found.');
      const p: TObj = { id: newId('P-'), product_id: body.product_id, name: body.name, status: 'ACTIVE', billing_cycles: body.billing_cycles, create_time: new Date().toISOString() };
      plans.set(p.id, p);
      return [201, p];
    }
    if (path === '/v1/billing/subscriptions' && method === 'POST') {
      const plan = plans.get(String(body.plan_id));
      if (!plan) throw new PayPalFail(404, { name: 'RESOURCE_NOT_FOUND', message: 'The specified resource does not exist.', details: [{ issue: 'INVALID_RESOURCE_ID', field: 'plan_id' }] });
      const ctx = (body.application_context ?? {}) as { return_url?: string; cancel_url?: string };
      const s: TObj = { id: newId('I-'), plan_id: plan.id, custom_id: body.custom_id, status: 'APPROVAL_PENDING', create_time: new Date().toISOString(), return_url: ctx.return_url, cancel_url: ctx.cancel_url };
      s.links = [
        { href: `${baseUrl}/webapps/billing/subscriptions?ba_token=${s.id}`, rel: 'approve', method: 'GET' },
        { href: `${baseUrl}/v1/billing/subscriptions/${s.id}`, rel: 'self', method: 'GET' },
      ];
      subs.set(s.id, s);
      return [201, publicSub(s)];
    }
    if (parts[0] === 'v1' && parts[1] === 'billing' && parts[2] === 'subscriptions' && parts[3]) {
      const s = subs.get(parts[3]);
      if (!s) throw new PayPalFail(404, { name: 'RESOURCE_NOT_FOUND', message: 'The specified resource does not exist.', details: [{ issue: 'INVALID_RESOURCE_ID' }] });
      if (method === 'GET') return [200, publicSub(s)];
      if (method === 'POST' && parts[4] === 'cancel') {
        if (s.status !== 'ACTIVE' && s.status !== 'SUSPENDED') throw unprocessable('SUBSCRIPTION_STATUS_INVALID', 'Invalid subscription status for cancel action; subscription status should be active or suspended.');
        s.status = 'CANCELLED';
        s.status_change_note = (body as { reason?: string }).reason ?? null;
        return [204, undefined];
      }
    }
    throw new PayPalFail(404, { name: 'RESOURCE_NOT_FOUND', message: 'The specified resource does not exist.' });
  }

  function publicOrder(o: TObj) {
    const { return_url: _r, cancel_url: _c, declines: _d, ...rest } = o;
    return rest;
  }
  function publicSub(s: TObj) {
    const { return_url: _r, cancel_url: _c, ...rest } = s;
    return rest;
  }

  function redirect(res: ServerResponse, url: unknown, params: Record<string, string>) {
    if (typeof url !== 'string' || !url) return page(res, 'Done', '<p>Done.</p>');
    const target = new URL(url);
    for (const [k, v] of Object.entries(params)) target.searchParams.set(k, v);
    res.writeHead(303, { location: target.toString() });
    res.end();
  }

  const server: Server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const raw = await readBody(req);
      if (url.pathname === '/checkoutnow') {
        const order = orders.get(url.searchParams.get('token') ?? '');
        if (!order) return page(res, 'Not found', '<p>This order does not exist.</p>');
        if (req.method === 'POST') {
          const choice = new URLSearchParams(raw).get('choice');
          if (choice === 'cancel') return redirect(res, order.cancel_url, { token: order.id });
          order.status = 'APPROVED';
          order.declines = choice === 'declined';
          order.payer = { payer_id: newId('PAYER'), email_address: 'buyer@paypal.test' };
          return redirect(res, order.return_url, { token: order.id, PayerID: String((order.payer as { payer_id: string }).payer_id) });
        }
        const amount = ((order.purchase_units as { amount: { currency_code: string; value: string } }[])[0]!).amount;
        return page(
          res,
          'PayPal',
          `<h2>Pay ${escapeHtml(amount.currency_code)} ${escapeHtml(amount.value)} with PayPal</h2><form method="post"><button name="choice" value="approve">Pay with PayPal balance</button><button name="choice" value="declined">Pay with a card PayPal declines</button><button name="choice" value="cancel">Cancel and return</button></form>`,
        );
      }
      if (url.pathname === '/webapps/billing/subscriptions') {
        const s = subs.get(url.searchParams.get('ba_token') ?? '');
        if (!s) return page(res, 'Not found', '<p>This subscription does not exist.</p>');
        if (req.method === 'POST') {
          const choice = new URLSearchParams(raw).get('choice');
          if (choice === 'cancel') return redirect(res, s.cancel_url, { ba_token: s.id });
          s.status = 'ACTIVE';
          s.start_time = new Date().toISOString();
          const price = ((plans.get(String(s.plan_id))?.billing_cycles as { pricing_scheme: { fixed_price: { value: string; currency_code: string } } }[] | undefined) ?? [])[0]?.pricing_scheme.fixed_price;
          s.billing_info = {
            outstanding_balance: { currency_code: price?.currency_code ?? 'USD', value: '0.00' },
            cycle_executions: [{ tenure_type: 'REGULAR', sequence: 1, cycles_completed: 1, cycles_remaining: 0, total_cycles: 0 }],
            last_payment: price ? { amount: { currency_code: price.currency_code, value: price.value }, time: new Date().toISOString() } : undefined,
            next_billing_time: new Date(Date.now() + 30 * 86_400_000).toISOString(),
            failed_payments_count: 0,
          };
          await emit('BILLING.SUBSCRIPTION.ACTIVATED', { ...publicSub(s) });
          return redirect(res, s.return_url, { subscription_id: s.id, ba_token: s.id });
        }
        return page(res, 'PayPal', `<h2>Subscribe with PayPal</h2><form method="post"><button name="choice" value="approve">Agree and subscribe</button><button name="choice" value="cancel">Cancel and return</button></form>`);
      }
      if (url.pathname === '/v1/oauth2/token' && req.method === 'POST') {
        const auth = String(req.headers.authorization ?? '');
        if (!auth.startsWith('Basic ') || !new URLSearchParams(raw).get('grant_type')) return json(res, 401, { error: 'invalid_client', error_description: 'Client Authentication failed' });
        const token = `A21AA${randomBytes(16).toString('hex')}`;
        tokens.add(token);
        return json(res, 200, { scope: 'https://uri.paypal.com/services/payments/payment', access_token: token, token_type: 'Bearer', app_id: 'APP-FAKE', expires_in: 32400, nonce: newId('') });
      }
      const bearer = String(req.headers.authorization ?? '').replace(/^Bearer /, '');
      if (!tokens.has(bearer)) return json(res, 401, { name: 'AUTHENTICATION_FAILURE', message: 'Authentication failed due to invalid authentication credentials or a missing Authorization header.' });
      const requestId = req.headers['paypal-request-id'];
      const key = typeof requestId === 'string' && req.method === 'POST' ? `${url.pathname}|${requestId}` : null;
      const cached = key ? idempotent.get(key) : undefined;
      if (cached) return json(res, cached.status, cached.body);
      let status: number;
      let body: unknown;
      try {
        [status, body] = api(req.method ?? 'GET', url.pathname, raw ? (JSON.parse(raw) as Record<string, unknown>) : {});
      } catch (err) {
        if (!(err instanceof PayPalFail)) throw err;
        [status, body] = [err.status, { ...err.body, debug_id: newId('') }];
      }
      // Only a successful answer is replayed for the same PayPal-Request-Id; a refused request may be tried again.
      if (key && status < 300) idempotent.set(key, { status, body });
      json(res, status, body);
      for (const [type, resource] of pendingEvents.splice(0)) await emit(type, resource);
    })().catch((err: unknown) => json(res, 500, { name: 'INTERNAL_SERVER_ERROR', message: err instanceof Error ? err.message : 'error' }));
  });
  await listenOnLoopback(server, opts.port);
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseUrl,
    events,
    async billNextCycle(subscriptionId) {
      const sub = subs.get(subscriptionId);
      if (!sub || sub.status !== 'ACTIVE') throw new Error(`subscription ${subscriptionId} is not active`);
      const plan = plans.get(String(sub.plan_id));
      const price = ((plan?.billing_cycles as { pricing_scheme: { fixed_price: { value: string; currency_code: string } } }[] | undefined) ?? [])[0]?.pricing_scheme.fixed_price;
      await emit('PAYMENT.SALE.COMPLETED', { id: newId('S'), state: 'completed', billing_agreement_id: sub.id, custom: sub.custom_id, amount: { total: price?.value, currency: price?.currency_code }, create_time: new Date().toISOString() });
    },
    async resend(eventId) {
      const e = events.find((x) => x.id === eventId);
      if (!e) throw new Error(`no event ${eventId}`);
      await post(e);
    },
    close: () => closeServer(server),
  };
}
