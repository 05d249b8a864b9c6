import { hashToken } from '../../platform/auth/tokens';
import type { FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  BULK_FILE_SIZE_LIMIT_BYTES,
  ZBounceApplyRequest,
  ZBounceReportPreviewResponse,
  ZBounceReportResponse,
  ZBounceReportsQuery,
  ZBounceReportsResponse,
  ZBounceWebhookReceiptResponse,
  ZBounceWebhookResponse,
  ZBounceWebhookSetRequest,
  ZBounceWebhooksResponse,
  ZFailure,
  ZSuccess,
} from '@verilead/contracts';
import { getCaller, type TGuards } from '../../platform/auth/guards';
import { readUploadPart } from '../../platform/bulk-lists/upload-part';
import type { TDeps } from '../../platform/deps';
import { ok, withErrorResponses } from '../../platform/http/responses';
import { applyBounceReport, listBounceReports, uploadBounceReport } from './reports';
import { listBounceWebhooks, receiveBounceWebhook, requireWebhook, setBounceWebhook } from './webhooks';

const ZTokenParams = z.object({ token: z.string().min(1).max(200) });
/** An ESP's webhook body: read raw (SendGrid's signature covers the exact bytes). */
const MAX_WEBHOOK_BYTES = 5 * 1024 * 1024;

export function registerBounceRoutes(app: FastifyInstance, deps: TDeps, guards: TGuards) {
  const base = { tags: ['bounces'], security: [{ bearer: [] }] };
  const auth = { onRequest: guards.requireAuth };
  const r = app.withTypeProvider<ZodTypeProvider>();

  app.register(async (scope) => {
    await scope.register(multipart, { limits: { fileSize: BULK_FILE_SIZE_LIMIT_BYTES, files: 1, fields: 5, fieldSize: 1_000, parts: 6 } });
    scope.withTypeProvider<ZodTypeProvider>().post(
      '/bounces/reports/upload',
      {
        ...auth,
        schema: {
          ...base,
          summary: "Upload a campaign's bounce report (CSV, XLSX or TXT from any ESP, multipart field \"file\"): stored and previewed with the detected columns, nothing applied",
          consumes: ['multipart/form-data'],
          response: { ...withErrorResponses({ 200: ZBounceReportPreviewResponse }), 413: ZFailure, 415: ZFailure },
        },
      },
      async (req) => ok(await uploadBounceReport(deps, getCaller(req), await readUploadPart(req))),
    );
  });
  r.post(
    '/bounces/reports/apply',
    {
      ...auth,
      schema: {
        ...base,
        summary: 'Apply an uploaded report with the confirmed columns: hard bounces mark results invalid and credit back valid verdicts within the guarantee (once)',
        body: ZBounceApplyRequest,
        response: withErrorResponses({ 200: ZBounceReportResponse }),
      },
    },
    async (req) => ok(await applyBounceReport(deps, getCaller(req), req.body)),
  );
  r.get(
    '/bounces/reports',
    { ...auth, schema: { ...base, summary: "The organisation's bounce reports, newest first, and the guarantee's days", querystring: ZBounceReportsQuery, response: withErrorResponses({ 200: ZBounceReportsResponse }) } },
    async (req) => ok(await listBounceReports(deps, getCaller(req), req.query)),
  );
  r.get(
    '/bounces/webhooks',
    { ...auth, schema: { ...base, summary: "The organisation's ESP bounce webhooks (SendGrid, Mailchimp) and their addresses", response: withErrorResponses({ 200: ZBounceWebhooksResponse }) } },
    async (req) => ok(await listBounceWebhooks(deps, getCaller(req))),
  );
  r.post(
    '/bounces/webhooks',
    {
      ...auth,
      schema: { ...base, summary: "Create an ESP's bounce webhook (or rotate its address, or set SendGrid's verification key)", body: ZBounceWebhookSetRequest, response: withErrorResponses({ 200: ZBounceWebhookResponse }) },
    },
    async (req) => ok(await setBounceWebhook(deps, getCaller(req), req.body)),
  );

  // The ESPs' posts: the raw body as text (SendGrid JSON, signed; Mailchimp form fields).
  app.register(async (scope) => {
    scope.removeContentTypeParser('application/json');
    const asText = { parseAs: 'string' as const, bodyLimit: MAX_WEBHOOK_BYTES };
    scope.addContentTypeParser('application/json', asText, (_req, body, done) => done(null, body));
    scope.addContentTypeParser('application/x-www-form-urlencoded', asText, (_req, body, done) => done(null, body));
    const s = scope.withTypeProvider<ZodTypeProvider>();
    const tags = ['bounces'];
    // Per address (its token), in every API process together with REDIS_URL: an ESP's batches fit, a leaked address
    // cannot be used to flood the organisation's results.
    const perAddress = {
      rateLimit: {
        max: deps.config.rateLimit.webhookMax,
        timeWindow: deps.config.rateLimit.windowMs,
        // keyed by the token's hash: the secret itself never sits in the rate-limit store (Redis)
        keyGenerator: (req: { params: unknown; ip: string }) => `bounce-hook:${hashToken((req.params as { token?: string }).token ?? req.ip)}`,
      },
    };
    s.post(
      '/public/bounces/:token',
      {
        config: perAddress,
        schema: {
          tags,
          summary: "An ESP's bounce events (SendGrid Event Webhook JSON, ECDSA-signed when a key is set; Mailchimp's form-encoded `cleaned` events)",
          params: ZTokenParams,
          consumes: ['application/json', 'application/x-www-form-urlencoded'],
          response: { 200: ZBounceWebhookReceiptResponse, 400: ZFailure, 401: ZFailure, 404: ZFailure, 413: ZFailure, 415: ZFailure, 429: ZFailure },
        },
      },
      async (req) =>
        ok(await receiveBounceWebhook(deps, req.params.token, { rawBody: typeof req.body === 'string' ? req.body : '', contentType: String(req.headers['content-type'] ?? ''), headers: req.headers })),
    );
    s.get(
      '/public/bounces/:token',
      { config: perAddress, schema: { tags, summary: "Mailchimp's check of a webhook address (200 when it exists)", params: ZTokenParams, response: { 200: ZSuccess(z.object({ platform: z.string() })), 400: ZFailure, 404: ZFailure, 429: ZFailure } } },
      async (req) => ok({ platform: (await requireWebhook(deps, req.params.token)).platform }),
    );
  });
}
