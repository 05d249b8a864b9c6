import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ZActivitiesDownloadConfirmRequest,
  ZActivitiesDownloadRequest,
  ZActivitiesDownloadResponse,
  ZDownloadResponse,
  ZDownloadResultRequest,
  ZDownloadStatusQuery,
  ZExportRequest,
  ZFailure,
  ZListColumnsQuery,
  ZListColumnsResponse,
  ZPublicDownloadQuery,
} from '@verilead/contracts';
import { getCaller, type TGuards } from '../../platform/auth/guards';
import type { TDeps } from '../../platform/deps';
import { ok, withErrorResponses } from '../../platform/http/responses';
import { countActivityDownload, requestActivityDownload } from './activity-export';
import { getListColumns, requestListExport } from './list-export';
import { getDownloadStatus, openDownload } from './service';

export function registerDownloadRoutes(app: FastifyInstance, deps: TDeps, guards: TGuards) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { database, config } = deps;
  const { storage } = deps;
  const base = { tags: ['download'], security: [{ bearer: [] }] };
  const auth = { onRequest: guards.requireAuth };

  r.post(
    '/email_verify/list/export',
    {
      ...auth,
      schema: { ...base, tags: ['email_verify'], summary: 'Export a list in one of five formats (CSV or XLSX)', body: ZExportRequest, response: withErrorResponses({ 200: ZDownloadResponse }) },
    },
    async (req) => ok(await requestListExport(deps, getCaller(req), req.body)),
  );
  r.get(
    '/email_verify/list/columns',
    {
      ...auth,
      schema: { ...base, tags: ['email_verify'], summary: "The uploaded file's columns, to keep in a custom export", querystring: ZListColumnsQuery, response: withErrorResponses({ 200: ZListColumnsResponse }) },
    },
    async (req) => ok(await getListColumns(deps, storage, getCaller(req), req.query.list_id)),
  );
  r.post(
    '/download/result',
    { ...auth, schema: { ...base, summary: 'Prepare a result (or input) file of a list', body: ZDownloadResultRequest, response: withErrorResponses({ 200: ZDownloadResponse }) } },
    async (req) => ok(await requestListExport(deps, getCaller(req), req.body)),
  );
  r.get(
    '/download/result/status',
    { ...auth, schema: { ...base, summary: 'State of a prepared file, with an expiring link once ready', querystring: ZDownloadStatusQuery, response: withErrorResponses({ 200: ZDownloadResponse }) } },
    async (req) => ok(await getDownloadStatus(database.db, config.appSecret, getCaller(req), req.query.queue_id)),
  );
  r.post(
    '/download/activities',
    { ...auth, schema: { ...base, summary: 'Count the activities an export would hold', body: ZActivitiesDownloadRequest, response: withErrorResponses({ 200: ZActivitiesDownloadResponse }) } },
    async (req) => ok(await countActivityDownload(database.db, getCaller(req), req.body)),
  );
  r.post(
    '/download/activities/confirm',
    { ...auth, schema: { ...base, summary: 'Prepare the activity file', body: ZActivitiesDownloadConfirmRequest, response: withErrorResponses({ 200: ZDownloadResponse }) } },
    async (req) => ok(await requestActivityDownload(deps, getCaller(req), req.body)),
  );
  // /public/download_prospects and /public/user_activity_download: the same files, under the paths prospect and
  // activity links use (spec section 7).
  for (const path of ['/public/download', '/public/download_prospects', '/public/user_activity_download']) r.get(
    path,
    {
      config: { rateLimit: { max: config.rateLimit.publicMax, timeWindow: config.rateLimit.windowMs } },
      schema: { tags: ['public'], summary: 'Download a prepared file with its expiring token (no login)', querystring: ZPublicDownloadQuery, response: { 400: ZFailure, 404: ZFailure, 409: ZFailure, 410: ZFailure, 429: ZFailure } },
    },
    async (req, reply) => {
      const file = await openDownload(database.db, storage, config.appSecret, req.query.download_token);
      return reply
        .header('content-type', file.contentType)
        .header('content-length', String(file.size))
        .header('content-disposition', `attachment; filename="${file.fileName.replace(/[^\w.\- ]+/g, '_')}"`)
        .header('cache-control', 'no-store')
        .send(file.stream as never);
    },
  );
}
