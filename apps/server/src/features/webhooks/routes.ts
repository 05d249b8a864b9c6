import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ZWebhookDeleteResponse,
  ZWebhookEventLogResponse,
  ZWebhookEventLogsRequest,
  ZWebhookEventLogsResponse,
  ZWebhookIdParams,
  ZWebhookListQuery,
  ZWebhookListResponse,
  ZWebhookNameListResponse,
  ZWebhookRedeliverRequest,
  ZWebhookResponse,
  ZWebhookTestRequest,
  ZWebhookTokenResponse,
  ZWebhookUpsertRequest,
} from '@verilead/contracts';
import { getCaller, type TGuards } from '../../platform/auth/guards';
import type { TDeps } from '../../platform/deps';
import { ok, withErrorResponses } from '../../platform/http/responses';
import {
  generateWebhookSecret,
  getWebhook,
  getWebhookSecret,
  listEventLogs,
  listWebhookNames,
  listWebhooks,
  redeliverEvent,
  removeWebhook,
  saveWebhook,
  sendTestEvent,
  type TWebhookRuntime,
} from './service';

/** Webhooks: endpoints, the signing secret, test events, event logs and redelivery (under /api/v1). */
export function registerWebhookRoutes(app: FastifyInstance, deps: TDeps, guards: TGuards, rtOverrides: Partial<TWebhookRuntime> = {}) {
  const { database } = deps;
  const db = database.db;
  const rt: TWebhookRuntime = { config: deps.config, ...rtOverrides };
  const base = { tags: ['webhook'], security: [{ bearer: [] }] };
  const auth = { onRequest: guards.requireAuth };
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/webhook/list',
    { ...auth, schema: { ...base, summary: "The organisation's webhooks", querystring: ZWebhookListQuery, response: withErrorResponses({ 200: ZWebhookListResponse }) } },
    async (req) => ok(await listWebhooks(db, getCaller(req), req.query)),
  );
  r.get(
    '/webhook/name_list',
    { ...auth, schema: { ...base, summary: 'Webhook ids and names (for filters)', response: withErrorResponses({ 200: ZWebhookNameListResponse }) } },
    async (req) => ok(await listWebhookNames(db, getCaller(req))),
  );
  r.get(
    '/webhook/token',
    { ...auth, schema: { ...base, summary: 'The signing secret of webhook deliveries', response: withErrorResponses({ 200: ZWebhookTokenResponse }) } },
    async (req) => ok(await getWebhookSecret(db, rt, getCaller(req))),
  );
  r.post(
    '/webhook/token',
    { ...auth, schema: { ...base, summary: 'Generate a new signing secret', response: withErrorResponses({ 200: ZWebhookTokenResponse }) } },
    async (req) => ok(await generateWebhookSecret(db, rt, getCaller(req))),
  );
  r.get(
    '/webhook/:id',
    { ...auth, schema: { ...base, summary: 'One webhook', params: ZWebhookIdParams, response: withErrorResponses({ 200: ZWebhookResponse }) } },
    async (req) => ok(await getWebhook(db, getCaller(req), req.params.id)),
  );
  r.post(
    '/webhook',
    {
      ...auth,
      schema: { ...base, summary: 'Create a webhook, or update one when webhook_id is given', body: ZWebhookUpsertRequest, response: withErrorResponses({ 200: ZWebhookResponse }) },
    },
    async (req) => ok(await saveWebhook(db, rt, getCaller(req), req.body)),
  );
  r.delete(
    '/webhook/:id',
    { ...auth, schema: { ...base, summary: 'Delete a webhook', params: ZWebhookIdParams, response: withErrorResponses({ 200: ZWebhookDeleteResponse }) } },
    async (req) => ok(await removeWebhook(db, getCaller(req), req.params.id)),
  );
  r.post(
    '/webhook/test',
    { ...auth, schema: { ...base, summary: 'Send a test event now and answer its log', body: ZWebhookTestRequest, response: withErrorResponses({ 200: ZWebhookEventLogResponse }) } },
    async (req) => ok(await sendTestEvent(database, rt, getCaller(req), req.body.webhook_id)),
  );
  r.post(
    '/webhook/event_logs',
    {
      ...auth,
      schema: { ...base, summary: 'Delivery logs (filter by webhook, event, status, dates; paged)', body: ZWebhookEventLogsRequest, response: withErrorResponses({ 200: ZWebhookEventLogsResponse }) },
    },
    async (req) => ok(await listEventLogs(db, getCaller(req), req.body)),
  );
  r.post(
    '/webhook/event_logs/redeliver',
    { ...auth, schema: { ...base, summary: 'Deliver a logged event again', body: ZWebhookRedeliverRequest, response: withErrorResponses({ 200: ZWebhookEventLogResponse }) } },
    async (req) => ok(await redeliverEvent(deps, getCaller(req), req.body.delivery_id)),
  );
}
