import type { FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  BULK_FILE_SIZE_LIMIT_BYTES,
  ZBulkUploadResponse,
  ZCheckDuplicateRequest,
  ZCheckDuplicateResponse,
  ZFailure,
  ZInstantVerifyRequest,
  ZInstantVerifyResponse,
  ZListIdQuery,
  ZListIdRequest,
  ZListRemoveCheckResponse,
  ZListRemoveResponse,
  ZListVerifyRequest,
  ZProgressStatusResponse,
  ZPublicVerifyRequest,
  ZPublicVerifyResponse,
  ZRecentInstantQuery,
  ZRecentInstantResponse,
  ZUploadPreviewResponse,
  ZVerifyListResponse,
  ZVerifyListsRequest,
  ZVerifyListsResponse,
} from '@verilead/contracts';
import { getCaller, type TGuards } from '../../platform/auth/guards';
import { readUploadPart } from '../../platform/bulk-lists/upload-part';
import type { TDeps } from '../../platform/deps';
import { ok, withErrorResponses } from '../../platform/http/responses';
import { listRecentInstant, verifyInstant, verifyPublic } from './instant';
import { requestClosedSignal } from '../../platform/http/request-closed';
import {
  cancelListVerification,
  checkListRemoval,
  getProgressStatus,
  listVerifyLists,
  removeList,
  startListVerification,
} from './list-lifecycle';
import { checkDuplicateFileName, previewUpload, uploadList } from './upload-list';
import { registerReverifyRoutes } from './reverify-routes';

export function registerEmailVerifierRoutes(app: FastifyInstance, deps: TDeps, guards: TGuards) {
  const { database, config } = deps;
  const { storage, verifier } = deps;
  const base = { tags: ['email_verify'], security: [{ bearer: [] }] };
  const auth = { onRequest: guards.requireAuth };
  const errors402 = { 402: ZFailure };

  // Multipart uploads are parsed in this scope only, capped at 20,000,000 bytes.
  app.register(async (scope) => {
    await scope.register(multipart, { limits: { fileSize: BULK_FILE_SIZE_LIMIT_BYTES, files: 1, fields: 10, fieldSize: 10_000, parts: 12 } });
    const r = scope.withTypeProvider<ZodTypeProvider>();
    r.post(
      '/email_verify/bulk_upload',
      {
        ...auth,
        schema: {
          ...base,
          summary: 'Upload a CSV, XLSX or TXT file (multipart field "file"; fields list_name, email_column, has_header before it)',
          consumes: ['multipart/form-data'],
          response: { ...withErrorResponses({ 200: ZBulkUploadResponse }), 413: ZFailure, 415: ZFailure },
        },
      },
      async (req) => ok(await uploadList(deps, storage, getCaller(req), await readUploadPart(req))),
    );
    r.post(
      '/email_verify/bulk_upload/preview',
      {
        ...auth,
        schema: {
          ...base,
          summary: 'Preview the first rows of a file and the detected e-mail column (nothing is stored)',
          consumes: ['multipart/form-data'],
          response: { ...withErrorResponses({ 200: ZUploadPreviewResponse }), 413: ZFailure, 415: ZFailure },
        },
      },
      async (req) => ok(await previewUpload(storage, await readUploadPart(req))),
    );
  });

  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post(
    '/email_verify/instant',
    { ...auth, schema: { ...base, summary: 'Verify one address', body: ZInstantVerifyRequest, response: { ...withErrorResponses({ 200: ZInstantVerifyResponse }), ...errors402 } } },
    // a client that leaves stops its check: nothing is stored or charged unless the charge had begun
    async (req, reply) => ok(await verifyInstant(database, verifier, getCaller(req), req.body.email, { signal: requestClosedSignal(reply) })),
  );
  r.get(
    '/email_verify/instant/recent',
    { ...auth, schema: { ...base, summary: "The caller's recent instant results", querystring: ZRecentInstantQuery, response: withErrorResponses({ 200: ZRecentInstantResponse }) } },
    async (req) => ok(await listRecentInstant(database.db, getCaller(req), req.query.limit, req.query.source)),
  );
  r.post(
    '/email_verify/bulk_upload/check_duplicate',
    { ...auth, schema: { ...base, summary: 'Whether a file of this name was uploaded before', body: ZCheckDuplicateRequest, response: withErrorResponses({ 200: ZCheckDuplicateResponse }) } },
    async (req) => ok(await checkDuplicateFileName(database.db, getCaller(req), req.body.file_name)),
  );
  r.post(
    '/email_verify/list',
    { ...auth, schema: { ...base, summary: 'Lists, paged, searchable and sortable', body: ZVerifyListsRequest, response: withErrorResponses({ 200: ZVerifyListsResponse }) } },
    async (req) => ok(await listVerifyLists(database.db, getCaller(req), req.body)),
  );
  r.post(
    '/email_verify/list/verify',
    { ...auth, schema: { ...base, summary: 'Start verifying a list', body: ZListVerifyRequest, response: { ...withErrorResponses({ 200: ZVerifyListResponse }), ...errors402 } } },
    async (req) => ok(await startListVerification(deps, getCaller(req), req.body)),
  );
  r.post(
    '/email_verify/list/cancel',
    { ...auth, schema: { ...base, summary: 'Cancel a running verification', body: ZListIdRequest, response: withErrorResponses({ 200: ZVerifyListResponse }) } },
    async (req) => ok(await cancelListVerification(deps, getCaller(req), req.body.list_id)),
  );
  r.get(
    '/email_verify/list/remove',
    { ...auth, schema: { ...base, summary: 'Whether a list can be removed', querystring: ZListIdQuery, response: withErrorResponses({ 200: ZListRemoveCheckResponse }) } },
    async (req) => ok(await checkListRemoval(database.db, getCaller(req), req.query.list_id)),
  );
  r.post(
    '/email_verify/list/remove',
    { ...auth, schema: { ...base, summary: 'Remove a list and its results', body: ZListIdRequest, response: withErrorResponses({ 200: ZListRemoveResponse }) } },
    async (req) => ok(await removeList(deps, storage, getCaller(req), req.body.list_id)),
  );
  r.get(
    '/email_verify/bulk/progress_status',
    { ...auth, schema: { ...base, summary: 'Progress of a list', querystring: ZListIdQuery, response: withErrorResponses({ 200: ZProgressStatusResponse }) } },
    async (req) => ok(await getProgressStatus(database.db, getCaller(req), req.query.list_id)),
  );
  r.post(
    '/public/verify',
    {
      config: { rateLimit: { max: config.rateLimit.publicMax, timeWindow: config.rateLimit.windowMs } },
      schema: { tags: ['public'], summary: 'Verify one address without an account (rate-limited per IP)', body: ZPublicVerifyRequest, response: withErrorResponses({ 200: ZPublicVerifyResponse }) },
    },
    async (req) => ok(await verifyPublic(verifier, req.body.email)),
  );
  registerReverifyRoutes(app, deps, guards);
}
