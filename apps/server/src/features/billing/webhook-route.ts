import type { FastifyInstance } from 'fastify';
import { ZFailure, ZSuccess } from '@verilead/contracts';
import { z } from 'zod';
import { ok } from '../../platform/http/responses';
import { AppError } from '../../platform/errors/app-error';
import { paymentEvents } from './tables';
import { STRIPE_EVENT_JOB } from './jobs';
import type { TBillingDeps } from './service';

/**
 * POST /payment/webhook/stripe: Stripe's events. The signature is checked with the SDK's own
 * `webhooks.constructEvent` over the raw body; the event is stored once by its id and processed by a job,
 * so a replayed or retried event is acknowledged and changes nothing.
 */
export function registerStripeWebhookRoute(app: FastifyInstance, deps: TBillingDeps) {
  void app.register(async (scope) => {
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => done(null, body));
    scope.post(
      '/payment/webhook/stripe',
      {
        schema: {
          tags: ['payment'],
          summary: 'Stripe webhook events (signed)',
          response: { 200: ZSuccess(z.object({ received: z.boolean(), duplicate: z.boolean() })), 400: ZFailure },
        },
      },
      async (req) => {
        const gw = await deps.gateway.get();
        const header = req.headers['stripe-signature'];
        let event;
        try {
          event = gw.stripe.webhooks.constructEvent(String(req.body ?? ''), typeof header === 'string' ? header : '', gw.webhookSecret);
        } catch {
          throw new AppError(400, 'malformed_request', 'The webhook signature is not valid.');
        }
        const duplicate = await deps.database.transaction(async (tx) => {
          const inserted = await tx
            .insert(paymentEvents)
            .values({ provider: 'stripe', eventId: event.id, type: event.type, payload: event as unknown as Record<string, unknown> })
            .onConflictDoNothing()
            .returning({ id: paymentEvents.eventId });
          if (inserted.length === 0) return true;
          await deps.queue.enqueue(STRIPE_EVENT_JOB, { event_id: event.id }, { tx });
          return false;
        });
        return ok({ received: true, duplicate });
      },
    );
  });
}
