import type { FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  BULK_FILE_SIZE_LIMIT_BYTES,
  ZFailure,
  ZFinderBulkUploadResponse,
  ZFinderCheckDuplicateRequest,
  ZFinderCheckDuplicateResponse,
  ZFinderDownloadResponse,
  ZFinderDownloadResultRequest,
  ZFinderHistoryDownloadRequest,
  ZFinderHistoryDownloadResponse,
  ZFinderHistoryQuery,
  ZFinderHistoryResponse,
  ZFinderListCancelRequest,
  ZFinderListRemoveRequest,
  ZFinderListRemoveResponse,
  ZFinderListResponse,
  ZFinderListsRequest,
  ZFinderListsResponse,
  ZFinderProgressQuery,
  ZFinderProgressResponse,
  ZFinderPublicDownloadQuery,
  ZFindEmailsRequest,
  ZInstantFindRequest,
  ZInstantFindResponse,
  ZQueueStatusQuery,
  ZQueueStatusResponse,
} from '@verilead/contracts';
import { getCaller, type TGuards } from '../../platform/auth/guards';
import { readUploadPart } from '../../platform/bulk-lists/upload-part';
import type { TDeps } from '../../platform/deps';
import { ok, withErrorResponses } from '../../platform/http/responses';
import { downloadHistory, downloadListResult } from './finder-downloads';
import { openDownload } from '../downloads';
import { listHistory } from './history';
import { findInstant, getQueueStatus } from './instant-find';
import { cancelFindEmails, removeFinderList, startFindEmails } from './list-lifecycle';
import { checkFinderDuplicate, getFinderProgress, listFinderLists } from './list-queries';
import { uploadFinderList } from './list-upload';

export function registerEmailFinderRoutes(app: FastifyInstance, deps: TDeps, guards: TGuards) {
  const { database, config } = deps;
  const { storage, verifier } = deps;
  const base = { tags: ['email_finder'], security: [{ bearer: [] }] };
  const auth = { onRequest: guards.requireAuth };

  app.register(async (scope) => {
    await scope.register(multipart, { limits: { fileSize: BULK_FILE_SIZE_LIMIT_BYTES, files: 1, fields: 12, fieldSize: 10_000, parts: 14 } });
    scope.withTypeProvider<ZodTypeProvider>().post(
      '/email_finder/bulk_upload',
      {
        ...auth,
        schema: {
          ...base,
          summary:
            'Upload a CSV or XLSX file of people (multipart field "file"; fields list_name, first_name_column, last_name_column, middle_name_column, full_name_column, domain_column, company_column, has_header before it)',
          consumes: ['multipart/form-data'],
          response: { ...withErrorResponses({ 200: ZFinderBulkUploadResponse }), 413: ZFailure, 415: ZFailure },
        },
      },
      async (req) => ok(await uploadFinderList(deps, storage, getCaller(req), await readUploadPart(req))),
    );
  });

  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post(
    '/email_finder/instant',
    {
      ...auth,
      schema: { ...base, summary: 'Find the address of a person from a name and a domain (or a qid to poll when slow)', body: ZInstantFindRequest, response: { ...withErrorResponses({ 200: ZInstantFindResponse }), 402: ZFailure, 503: ZFailure } },
    },
    async (req) => ok(await findInstant(deps, verifier, getCaller(req), req.body)),
  );
  r.get(
    '/email_finder/instant/queue_status',
    { ...auth, schema: { ...base, summary: 'The result of a queued instant search', querystring: ZQueueStatusQuery, response: withErrorResponses({ 200: ZQueueStatusResponse }) } },
    async (req) => ok(await getQueueStatus(database.db, getCaller(req), req.query.qid)),
  );
  r.post(
    '/email_finder/bulk_upload/check_duplicate',
    { ...auth, schema: { ...base, summary: 'Whether a file of this name was uploaded before', body: ZFinderCheckDuplicateRequest, response: withErrorResponses({ 200: ZFinderCheckDuplicateResponse }) } },
    async (req) => ok(await checkFinderDuplicate(database.db, getCaller(req), req.body.file_name)),
  );
  r.post(
    '/email_finder/list',
    { ...auth, schema: { ...base, summary: 'Finder lists, paged, searchable and sortable', body: ZFinderListsRequest, response: withErrorResponses({ 200: ZFinderListsResponse }) } },
    async (req) => ok(await listFinderLists(database.db, getCaller(req), req.body)),
  );
  r.post(
    '/email_finder/list/find_emails',
    { ...auth, schema: { ...base, summary: 'Start finding the emails of a list', body: ZFindEmailsRequest, response: { ...withErrorResponses({ 200: ZFinderListResponse }), 402: ZFailure } } },
    async (req) => ok(await startFindEmails(deps, getCaller(req), req.body.list_id)),
  );
  r.post(
    '/email_finder/list/cancel',
    { ...auth, schema: { ...base, summary: 'Cancel a running list (what finished stays billed)', body: ZFinderListCancelRequest, response: withErrorResponses({ 200: ZFinderListResponse }) } },
    async (req) => ok(await cancelFindEmails(deps, getCaller(req), req.body.list_id)),
  );
  r.post(
    '/email_finder/list/remove',
    { ...auth, schema: { ...base, summary: 'Remove a list and its results', body: ZFinderListRemoveRequest, response: withErrorResponses({ 200: ZFinderListRemoveResponse }) } },
    async (req) => ok(await removeFinderList(deps, storage, getCaller(req), req.body.list_id)),
  );
  r.get(
    '/email_finder/bulk/progress_status',
    { ...auth, schema: { ...base, summary: 'Progress of a finder list', querystring: ZFinderProgressQuery, response: withErrorResponses({ 200: ZFinderProgressResponse }) } },
    async (req) => ok(await getFinderProgress(database.db, getCaller(req), req.query.list_id)),
  );
  r.post(
    '/email_finder/download/result',
    { ...auth, schema: { ...base, summary: 'Prepare the results file of a list (CSV or XLSX) with an expiring link', body: ZFinderDownloadResultRequest, response: withErrorResponses({ 200: ZFinderDownloadResponse }) } },
    async (req) => ok(await downloadListResult(deps, getCaller(req), req.body)),
  );
  r.get(
    '/email_finder/history',
    { ...auth, schema: { ...base, summary: 'Instant finder history, paged and filterable', querystring: ZFinderHistoryQuery, response: withErrorResponses({ 200: ZFinderHistoryResponse }) } },
    async (req) => ok(await listHistory(database.db, getCaller(req), req.query)),
  );
  r.post(
    '/email_finder/history/download',
    { ...auth, schema: { ...base, summary: 'Prepare the history file (CSV or XLSX) with an expiring link', body: ZFinderHistoryDownloadRequest, response: withErrorResponses({ 200: ZFinderHistoryDownloadResponse }) } },
    async (req) => ok(await downloadHistory(deps, getCaller(req), req.body)),
  );
  r.get(
    '/public/download_email_finder_history',
    {
      config: { rateLimit: { max: config.rateLimit.publicMax, timeWindow: config.rateLimit.windowMs } },
      schema: { tags: ['public'], summary: 'Download a prepared finder file (history or list results) with its expiring token (no login)', querystring: ZFinderPublicDownloadQuery, response: { 400: ZFailure, 404: ZFailure, 410: ZFailure, 429: ZFailure } },
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
