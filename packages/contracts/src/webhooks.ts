import { z } from 'zod';
import { ZDateTimeInput, ZPage, ZPageSize } from './common';

/** The events a webhook can subscribe to (spec section 9). */
export const WEBHOOK_EVENTS = [
  'email_verifier.instant.completed',
  'email_verifier.bulk.completed',
  'email_finder.instant.completed',
  'email_finder.instant.failed',
  'email_finder.bulk.completed',
  'form_guard.email_validation.completed',
] as const;
export const ZWebhookEvent = z.enum(WEBHOOK_EVENTS);
export type TWebhookEvent = z.infer<typeof ZWebhookEvent>;
/** The event type `POST /webhook/test` sends. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';

/** Headers of every delivery. The signature is HMAC-SHA256(secret, `${timestamp}.${body}`), hex, prefixed `sha256=`. */
export const WEBHOOK_SIGNATURE_HEADER = 'x-verilead-signature';
export const WEBHOOK_TIMESTAMP_HEADER = 'x-verilead-timestamp';
export const WEBHOOK_EVENT_HEADER = 'x-verilead-event';
export const WEBHOOK_DELIVERY_HEADER = 'x-verilead-delivery';
export const WEBHOOK_TIMEOUT_MS = 30_000;

export const ZWebhookStatus = z.enum(['active', 'inactive']);
export type TWebhookStatus = z.infer<typeof ZWebhookStatus>;

export const ZWebhookUpsertRequest = z.object({
  /** Present: update that webhook; absent: create one. */
  webhook_id: z.uuid().optional(),
  name: z.string().trim().min(1, { message: 'Please enter a name' }).max(100),
  url: z
    .string()
    .trim()
    .max(2000)
    .regex(/^https?:\/\/\S+$/i, { message: 'Please enter an http(s) URL' }),
  events: z.array(ZWebhookEvent).min(1, { message: 'Choose at least one event' }),
  status: ZWebhookStatus.default('active'),
});
export type TWebhookUpsertRequest = z.input<typeof ZWebhookUpsertRequest>;

export const ZWebhook = z.object({
  id: z.string(),
  name: z.string(),
  url: z.string(),
  events: z.array(ZWebhookEvent),
  status: ZWebhookStatus,
  created_at: z.string(),
  updated_at: z.string(),
});
export type TWebhook = z.infer<typeof ZWebhook>;

export const ZWebhookIdParams = z.object({ id: z.uuid({ message: 'id must be a webhook id' }) });
export const ZWebhookListQuery = z.object({ page: ZPage.default(1), limit: ZPageSize.default(25) });
export const ZWebhookResponse = z.object({ status: z.literal('success'), data: ZWebhook });
export const ZWebhookListResponse = z.object({
  status: z.literal('success'),
  data: z.object({ items: z.array(ZWebhook), total: z.number().int() }),
});
export const ZWebhookNameListResponse = z.object({
  status: z.literal('success'),
  data: z.object({ items: z.array(z.object({ id: z.string(), name: z.string() })) }),
});
export const ZWebhookDeleteResponse = z.object({ status: z.literal('success'), data: z.object({ message: z.string() }) });

/** The organisation's signing secret (null until generated). */
export const ZWebhookTokenResponse = z.object({ status: z.literal('success'), data: z.object({ secret: z.string().nullable() }) });

export const ZWebhookTestRequest = z.object({ webhook_id: z.uuid() });

export const ZDeliveryStatus = z.enum(['pending', 'success', 'failed']);
export type TDeliveryStatus = z.infer<typeof ZDeliveryStatus>;

export const ZWebhookAttempt = z.object({
  attempt: z.number().int(),
  status_code: z.number().int().nullable(),
  latency_ms: z.number().int(),
  error: z.string().nullable(),
  created_at: z.string(),
});
export type TWebhookAttempt = z.infer<typeof ZWebhookAttempt>;

export const ZWebhookEventLog = z.object({
  id: z.string(),
  webhook_id: z.string(),
  webhook_name: z.string(),
  event_id: z.string(),
  event_type: z.string(),
  status: ZDeliveryStatus,
  attempts: z.array(ZWebhookAttempt),
  next_attempt_at: z.string().nullable(),
  created_at: z.string(),
});
export type TWebhookEventLog = z.infer<typeof ZWebhookEventLog>;

export const ZWebhookEventLogsRequest = z.object({
  page: ZPage.default(1),
  limit: ZPageSize.default(25),
  webhook_id: z.uuid().optional(),
  event_type: z.string().max(100).optional(),
  status: ZDeliveryStatus.optional(),
  from: ZDateTimeInput.optional(),
  to: ZDateTimeInput.optional(),
});
export type TWebhookEventLogsRequest = z.input<typeof ZWebhookEventLogsRequest>;
export const ZWebhookEventLogsResponse = z.object({
  status: z.literal('success'),
  data: z.object({ items: z.array(ZWebhookEventLog), total: z.number().int() }),
});
export const ZWebhookEventLogResponse = z.object({ status: z.literal('success'), data: ZWebhookEventLog });
export const ZWebhookRedeliverRequest = z.object({ delivery_id: z.uuid() });
