import type { IncomingMessage, ServerResponse } from 'node:http';
import { escapeHtml } from '../http';
import type { createFakeBilling } from './billing';
import type { createFakeCheckout } from './checkout';
import { formatAmount, html, signStripePayload, StripeFail, TEST_CARDS, type TFakeStripeEvent, type TObj } from './wire';

/** What the pages use of the fake Stripe: its objects, its events and its API. */
export type TFakeStripePagesContext = {
  webhookSecret: string;
  events: TFakeStripeEvent[];
  paymentIntents: Map<string, TObj>;
  setupIntents: Map<string, TObj>;
  confirmIntent(pi: TObj, pmId: string, offSession: boolean, returnUrl?: string): Promise<TObj>;
  emit(type: string, object: TObj): Promise<void>;
  /** Delivers an event; answers what the webhook endpoint answered, or null when it was not reached. */
  post(event: TFakeStripeEvent): Promise<{ status: number; body: string } | null>;
  api(method: string, path: string, params: Record<string, unknown>): Promise<[number, unknown]>;
  billing: ReturnType<typeof createFakeBilling>;
  checkout: ReturnType<typeof createFakeCheckout>;
};

/**
 * The fake Stripe's browser pages (stand-ins for Stripe.js Elements, the 3-D Secure challenge, the hosted invoice
 * and Checkout pages) and its `/_fake/events/{id}` replay helper: every path outside `/v1/`.
 */
export function createFakeStripePages(ctx: TFakeStripePagesContext) {
  /** The test-mode pages a browser completes (stand-ins for Stripe.js Elements and the 3-D Secure challenge). */
  async function page(req: IncomingMessage, res: ServerResponse, url: URL, form: Record<string, unknown>) {
    const [kind, id, step] = url.pathname.split('/').filter(Boolean);
    const returnUrl = url.searchParams.get('return_url') ?? '';
    const back = (params: Record<string, string>) => {
      if (!returnUrl) return html(res, 200, 'Done', `<p>Done: ${escapeHtml(JSON.stringify(params))}</p>`);
      const target = new URL(returnUrl);
      for (const [k, v] of Object.entries(params)) target.searchParams.set(k, v);
      res.writeHead(303, { location: target.toString() });
      res.end();
    };
    const cardButtons = Object.entries(TEST_CARDS)
      .map(([pmId, c]) => `<button name="payment_method" value="${pmId}" type="submit">${escapeHtml(c.label)}</button>`)
      .join('');
    if (kind === 'checkout' && id) {
      const pi = ctx.paymentIntents.get(id);
      if (!pi) return html(res, 404, 'Not found', '<p class="err">This payment does not exist.</p>');
      if (req.method === 'POST') {
        try {
          await ctx.confirmIntent(pi, String(form.payment_method ?? ''), false, returnUrl);
        } catch (err) {
          if (!(err instanceof StripeFail)) throw err;
          return html(res, 402, 'Payment failed', `<h2>Pay ${escapeHtml(formatAmount(pi))}</h2><p class="err" role="alert">${escapeHtml(err.body.message)}</p><form method="post">${cardButtons}</form>`);
        }
        if (pi.status === 'requires_action') {
          res.writeHead(303, { location: ((pi.next_action as { redirect_to_url: { url: string } }).redirect_to_url.url) });
          return res.end();
        }
        return back({ payment_intent: pi.id, redirect_status: 'succeeded' });
      }
      if (pi.status === 'succeeded') return back({ payment_intent: pi.id, redirect_status: 'succeeded' });
      return html(res, 200, 'Checkout', `<h2>Pay ${escapeHtml(formatAmount(pi))}</h2><p>${escapeHtml(pi.description ?? '')}</p><p>Choose a test card:</p><form method="post">${cardButtons}</form>`);
    }
    if (kind === 'authenticate' && id) {
      const pi = ctx.paymentIntents.get(id);
      if (!pi || pi.status !== 'requires_action') return html(res, 404, 'Not found', '<p class="err">Nothing to authenticate.</p>');
      if (req.method === 'POST' || step) {
        if (form.outcome === 'complete') {
          pi.status = 'succeeded';
          pi.amount_received = pi.amount;
          pi.next_action = null;
          await ctx.emit('payment_intent.succeeded', { ...pi });
          await ctx.billing.intentSucceeded(pi);
          return back({ payment_intent: pi.id, redirect_status: 'succeeded' });
        }
        pi.status = 'requires_payment_method';
        pi.next_action = null;
        pi.last_payment_error = { type: 'card_error', code: 'payment_intent_authentication_failure', message: 'We are unable to authenticate your payment method. Please choose a different payment method and try again.' };
        await ctx.emit('payment_intent.payment_failed', { ...pi });
        return back({ payment_intent: pi.id, redirect_status: 'failed' });
      }
      return html(
        res,
        200,
        '3D Secure',
        `<h2>Authenticate the payment of ${escapeHtml(formatAmount(pi))}</h2><form method="post"><button name="outcome" value="complete" type="submit">Complete authentication</button><button name="outcome" value="fail" type="submit">Fail authentication</button></form>`,
      );
    }
    if (kind === 'i' && id) return ctx.billing.page(req, res, id, form, cardButtons);
    if (kind === 'c' && id === 'pay' && step) return ctx.checkout.page(req, res, step, form, cardButtons);
    if (kind === '_fake' && id === 'events' && step && req.method === 'POST') {
      // Not Stripe's API: a test helper of this fake that delivers an already sent event again (a replay) and answers
      // what the webhook endpoint answered, as the dashboard's "Resend" shows it.
      const e = ctx.events.find((x) => x.id === step);
      if (!e) return html(res, 404, 'Not found', '<p>No such event</p>');
      const answer = await ctx.post({ ...e, header: signStripePayload(ctx.webhookSecret, e.body) });
      let response: unknown = answer?.body ?? null;
      try {
        response = answer ? (JSON.parse(answer.body) as unknown) : null;
      } catch {
        // not JSON: kept as text
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ delivered: answer !== null, endpoint_status: answer?.status ?? null, endpoint_response: response }));
    }
    if (kind === 'setup' && id) {
      const si = ctx.setupIntents.get(id);
      if (!si) return html(res, 404, 'Not found', '<p class="err">This card set-up does not exist.</p>');
      if (req.method === 'POST') {
        try {
          await ctx.api('POST', `/v1/setup_intents/${id}/confirm`, { payment_method: form.payment_method });
        } catch (err) {
          if (!(err instanceof StripeFail)) throw err;
          return html(res, 402, 'Card refused', `<h2>Add a card</h2><p class="err" role="alert">${escapeHtml(err.body.message)}</p><form method="post">${cardButtons}</form>`);
        }
        return back({ setup_intent: si.id, redirect_status: 'succeeded' });
      }
      return html(res, 200, 'Add a card', `<h2>Add a card</h2><p>Choose a test card:</p><form method="post">${cardButtons}</form>`);
    }
    return html(res, 404, 'Not found', '<p>Not found</p>');
  }

  return page;
}
