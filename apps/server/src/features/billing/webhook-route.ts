import type { TDeps } from '../../platform/deps';
import type { FastifyInstance } from 'fastify';
import { ZFailure, ZSuccess, type TPaymentProvider } from '@verilead/contracts';
import { z } from 'zod';
import { ok } from '../../platform/http/responses';
import { AppError } from '../../platform/errors/app-error';
import { insertPaymentEvent, isPaymentEventProcessed } from './queries';
import { PAYPAL_EVENT_JOB, STRIPE_EVENT_JOB } from './jobs';
import { getPayPalWebhookId } from './paypal-client';

/** What a webhook endpoint answers: received; a duplicate (a replay, stored before); processed (its job has run). */
const ZWebhookAnswer = ZSuccess(z.object({ received: z.boolean(), duplicate: z.boolean(), processed: z.boolean() }));

/**
 * Stores a verified event once by its id and queues its job in the same transaction. A duplicate queues nothing and
 * says whether the first delivery's job has run (the provider's dashboard shows the answer).
 */
async function storeEvent(deps: TDeps, provider: TPaymentProvider, eventId: string, type: string, payload: Record<string, unknown>, job: string) {
  return deps.database.transaction(async (tx) => {
    const inserted = await insertPaymentEvent(tx, { provider, eventId, type, payload });
    if (!inserted) return { received: true, duplicate: true, processed: await isPaymentEventProcessed(tx, provider, eventId) };
    await deps.queue.enqueue(job, { event_id: eventId }, { tx });
    return { received: true, duplicate: false, processed: false };
  });
}

/**
 * POST /payment/webhook/stripe: Stripe's events. The signature is checked with the SDK's own
 * `webhooks.constructEvent` over the raw body; the event is stored once by its id and processed by a job,
 * so a replayed or retried event is acknowledged and changes nothing.
 */
export function registerStripeWebhookRoute(app: FastifyInstance, deps: TDeps) {
  void app.register(async (scope) => {
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => done(null, body));
    scope.post(
      '/payment/webhook/stripe',
      {
        schema: {
          tags: ['payment'],
          summary: 'Stripe webhook events (signed)',
          response: { 200: ZWebhookAnswer, 400: ZFailure },
        },
      },
      async (req) => {
        const gw = await deps.payments.stripe.get();
        const header = req.headers['stripe-signature'];
        let event;
        try {
          event = gw.stripe.webhooks.constructEvent(String(req.body ?? ''), typeof header === 'string' ? header : '', gw.webhookSecret);
        } catch {
          throw new AppError('malformed_request', 'The webhook signature is not valid.');
        }
        return ok(await storeEvent(deps, 'stripe', event.id, event.type, event as unknown as Record<string, unknown>, STRIPE_EVENT_JOB));
      },
    );
  });
}

/**
 * POST /payment/webhook/paypal: PayPal's events, verified with PayPal's own verify-webhook-signature call, stored once
 * by event id and processed by a job (a replay is acknowledged and changes nothing).
 */
export function registerPayPalWebhookRoute(app: FastifyInstance, deps: TDeps) {
  app.post(
    '/payment/webhook/paypal',
    {
      schema: {
        tags: ['payment'],
        summary: 'PayPal webhook events (verified with PayPal)',
        response: { 200: ZWebhookAnswer, 400: ZFailure },
      },
    },
    async (req) => {
      const event = req.body as { id?: unknown; event_type?: unknown } | null;
      const header = (name: string) => String(req.headers[name] ?? '');
      if (!event || typeof event.id !== 'string' || typeof event.event_type !== 'string') throw new AppError('malformed_request', 'This is not a PayPal event.');
      const client = await deps.payments.paypal.get();
      const verdict = await client
        .verifyWebhook({
          auth_algo: header('paypal-auth-algo'),
          cert_url: header('paypal-cert-url'),
          transmission_id: header('paypal-transmission-id'),
          transmission_sig: header('paypal-transmission-sig'),
          transmission_time: header('paypal-transmission-time'),
          webhook_id: getPayPalWebhookId(deps.config),
          webhook_event: event,
        })
        .catch(() => 'FAILURE');
      if (verdict !== 'SUCCESS') throw new AppError('malformed_request', 'The webhook signature is not valid.');
      const eventId = event.id;
      return ok(await storeEvent(deps, 'paypal', eventId, event.event_type, event as Record<string, unknown>, PAYPAL_EVENT_JOB));
    },
  );
}
