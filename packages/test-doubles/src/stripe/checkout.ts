import type { IncomingMessage, ServerResponse } from 'node:http';
import { escapeHtml } from '../http';
import { formatAmount, html, missing, newId, StripeFail, type TObj } from './wire';

/**
 * The fake Stripe's Checkout Sessions (`mode=payment`): `POST /v1/checkout/sessions` with `line_items[][price_data]`,
 * `success_url` (its `{CHECKOUT_SESSION_ID}` filled in), `cancel_url`, `client_reference_id`, `metadata` and
 * `payment_intent_data[metadata]`; retrieve; expire. Its hosted page (`/c/pay/cs_…`, as checkout.stripe.com) takes the
 * test cards; a refused card or failed authentication stays on the page with the error, as Stripe Checkout does.
 */
export type TCheckoutCore = {
  baseUrl(): string;
  newIntent(params: Record<string, unknown>): TObj;
  /** Confirms on session; throws StripeFail on a refused card (the intent keeps the error). */
  confirmIntent(pi: TObj, pmId: string, offSession: boolean, returnUrl?: string): Promise<TObj>;
  intent(id: string): TObj | undefined;
  emit(type: string, object: TObj): Promise<void>;
  /** Creates and confirms an off-session SetupIntent for the customer; throws StripeFail when the card is refused. */
  setup(customer: unknown, paymentMethod: string, metadata: unknown): Promise<TObj>;
};

export function createFakeCheckout(core: TCheckoutCore) {
  const sessions = new Map<string, TObj>();

  function create(params: Record<string, unknown>): TObj {
    if (params.mode === 'setup') {
      if (typeof params.success_url !== 'string' || !params.customer) throw new StripeFail(400, { type: 'invalid_request_error', message: 'Missing required param: customer or success_url.' });
      const id = newId('cs_test');
      const session: TObj = {
        id,
        object: 'checkout.session',
        mode: 'setup',
        status: 'open',
        payment_status: 'no_payment_required',
        amount_total: null,
        currency: params.currency ?? null,
        customer: params.customer,
        client_reference_id: params.client_reference_id ?? null,
        metadata: params.metadata ?? {},
        setup_intent: null,
        payment_intent: null,
        success_url: params.success_url,
        cancel_url: params.cancel_url ?? null,
        url: `${core.baseUrl()}/c/pay/${id}`,
        expires_at: Math.floor(Date.now() / 1000) + 86_400,
        created: Math.floor(Date.now() / 1000),
        livemode: false,
        description: 'Save a card',
        payment_intent_data: {},
      };
      sessions.set(id, session);
      return session;
    }
    if (params.mode !== 'payment') throw new StripeFail(400, { type: 'invalid_request_error', param: 'mode', message: 'This fake supports mode=payment and mode=setup.' });
    const items = (params.line_items as Record<string, unknown>[] | undefined) ?? [];
    if (items.length === 0 || typeof params.success_url !== 'string') throw new StripeFail(400, { type: 'invalid_request_error', message: 'Missing required param: line_items or success_url.' });
    let amount = 0;
    let currency = '';
    const names: string[] = [];
    for (const item of items) {
      const data = item.price_data as { currency?: string; unit_amount?: string; product_data?: { name?: string } } | undefined;
      if (!data?.currency || data.unit_amount === undefined) throw new StripeFail(400, { type: 'invalid_request_error', param: 'line_items', message: 'Give price_data with currency and unit_amount.' });
      amount += Number(data.unit_amount) * Number(item.quantity ?? 1);
      currency = data.currency.toLowerCase();
      names.push(data.product_data?.name ?? 'Item');
    }
    const id = newId('cs_test');
    const session: TObj = {
      id,
      object: 'checkout.session',
      mode: 'payment',
      status: 'open',
      payment_status: 'unpaid',
      amount_total: amount,
      amount_subtotal: amount,
      currency,
      customer: params.customer ?? null,
      client_reference_id: params.client_reference_id ?? null,
      metadata: params.metadata ?? {},
      payment_intent: null,
      success_url: params.success_url,
      cancel_url: params.cancel_url ?? null,
      url: `${core.baseUrl()}/c/pay/${id}`,
      expires_at: Math.floor(Date.now() / 1000) + 86_400,
      created: Math.floor(Date.now() / 1000),
      livemode: false,
      description: names.join(', '),
      payment_intent_data: params.payment_intent_data ?? {},
    };
    sessions.set(id, session);
    return session;
  }

  function publicSession(s: TObj): TObj {
    const { description: _d, payment_intent_data: _p, ...rest } = s;
    return rest as TObj;
  }

  async function api(method: string, parts: string[], params: Record<string, unknown>): Promise<[number, unknown] | null> {
    if (parts[1] !== 'checkout' || parts[2] !== 'sessions') return null;
    const id = parts[3];
    if (method === 'POST' && !id) return [200, publicSession(create(params))];
    const session = sessions.get(id ?? '');
    if (!session) throw missing('checkout.session', id ?? '');
    if (method === 'POST' && parts[4] === 'expire') {
      if (session.status !== 'open') throw new StripeFail(400, { type: 'invalid_request_error', message: `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of "${String(session.status)}".` });
      session.status = 'expired';
      session.url = null;
      await core.emit('checkout.session.expired', publicSession(session));
    }
    return [200, publicSession(session)];
  }

  async function complete(session: TObj, res: ServerResponse) {
    if (session.status === 'open') {
      session.status = 'complete';
      session.payment_status = 'paid';
      await core.emit('checkout.session.completed', publicSession(session));
    }
    res.writeHead(303, { location: String(session.success_url).replace('{CHECKOUT_SESSION_ID}', session.id) });
    res.end();
  }

  /** The hosted payment page: choose a test card; authentication goes through the fake's 3-D Secure page and comes back here. */
  async function page(req: IncomingMessage, res: ServerResponse, id: string, form: Record<string, unknown>, cardButtons: string): Promise<void> {
    const session = sessions.get(id);
    if (!session) return html(res, 404, 'Not found', '<p class="err">This checkout page does not exist.</p>');
    if (session.mode === 'setup') return setupPage(req, res, session, form, cardButtons);
    const title = `<h2>Pay ${escapeHtml(formatAmount({ amount: session.amount_total, currency: session.currency }))}</h2><p>${escapeHtml(session.description)}</p>`;
    if (session.status === 'expired') return html(res, 410, 'Expired', `${title}<p class="err" role="alert">This checkout page has expired.</p>`);
    const cancel = session.cancel_url ? `<p><a href="${escapeHtml(session.cancel_url)}">Cancel and return</a></p>` : '';
    let pi = typeof session.payment_intent === 'string' ? core.intent(session.payment_intent) : undefined;
    if (pi?.status === 'succeeded' || session.status === 'complete') return complete(session, res);
    if (req.method === 'POST' && typeof form.payment_method === 'string') {
      if (!pi) {
        const data = session.payment_intent_data as { metadata?: Record<string, unknown>; description?: string };
        pi = core.newIntent({ amount: session.amount_total, currency: session.currency, customer: session.customer, description: data.description ?? session.description, metadata: data.metadata ?? {} });
        session.payment_intent = pi.id;
      }
      try {
        await core.confirmIntent(pi, form.payment_method, false, session.url as string);
      } catch (err) {
        if (!(err instanceof StripeFail)) throw err;
        return html(res, 402, 'Payment failed', `${title}<p class="err" role="alert">${escapeHtml(err.body.message)}</p><form method="post">${cardButtons}</form>${cancel}`);
      }
      if (pi.status === 'requires_action') {
        res.writeHead(303, { location: (pi.next_action as { redirect_to_url: { url: string } }).redirect_to_url.url });
        res.end();
        return;
      }
      return complete(session, res);
    }
    const error = (pi?.last_payment_error as { message?: string } | null | undefined)?.message;
    return html(res, error ? 402 : 200, 'Checkout', `${title}${error ? `<p class="err" role="alert">${escapeHtml(error)}</p>` : ''}<p>Choose a test card:</p><form method="post">${cardButtons}</form>${cancel}`);
  }

  /** A setup-mode session's page: the card chosen is saved on the customer through a SetupIntent. */
  async function setupPage(req: IncomingMessage, res: ServerResponse, session: TObj, form: Record<string, unknown>, cardButtons: string): Promise<void> {
    const cancel = session.cancel_url ? `<p><a href="${escapeHtml(session.cancel_url)}">Cancel and return</a></p>` : '';
    if (session.status === 'complete') return complete(session, res);
    if (session.status === 'expired') return html(res, 410, 'Expired', '<h2>Add a card</h2><p class="err" role="alert">This checkout page has expired.</p>');
    if (req.method === 'POST' && typeof form.payment_method === 'string') {
      try {
        const si = await core.setup(session.customer, form.payment_method, session.metadata);
        session.setup_intent = si.id;
      } catch (err) {
        if (!(err instanceof StripeFail)) throw err;
        return html(res, 402, 'Card refused', `<h2>Add a card</h2><p class="err" role="alert">${escapeHtml(err.body.message)}</p><form method="post">${cardButtons}</form>${cancel}`);
      }
      session.status = 'complete';
      await core.emit('checkout.session.completed', publicSession(session));
      return complete(session, res);
    }
    return html(res, 200, 'Add a card', `<h2>Add a card</h2><p>Choose a test card:</p><form method="post">${cardButtons}</form>${cancel}`);
  }

  return { api, page };
}
