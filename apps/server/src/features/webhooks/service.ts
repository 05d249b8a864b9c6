import { randomBytes, randomUUID } from 'node:crypto';
import { recordAudit } from '../../platform/audit/record';
import {
  WEBHOOK_DELIVERY_HEADER,
  WEBHOOK_EVENT_HEADER,
  WEBHOOK_SIGNATURE_HEADER,
  WEBHOOK_TEST_EVENT,
  WEBHOOK_TIMEOUT_MS,
  WEBHOOK_TIMESTAMP_HEADER,
  canSeeMemberObject,
  type TRole,
  type TWebhook,
  type TWebhookEvent,
  type TWebhookEventLog,
  type ZWebhookEventLogsRequest,
  type ZWebhookUpsertRequest,
} from '@verilead/contracts';
import type { z } from 'zod';
import type { TConfig } from '../../config';
import type { TDatabase, TDb } from '../../platform/db/database';
import type { TDeps } from '../../platform/deps';
import { AppError, throwNotFound } from '../../platform/errors/app-error';
import type { TJobQueue } from '../../platform/jobs/jobs';
import { createOutboundClient, outboundPolicyOf, postGuarded, type TOutboundConfig } from '../../platform/outbound-http/client';
import { OutboundRefusedError, resolveDestination, type TLookup, type TOutboundPolicy } from '../../platform/outbound-http/guard';
import { getVisibleScope, type TCallerContext } from '../../platform/tenancy/context';
import {
  countAttempts,
  deleteWebhook,
  insertAttempt,
  insertDelivery,
  insertWebhook,
  saveCursor,
  selectAttempts,
  selectCursor,
  selectDeliveries,
  selectDelivery,
  selectEventsAfter,
  selectOrgDelivery,
  selectSecret,
  selectSubscribers,
  selectWebhook,
  selectWebhookById,
  selectWebhookNames,
  selectWebhooks,
  updateDelivery,
  updateWebhook,
  upsertSecret,
  type TDeliveryRow,
  type TWebhookRow,
} from './queries';
import { decryptSecret, encryptSecret, signPayload } from './secret-box';

export const DELIVER_JOB = 'webhooks.deliver';
export const DISPATCH_JOB = 'webhooks.dispatch';
/** Retries: 12 attempts, back-off 45 s doubling (the last retry lands about 25 hours after the event). */
export const DELIVERY_MAX_ATTEMPTS = 12;
export const DELIVERY_BACKOFF_MS = 45_000;

export type TWebhookRuntime = {
  config: Pick<TConfig, 'appSecret'> & TOutboundConfig;
  /** Base back-off of retries (tests shorten it). */
  backoffMs?: number;
  lookup?: TLookup;
  timeoutMs?: number;
};

function toWebhookView(row: TWebhookRow): TWebhook {
  return {
    id: row.id,
    name: row.name,
    url: row.url,
    events: row.events as TWebhookEvent[],
    status: row.status,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** The outbound policy of webhook destinations (a test's `lookup` replaces the configured resolver). */
function policyOf(rt: TWebhookRuntime): TOutboundPolicy {
  const policy = outboundPolicyOf(rt.config);
  return rt.lookup ? { ...policy, lookup: rt.lookup } : policy;
}

/** Refuses a destination the delivery could never reach (private addresses when not allowed, bad URLs). */
async function checkDestination(rt: TWebhookRuntime, url: string): Promise<void> {
  try {
    await resolveDestination(url, policyOf(rt));
  } catch (err) {
    if (err instanceof OutboundRefusedError) {
      throw new AppError('validation_failed', err.message, { reasons: [{ field: 'url', location: 'body', messages: [err.message] }] });
    }
    throw err;
  }
}

/** POST /webhook: creates, or updates when `webhook_id` is given. */
export async function saveWebhook(exec: TDb, rt: TWebhookRuntime, ctx: TCallerContext, input: z.output<typeof ZWebhookUpsertRequest>): Promise<TWebhook> {
  await checkDestination(rt, input.url);
  const values = { name: input.name, url: input.url, events: input.events, status: input.status };
  if (input.webhook_id) {
    // An Executive changes only the webhooks they created (another member's answers 404, as on the list).
    const row = await updateWebhook(exec, getVisibleScope(ctx), input.webhook_id, values);
    if (!row) throwNotFound('Webhook');
    await recordAudit(exec, ctx, { action: 'webhook.updated', targetType: 'webhook', targetId: row.id, details: { name: values.name, url: values.url, events: values.events, status: values.status } });
    return toWebhookView(row);
  }
  // The organisation's signing secret exists from its first webhook on.
  if (!(await selectSecret(exec, ctx.orgId))) await upsertSecret(exec, ctx.orgId, encryptSecret(rt.config.appSecret, newSecret()));
  const created = await insertWebhook(exec, { orgId: ctx.orgId, createdBy: ctx.userId, ...values });
  await recordAudit(exec, ctx, { action: 'webhook.created', targetType: 'webhook', targetId: created.id, details: { name: values.name, url: values.url, events: values.events } });
  return toWebhookView(created);
}

export async function listWebhooks(exec: TDb, ctx: TCallerContext, q: { page: number; limit: number }) {
  const { rows, total } = await selectWebhooks(exec, getVisibleScope(ctx), q.page, q.limit);
  return { items: rows.map(toWebhookView), total };
}

export async function listWebhookNames(exec: TDb, ctx: TCallerContext) {
  return { items: await selectWebhookNames(exec, getVisibleScope(ctx)) };
}

export async function getWebhook(exec: TDb, ctx: TCallerContext, id: string): Promise<TWebhook> {
  const row = await selectWebhook(exec, getVisibleScope(ctx), id);
  if (!row) throwNotFound('Webhook');
  return toWebhookView(row);
}

export async function removeWebhook(exec: TDb, ctx: TCallerContext, id: string) {
  const deleted = await deleteWebhook(exec, getVisibleScope(ctx), id);
  if (!deleted) throwNotFound('Webhook');
  // The name with the entry: the webhook row is gone, and the audit log should still say which one it was.
  await recordAudit(exec, ctx, { action: 'webhook.deleted', targetType: 'webhook', targetId: id, details: { name: deleted.name } });
  return { message: 'Webhook deleted' };
}

function newSecret(): string {
  return `whsec_${randomBytes(24).toString('base64url')}`;
}

/** GET /webhook/token: the organisation's signing secret (null until one exists). */
export async function getWebhookSecret(exec: TDb, rt: TWebhookRuntime, ctx: TCallerContext): Promise<{ secret: string | null }> {
  const box = await selectSecret(exec, ctx.orgId);
  return { secret: box ? decryptSecret(rt.config.appSecret, box) : null };
}

/** POST /webhook/token: generates a new signing secret (the old one stops signing at once). */
export async function generateWebhookSecret(exec: TDb, rt: TWebhookRuntime, ctx: TCallerContext): Promise<{ secret: string }> {
  const secret = newSecret();
  await upsertSecret(exec, ctx.orgId, encryptSecret(rt.config.appSecret, secret));
  return { secret };
}

// ---------- delivery ----------

function buildBody(eventId: string, type: string, createdAt: string, data: Record<string, unknown>) {
  return { id: eventId, type, created_at: createdAt, data };
}

type TAttemptOutcome = { ok: boolean; statusCode: number | null; latencyMs: number; error: string | null; refused: boolean };

/** Sends a delivery once and logs the attempt (status code and latency). */
async function attemptDelivery(database: TDatabase, rt: TWebhookRuntime, delivery: TDeliveryRow, webhook: TWebhookRow): Promise<TAttemptOutcome> {
  const box = await selectSecret(database.db, delivery.orgId);
  const secret = box ? decryptSecret(rt.config.appSecret, box) : '';
  const body = JSON.stringify(delivery.body);
  const timestamp = String(Math.floor(Date.now() / 1000));
  const started = performance.now();
  let outcome: TAttemptOutcome;
  // Delivery checks the destination again when it connects (a name may resolve elsewhere since it was saved).
  const client = createOutboundClient(policyOf(rt));
  try {
    const res = await postGuarded(
      client,
      webhook.url,
      body,
      {
        [WEBHOOK_SIGNATURE_HEADER]: signPayload(secret, timestamp, body),
        [WEBHOOK_TIMESTAMP_HEADER]: timestamp,
        [WEBHOOK_EVENT_HEADER]: delivery.eventType,
        [WEBHOOK_DELIVERY_HEADER]: delivery.id,
      },
      { timeoutMs: rt.timeoutMs ?? WEBHOOK_TIMEOUT_MS },
    );
    const ok = res.statusCode >= 200 && res.statusCode < 300;
    outcome = { ok, statusCode: res.statusCode, latencyMs: res.latencyMs, error: ok ? null : res.statusCode >= 300 && res.statusCode < 400 ? `HTTP ${res.statusCode} (a redirect; redirects are not followed)` : `HTTP ${res.statusCode}`, refused: false };
  } catch (err) {
    outcome = {
      ok: false,
      statusCode: null,
      latencyMs: Math.round(performance.now() - started),
      error: (err as Error).message.slice(0, 500),
      refused: err instanceof OutboundRefusedError,
    };
  }
  void client.close().catch(() => undefined);
  const attempt = (await countAttempts(database.db, delivery.id)) + 1;
  await insertAttempt(database.db, { deliveryId: delivery.id, attempt, statusCode: outcome.statusCode, latencyMs: outcome.latencyMs, error: outcome.error });
  return outcome;
}

/**
 * The delivery job: one attempt; on failure it throws so the queue retries with exponential back-off
 * until the last attempt, which marks the delivery failed. A refused destination is not retried.
 */
export async function runDeliveryJob(database: TDatabase, rt: TWebhookRuntime, deliveryId: string, job: { attempt: number; maxAttempts: number }) {
  const delivery = await selectDelivery(database.db, deliveryId);
  if (!delivery || delivery.status === 'success') return;
  const webhook = await selectWebhookById(database.db, delivery.webhookId);
  if (!webhook) return;
  const outcome = await attemptDelivery(database, rt, delivery, webhook);
  if (outcome.ok) {
    await updateDelivery(database.db, deliveryId, { status: 'success', nextAttemptAt: null });
    return;
  }
  if (outcome.refused || job.attempt >= job.maxAttempts) {
    await updateDelivery(database.db, deliveryId, { status: 'failed', nextAttemptAt: null });
    return;
  }
  const backoff = rt.backoffMs ?? DELIVERY_BACKOFF_MS;
  await updateDelivery(database.db, deliveryId, { status: 'pending', nextAttemptAt: new Date(Date.now() + backoff * 2 ** (job.attempt - 1)) });
  throw new Error(`Delivery ${deliveryId} failed: ${outcome.error ?? 'no answer'}`);
}

/**
 * The dispatcher: reads new rows of the events table (after a durable cursor, at least `lagMs` old so
 * late commits are not skipped), creates one delivery per subscribed active webhook and enqueues its
 * job in the same transaction. Idempotent (one delivery per webhook and event). Answers how many events it read.
 */
export async function dispatchWebhookEvents(database: TDatabase, queue: TJobQueue, opts: { lagMs?: number; batch?: number; backoffMs?: number } = {}): Promise<number> {
  return database.transaction(async (tx) => {
    const cursor = await selectCursor(tx);
    const batch = await selectEventsAfter(tx, cursor, opts.lagMs ?? 2_000, opts.batch ?? 500);
    // The subscribers of an organisation's event type, read once per batch (a busy API writes hundreds of alike events).
    const subscribersOf = new Map<string, Awaited<ReturnType<typeof selectSubscribers>>>();
    for (const event of batch) {
      const key = `${event.orgId}|${event.type}`;
      let subscribers = subscribersOf.get(key);
      if (!subscribers) {
        subscribers = await selectSubscribers(tx, event.orgId, event.type);
        subscribersOf.set(key, subscribers);
      }
      for (const webhook of subscribers) {
        // An Executive's webhook carries what the Executive sees: their own events (lists, searches, checks), not the
        // organisation's (MEMBER_OBJECT_VISIBILITY).
        if (webhook.creatorRole && !canSeeMemberObject(webhook.creatorRole as TRole, webhook.createdBy ?? '', event.userId ?? '')) continue;
        const created = await insertDelivery(tx, {
          orgId: event.orgId,
          webhookId: webhook.id,
          eventId: event.id,
          eventType: event.type,
          body: buildBody(event.id, event.type, new Date(event.createdAt).toISOString(), event.payload),
        });
        if (created) {
          await queue.enqueue(
            DELIVER_JOB,
            { deliveryId: created.id },
            { tx, orgId: event.orgId, maxAttempts: DELIVERY_MAX_ATTEMPTS, backoffMs: opts.backoffMs ?? DELIVERY_BACKOFF_MS },
          );
        }
      }
    }
    const last = batch[batch.length - 1];
    if (last) await saveCursor(tx, last.createdAt, last.id);
    return batch.length;
  });
}

// ---------- test, logs, redelivery ----------

async function toEventLogs(exec: TDb, rows: { d: TDeliveryRow; webhookName: string }[]): Promise<TWebhookEventLog[]> {
  const attempts = await selectAttempts(
    exec,
    rows.map((r) => r.d.id),
  );
  return rows.map(({ d, webhookName }) => ({
    id: d.id,
    webhook_id: d.webhookId,
    webhook_name: webhookName,
    event_id: d.eventId,
    event_type: d.eventType,
    status: d.status,
    attempts: attempts
      .filter((a) => a.deliveryId === d.id)
      .map((a) => ({ attempt: a.attempt, status_code: a.statusCode, latency_ms: a.latencyMs, error: a.error, created_at: a.createdAt.toISOString() })),
    next_attempt_at: d.nextAttemptAt?.toISOString() ?? null,
    created_at: d.createdAt.toISOString(),
  }));
}

async function getEventLog(exec: TDb, ctx: TCallerContext, deliveryId: string): Promise<TWebhookEventLog> {
  const d = await selectOrgDelivery(exec, getVisibleScope(ctx), deliveryId);
  if (!d) throwNotFound('Event log');
  const webhook = await selectWebhook(exec, getVisibleScope(ctx), d.webhookId);
  return (await toEventLogs(exec, [{ d, webhookName: webhook?.name ?? '' }]))[0]!;
}

/** POST /webhook/test: sends a `webhook.test` event now (one attempt, logged) and answers its log. */
export async function sendTestEvent(database: TDatabase, rt: TWebhookRuntime, ctx: TCallerContext, webhookId: string): Promise<TWebhookEventLog> {
  const webhook = await selectWebhook(database.db, getVisibleScope(ctx), webhookId);
  if (!webhook) throwNotFound('Webhook');
  const eventId = randomUUID();
  const delivery = await insertDelivery(database.db, {
    orgId: ctx.orgId,
    webhookId: webhook.id,
    eventId,
    eventType: WEBHOOK_TEST_EVENT,
    body: buildBody(eventId, WEBHOOK_TEST_EVENT, new Date().toISOString(), { message: 'A test event from Verilead', webhook_id: webhook.id }),
  });
  const outcome = await attemptDelivery(database, rt, delivery!, webhook);
  await updateDelivery(database.db, delivery!.id, { status: outcome.ok ? 'success' : 'failed' });
  return getEventLog(database.db, ctx, delivery!.id);
}

/** POST /webhook/event_logs: deliveries with their attempts, filtered and paged. */
export async function listEventLogs(exec: TDb, ctx: TCallerContext, q: z.output<typeof ZWebhookEventLogsRequest>) {
  const { rows, total } = await selectDeliveries(exec, getVisibleScope(ctx), {
    page: q.page,
    limit: q.limit,
    webhookId: q.webhook_id,
    eventType: q.event_type,
    status: q.status,
    from: q.from ? new Date(q.from) : undefined,
    to: q.to ? new Date(q.to) : undefined,
  });
  return { items: await toEventLogs(exec, rows), total };
}

/** POST /webhook/event_logs/redeliver: queues one more attempt of a logged event. */
export async function redeliverEvent(deps: Pick<TDeps, 'database' | 'queue'>, ctx: TCallerContext, deliveryId: string): Promise<TWebhookEventLog> {
  const d = await selectOrgDelivery(deps.database.db, getVisibleScope(ctx), deliveryId);
  if (!d) throwNotFound('Event log');
  await deps.database.transaction(async (tx) => {
    await updateDelivery(tx, d.id, { status: 'pending', nextAttemptAt: new Date() });
    await deps.queue.enqueue(DELIVER_JOB, { deliveryId: d.id }, { tx, orgId: ctx.orgId, maxAttempts: 1 });
  });
  return getEventLog(deps.database.db, ctx, d.id);
}
