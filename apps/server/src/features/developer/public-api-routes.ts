import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import {
  BULK_FILE_SIZE_LIMIT_BYTES,
  PUBLIC_API_ERROR_CODES as CODES,
  PUBLIC_API_PREFIX,
  RATE_WINDOW_SECONDS,
  ZFinderListsRequest,
  ZInstantFindRequest,
  type TVerificationResult,
} from '@verilead/contracts';
import { detectFileType, FileParseError, readRows } from '../../platform/bulk/file-parsing';
import type { TDeps } from '../../platform/deps';
import { isAppError } from '../../platform/errors/app-error';
import { getStorage } from '../../platform/storage/storage';
import { getVerifier } from '../../platform/verifier/verifier';
import { getCreditsAndLimits } from '../credits/service';
import { getDownloadStatus, requestListExport } from '../downloads/service';
import {
  cancelFindEmails,
  downloadListResult,
  findInstant,
  getFinderProgress,
  getQueueStatus,
  listFinderLists,
  removeFinderList,
} from '../email-finder/service';
import {
  cancelListVerification,
  getListForExport,
  getProgressStatus,
  ensureListVerification,
  removeList,
  uploadList,
  verifyInstant,
  type TUploadPart,
} from '../email-verifier/service';
import {
  buildPublicFailure,
  buildValidationFailure,
  detectFinderColumns,
  findTestVerdict,
  toPublicFinderData,
  toPublicVerdict,
  type TPublicFailure,
} from './public-api-format';
import { uploadFinderList } from '../email-finder/list-upload';
import { createRateLimiter, type TRateLimiter } from './rate-limiter';
import { AppCreditLimitReached, chargeAppUsage, checkAppCreditLimit, recordAppUsage, resolveAppToken, type TAppCaller } from './service';

/** The reference document (a copy of spec/reference/clearout-public-api-v2.openapi.yaml), served at /v2/openapi.json. */
export const REFERENCE_DOCUMENT_PATH = join(dirname(fileURLToPath(import.meta.url)), 'public-api-v2.openapi.yaml');

const INVALID_TOKEN = 'Invalid API Token, please generate new token';
const NO_CREDITS = 'You have exhausted your credits, please add additional credits to continue';
const DAILY_LIMIT = 'You have reached daily verify limit, please try next day or contact us@clearout.io';
const LIFE_TIME_LIMIT = 'You have reached the credit limit of this app, please raise it on the Apps page';
const LIST_NOT_AVAILABLE = 'List is not available';
const DEFAULT_TIMEOUT_MS = 130_000;

/** Codes of the reference's Email finder operations (beside the shared PUBLIC_API_ERROR_CODES). */
export const FINDER_ERROR_CODES = {
  /** 200: a name with characters no address can hold. */
  unsupportedName: 1088,
  /** 402 on instant: no credit left for a search. */
  instantNoCredits: 1099,
  /** 402 on bulk: too few credits to start finding a list. */
  bulkNoCredits: 1028,
  /** 200 on bulk: the file is missing, not CSV/XLSX, unreadable or has no name and domain columns. */
  invalidFile: 1100,
  /** 200 on queue_status: no such queued search. */
  invalidQueueId: 1104,
  /** 200 on queue_status: the queued search has not finished yet. */
  stillQueued: 1105,
} as const;
const FINDER_TIMEOUT_BOUNDS = { min: 1_000, max: 60_000, default: 30_000 } as const;

/** A failure with the HTTP status it is answered with. */
class PublicApiError extends Error {
  constructor(
    readonly httpStatus: number,
    readonly body: TPublicFailure,
  ) {
    super(body.error.message);
  }
}

const fail = (httpStatus: number, code: number | null, message: string, extra: Omit<TPublicFailure['error'], 'code' | 'message'> = {}) =>
  new PublicApiError(httpStatus, buildPublicFailure(code, message, extra));

/** A timeout in milliseconds: an integer, or a string of digits (form posts); `true` or `[]` are not numbers. */
const ZTimeoutMs = z
  .union([z.number(), z.string().trim().regex(/^\d+$/, { message: 'must be a number' })])
  .transform((v) => Number(v))
  .pipe(z.number().int().min(1).max(180_000));
const ZEmailBody = z.object({ email: z.string().trim().min(1).max(320), timeout: ZTimeoutMs.optional() });
const ZListIdBody = z.object({ list_id: z.string().trim().min(1) });
const ZRemoveBody = ZListIdBody.extend({ ignore_result: z.union([z.boolean(), z.string()]).optional() });
const ZFinderInstantBody = z.object({
  name: z.string().trim().min(1).max(300),
  domain: z.string().trim().min(1).max(253),
  timeout: ZTimeoutMs.optional(),
  queue: z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]).optional(),
});
const ZQidQuery = z.object({ qid: z.string().trim().min(1) });

/** Parses a body or query against a schema, failing in the reference's validation shape. */
function parseInput<S extends z.ZodType>(schema: S, value: unknown, location: 'body' | 'query'): z.output<S> {
  const parsed = schema.safeParse(value ?? {});
  if (parsed.success) return parsed.data;
  throw new PublicApiError(
    400,
    buildValidationFailure(
      parsed.error.issues.map((i) => {
        const field = String(i.path[0] ?? 'body');
        const missing = i.code === 'invalid_type' && (i as { input?: unknown }).input === undefined;
        const empty = i.code === 'too_small';
        return {
          field,
          location,
          message: missing ? `"${field}" is required` : empty ? `"${field}" is not allowed to be empty` : `"${field}" ${i.message}`,
          type: missing ? 'any.required' : empty ? 'any.empty' : 'any.invalid',
        };
      }),
    ),
  );
}

/** The multipart file part; a body that is not valid multipart answers the reference's validation failure. */
async function readPublicFile(req: FastifyRequest) {
  try {
    return await req.file();
  } catch {
    throw new PublicApiError(400, buildValidationFailure([{ field: 'file', location: 'body', message: '"file" must be sent as multipart/form-data', type: 'any.invalid' }]));
  }
}

const isUuid = (v: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(v);

/** Maps a Verilead service error to the public API's answer. */
function mapServiceError(err: unknown, notFound: { status: number; code: number; message: string } = { status: 200, code: CODES.listNotAvailable, message: LIST_NOT_AVAILABLE }): never {
  if (err instanceof PublicApiError) throw err;
  if (isAppError(err)) {
    // The member's own limits first: they answer 402 too, but the organisation is not out of credits.
    if (err.code === 'daily_limit_exceeded') throw fail(200, CODES.dailyLimit, DAILY_LIMIT);
    if (err.code === 'life_time_limit_exceeded') throw fail(200, CODES.dailyLimit, err.message);
    if (err.httpStatus === 402) throw fail(402, CODES.noCredits, NO_CREDITS);
    if (err.httpStatus === 404) throw fail(notFound.status, notFound.code, notFound.message);
    if (err.httpStatus === 400 || err.httpStatus === 413 || err.httpStatus === 415) {
      const field = err.extra.reasons?.[0]?.field ?? 'file';
      throw new PublicApiError(400, buildValidationFailure([{ field, location: 'body', message: err.message, type: 'any.invalid' }]));
    }
  }
  throw err;
}

/** The reason a /v2 call's own timeout cancels its verification with. */
class InstantTimeout extends Error {
  constructor() {
    super('Timeout Occurred');
    this.name = 'InstantTimeout';
  }
}

async function sleep(ms: number) {
  await new Promise((r) => setTimeout(r, ms));
}

/** The reference document as JSON, its server pointed at this server's /v2. */
export function loadPublicApiDocument(publicUrl: string): Record<string, unknown> {
  const doc = parseYaml(readFileSync(REFERENCE_DOCUMENT_PATH, 'utf8')) as Record<string, unknown>;
  return { ...doc, servers: [{ url: `${publicUrl}${PUBLIC_API_PREFIX}` }] };
}

export type TPublicApiOptions = { rateLimiter?: TRateLimiter; pollIntervalMs?: number; waitLimitMs?: number };

/**
 * The Clearout-compatible public API under /v2: app-token auth, per-app rate limits with
 * X-RateLimit-* headers on every answer, credit limits, and the reference's envelopes and codes.
 * Every operation calls the product's services (email-verifier, downloads, credits).
 */
export async function registerPublicApiRoutes(app: FastifyInstance, deps: TDeps, opts: TPublicApiOptions = {}) {
  const { database, config } = deps;
  const storage = getStorage(config);
  const verifier = getVerifier(config);
  const limiter = opts.rateLimiter ?? createRateLimiter();
  const pollMs = opts.pollIntervalMs ?? 200;
  const waitLimitMs = opts.waitLimitMs ?? 120_000;
  const callers = new WeakMap<FastifyRequest, TAppCaller>();
  const caller = (req: FastifyRequest): TAppCaller => {
    const c = callers.get(req);
    if (!c) throw fail(401, CODES.invalidToken, INVALID_TOKEN);
    return c;
  };
  let documentCache: Record<string, unknown> | null = null;

  await app.register(
    async (v2) => {
      // The public API has its own document (/v2/openapi.json): keep its routes out of the app API's.
      v2.addHook('onRoute', (route) => {
        route.schema = { ...(route.schema ?? {}), hide: true };
      });
      await v2.register(multipart, { limits: { fileSize: BULK_FILE_SIZE_LIMIT_BYTES, files: 1, fields: 10, fieldSize: 10_000, parts: 12 } });

      v2.setErrorHandler((err: unknown, req, reply) => {
        if (err instanceof PublicApiError) return reply.status(err.httpStatus).send(err.body);
        // Input refused by the shared checks (e.g. NUL characters or broken Unicode): the reference's validation failure.
        if (isAppError(err) && err.httpStatus >= 400 && err.httpStatus < 500) {
          const reason = err.extra.reasons?.[0];
          const location = reason?.location === 'query' ? 'query' : 'body';
          if (err.httpStatus === 400) return reply.status(400).send(buildValidationFailure([{ field: reason?.field ?? 'body', location, message: err.message, type: 'any.invalid' }]));
          return reply.status(err.httpStatus).send(buildPublicFailure(null, err.message));
        }
        const status = (err as { statusCode?: number }).statusCode;
        if (status && status >= 400 && status < 500) {
          return reply.status(400).send(buildValidationFailure([{ field: 'body', location: 'body', message: (err as Error).message, type: 'any.invalid' }]));
        }
        req.log.error({ err }, 'public api error');
        return reply.status(503).send(buildPublicFailure(null, 'Service unavailable, please try again shortly'));
      });

      async function applyRate(reply: FastifyReply, key: string, max: number, windowSeconds: number) {
        const d = await limiter.hit(key, max, windowSeconds);
        reply.header('X-RateLimit-Limit', String(d.limit));
        reply.header('X-RateLimit-Remaining', String(d.remaining));
        reply.header('X-RateLimit-Reset', String(Math.ceil(d.resetAt / 1000)));
        if (!d.allowed) {
          reply.header('Retry-After', String(d.retryAfterSeconds));
          throw fail(429, null, `You have reached API rate limit, try calling after ${new Date(d.resetAt).toString()} or to increase limit raise the app's rate limit`);
        }
      }

      // Authentication and rate limits for every operation (the document itself is public).
      v2.addHook('onRequest', async (req, reply) => {
        // CORS preflight of browser (client) apps: the real call is then checked against the app's origins.
        if (req.method === 'OPTIONS') return;
        if (req.url.split('?')[0] === `${PUBLIC_API_PREFIX}/openapi.json`) {
          await applyRate(reply, `v2doc|${req.ip}`, config.rateLimit.publicMax, Math.ceil(config.rateLimit.windowMs / 1000));
          return;
        }
        const header = req.headers.authorization ?? '';
        const token = /^Bearer\s+(\S+)$/i.exec(header.trim())?.[1] ?? '';
        const found = token ? await resolveAppToken(database.db, token) : null;
        if (!found) {
          await applyRate(reply, `v2anon|${req.ip}`, config.rateLimit.publicMax, Math.ceil(config.rateLimit.windowMs / 1000));
          throw fail(401, CODES.invalidToken, INVALID_TOKEN);
        }
        const rate = found.app.rateLimit;
        await applyRate(reply, `v2app|${found.app.id}|${rate.scope === 'ip' ? req.ip : '*'}`, rate.max, RATE_WINDOW_SECONDS[rate.window]);
        if (found.app.type === 'client') {
          const origin = req.headers.origin;
          if (!origin || !found.app.allowedOrigins.includes(origin)) throw fail(401, CODES.notAuthorized, 'This origin is not allowed to use this app token');
          reply.header('Access-Control-Allow-Origin', origin);
          reply.header('Vary', 'Origin');
        }
        callers.set(req, found);
      });

      v2.options('/*', async (req, reply) => {
        const origin = req.headers.origin;
        if (origin) reply.header('Access-Control-Allow-Origin', origin).header('Vary', 'Origin');
        return reply
          .header('Access-Control-Allow-Methods', 'GET, POST')
          .header('Access-Control-Allow-Headers', 'authorization, content-type')
          .header('Access-Control-Max-Age', '600')
          .status(204)
          .send();
      });

      v2.get('/openapi.json', async () => (documentCache ??= loadPublicApiDocument(config.publicUrl)));

      async function requireCreditRoom(c: TAppCaller, credits = 1) {
        const reached = await checkAppCreditLimit(database.db, c.app, credits);
        if (reached === 'daily') throw fail(200, CODES.dailyLimit, DAILY_LIMIT);
        if (reached === 'life_time') throw fail(200, CODES.dailyLimit, LIFE_TIME_LIMIT);
      }

      /** One verification through the product's instant verify (billed by its rule), or a test address's fixed verdict. */
      async function verifyOne(req: FastifyRequest): Promise<TVerificationResult> {
        const c = caller(req);
        const body = parseInput(ZEmailBody, req.body, 'body');
        const test = findTestVerdict(body.email);
        if (test) {
          await recordAppUsage(database.db, c.app, 0);
          return test;
        }
        await requireCreditRoom(c);
        // The timeout cancels the verification: a 524 is answered only when nothing was stored or charged; a call whose
        // charge had begun completes and answers its result. The app's usage and credit limit move in the charge itself.
        const timeout = new InstantTimeout();
        const controller = new AbortController();
        const timer = setTimeout(() => controller.abort(timeout), body.timeout ?? DEFAULT_TIMEOUT_MS);
        try {
          const result = await verifyInstant(database, verifier, c.ctx, body.email, {
            signal: controller.signal,
            onCharge: (tx, credits) => chargeAppUsage(tx, c.app, credits),
          });
          if (result.credits_charged === 0) await recordAppUsage(database.db, c.app, 0);
          return result;
        } catch (err) {
          if (err === timeout) throw fail(524, null, 'Timeout Occurred', { additional_info: { resource_name: 'email', resource_value: body.email } });
          if (err instanceof AppCreditLimitReached) throw fail(200, CODES.dailyLimit, err.limit === 'daily' ? DAILY_LIMIT : LIFE_TIME_LIMIT);
          return mapServiceError(err);
        } finally {
          clearTimeout(timer);
        }
      }

      v2.get('/email_verify/getcredits', async (req) => {
        const c = caller(req);
        const credits = await getCreditsAndLimits(database.db, c.ctx);
        const daily = credits.limits.daily;
        const tomorrow = new Date();
        tomorrow.setUTCHours(24, 0, 0, 0);
        return {
          status: 'success',
          data: {
            available_credits: credits.credits,
            credits: {
              available: credits.credits,
              ...(daily.remaining !== null ? { available_daily_verify_limit: String(daily.remaining), reset_daily_verify_limit_date: tomorrow.toISOString() } : {}),
              total: credits.org_credits,
            },
            low_credit_balance_min_threshold: credits.low_credit_alert.threshold,
          },
        };
      });

      v2.post('/email_verify/instant', async (req) => ({ status: 'success', data: toPublicVerdict(await verifyOne(req)) }));

      const single = (path: string, field: string, read: (r: TVerificationResult) => boolean) =>
        v2.post(path, async (req) => {
          const r = await verifyOne(req);
          return { status: 'success', data: { email_address: r.email, [field]: read(r) ? 'yes' : 'no', verified_on: r.verified_on, time_taken: Math.round(r.time_taken) } };
        });
      single('/email/verify/catchall', 'catchall', (r) => r.status === 'catch_all');
      single('/email/verify/disposable', 'disposable', (r) => r.disposable);
      single('/email/verify/business', 'business_account', (r) => !r.free_account && !r.disposable);
      single('/email/verify/free', 'free_account', (r) => r.free_account);
      single('/email/verify/role', 'role_account', (r) => r.role_account);
      single('/email/verify/gibberish', 'gibberish', (r) => r.gibberish);

      v2.post('/email_verify/bulk', async (req) => {
        const c = caller(req);
        if (!req.isMultipart()) throw new PublicApiError(400, buildValidationFailure([{ field: 'file', location: 'body', message: '"file" is required', type: 'any.required' }]));
        const data = await readPublicFile(req);
        if (!data || data.fieldname !== 'file') throw new PublicApiError(400, buildValidationFailure([{ field: 'file', location: 'body', message: '"file" is required', type: 'any.required' }]));
        await requireCreditRoom(c);
        const part: TUploadPart = { filename: data.filename, file: data.file, fields: {} };
        try {
          // A retry of the same file (same app owner, name and bytes) within a day answers the list it made: never charged twice.
          const list = await uploadList(deps, storage, c.ctx, part, { reuseRetried: true });
          // The upload is analysed by a job; verification starts once it is ready.
          const deadline = Date.now() + waitLimitMs;
          for (;;) {
            const progress = await getProgressStatus(database.db, c.ctx, list.id);
            if (progress.analysis.state === 'ready') break;
            if (progress.analysis.state === 'failed') {
              throw new PublicApiError(400, buildValidationFailure([{ field: 'file', location: 'body', message: progress.analysis.error ?? 'The file could not be read', type: 'any.invalid' }]));
            }
            if (Date.now() > deadline) throw fail(503, null, 'The file is still being analysed; please try again shortly');
            await sleep(pollMs);
          }
          // Auto-pilot may have started it already: either way the list is verifying, and that is the answer.
          await ensureListVerification(deps, c.ctx, list.id);
          await recordAppUsage(database.db, c.app, 0);
          return { status: 'success', data: { list_id: list.id } };
        } catch (err) {
          return mapServiceError(err);
        }
      });

      const progressLabel: Record<string, string> = { verified: 'completed', in_progress: 'running', cancelled: 'cancelled', non_verified: 'queued' };
      v2.get('/email_verify/bulk/progress_status', async (req) => {
        const c = caller(req);
        const { list_id } = parseInput(ZListIdBody, req.query, 'query');
        if (!isUuid(list_id)) throw fail(200, CODES.notAuthorized, 'You are not authorized to access this resource');
        try {
          const p = await getProgressStatus(database.db, c.ctx, list_id);
          return { status: 'success', data: { progress_status: progressLabel[p.state] ?? p.state, percentile: p.progress } };
        } catch (err) {
          return mapServiceError(err, { status: 200, code: CODES.notAuthorized, message: 'You are not authorized to access this resource' });
        }
      });

      v2.post('/download/result', async (req) => {
        const c = caller(req);
        const { list_id } = parseInput(ZListIdBody, req.body, 'body');
        if (!isUuid(list_id)) throw fail(200, CODES.listNotAvailable, LIST_NOT_AVAILABLE);
        try {
          const requested = await requestListExport(deps, c.ctx, { list_id, kind: 'result', format: 'standard', file_type: 'csv' });
          const deadline = Date.now() + waitLimitMs;
          for (let d = requested; ; d = await getDownloadStatus(database.db, config.appSecret, c.ctx, requested.download_id)) {
            if (d.state === 'success' && d.download_url) return { status: 'success', data: { url: `${config.publicUrl}${d.download_url}` } };
            if (d.state === 'expired') throw fail(200, CODES.fileExpired, 'Result file got expired, contact support');
            if (d.state === 'failed' || d.state === 'cancelled') throw fail(503, null, d.error ?? 'The result file could not be prepared');
            if (Date.now() > deadline) throw fail(503, null, 'The result file is still being prepared; please try again shortly');
            await sleep(pollMs);
          }
        } catch (err) {
          return mapServiceError(err);
        }
      });

      async function describeList(c: TAppCaller, listId: string) {
        if (!isUuid(listId)) throw fail(200, CODES.listNotAvailable, LIST_NOT_AVAILABLE);
        try {
          const list = await getListForExport(database.db, c.ctx, listId);
          return { name: list.fileName, source: 'upload' };
        } catch (err) {
          return mapServiceError(err);
        }
      }

      v2.post('/email_verify/list/remove', async (req) => {
        const c = caller(req);
        const { list_id } = parseInput(ZRemoveBody, req.body, 'body');
        const view = await describeList(c, list_id);
        try {
          await removeList(deps, storage, c.ctx, list_id);
        } catch (err) {
          if (isAppError(err) && err.httpStatus === 409) throw fail(200, CODES.notCancellable, 'List is not in the removable stage, cancel the verification first');
          return mapServiceError(err);
        }
        return { status: 'success', data: view };
      });

      v2.post('/email_verify/list/cancel', async (req) => {
        const c = caller(req);
        const { list_id } = parseInput(ZListIdBody, req.body, 'body');
        await describeList(c, list_id);
        try {
          const list = await cancelListVerification(deps, c.ctx, list_id);
          return { status: 'success', data: { name: list.file_name, source: list.source, created_on: list.created_at } };
        } catch (err) {
          if (isAppError(err) && err.httpStatus === 409) throw fail(200, CODES.notCancellable, 'List is not in the cancellable stage');
          return mapServiceError(err);
        }
      });
      // ---------- Email finder (the finder feature's services; only found addresses are charged) ----------

      const finderFailure = (code: number, message: string) => fail(200, code, message);

      /** Maps a finder service error: 400s become the operation's own failure, 404 the given one, 409 "not in the stage". */
      function mapFinderError(err: unknown, onNotFound: PublicApiError, onConflict?: PublicApiError, onInvalid?: (message: string, field: string) => PublicApiError): never {
        if (err instanceof PublicApiError) throw err;
        if (isAppError(err)) {
          if (err.httpStatus === 404) throw onNotFound;
          if (err.httpStatus === 409 && onConflict) throw onConflict;
          if ((err.httpStatus === 400 || err.httpStatus === 413 || err.httpStatus === 415) && onInvalid) throw onInvalid(err.message, err.extra.reasons?.[0]?.field ?? 'body');
        }
        return mapServiceError(err);
      }

      v2.post('/email_finder/instant', async (req) => {
        const c = caller(req);
        const body = parseInput(ZFinderInstantBody, req.body, 'body');
        const timeout = Math.min(FINDER_TIMEOUT_BOUNDS.max, Math.max(FINDER_TIMEOUT_BOUNDS.min, body.timeout ?? FINDER_TIMEOUT_BOUNDS.default));
        // The service always queues a slow search (a durable job finishes it); with queue=false the answer just omits its id.
        const parsed = ZInstantFindRequest.safeParse({ name: body.name, domain: body.domain, timeout, queue: true });
        if (!parsed.success) {
          const issue = parsed.error.issues[0];
          if (issue && issue.path[0] === 'name' && /unsupported characters/i.test(issue.message)) throw finderFailure(FINDER_ERROR_CODES.unsupportedName, 'Unsupported characters in name fields');
          const field = String(issue?.path[0] ?? 'body');
          throw new PublicApiError(400, buildValidationFailure([{ field, location: 'body', message: `"${field}" ${issue?.message ?? 'is invalid'}`, type: 'any.invalid' }]));
        }
        await requireCreditRoom(c);
        try {
          const found = await findInstant(deps, verifier, c.ctx, parsed.data);
          if (found.queued) {
            await recordAppUsage(database.db, c.app, 0);
            throw fail(524, null, 'Timeout Occurred', {
              additional_info: { resource_name: 'email_finder', resource_value: `${body.name} ${body.domain}`, ...(body.queue === false ? {} : { queue_id: found.qid }) },
            });
          }
          await recordAppUsage(database.db, c.app, found.credits_charged);
          return { status: 'success', data: toPublicFinderData(found) };
        } catch (err) {
          if (isAppError(err) && err.httpStatus === 402) throw fail(402, FINDER_ERROR_CODES.instantNoCredits, 'You do not have sufficient credits for instant email finder');
          return mapFinderError(err, fail(503, null, 'Service unavailable, please try again shortly'), undefined, (message, field) =>
            new PublicApiError(400, buildValidationFailure([{ field: field === 'last_name' ? 'name' : field, location: 'body', message, type: 'any.invalid' }])),
          );
        }
      });

      v2.get('/email_finder/instant/queue_status', async (req) => {
        const c = caller(req);
        const { qid } = parseInput(ZQidQuery, req.query, 'query');
        const invalid = finderFailure(FINDER_ERROR_CODES.invalidQueueId, 'Invalid queue ID');
        if (!isUuid(qid)) throw invalid;
        try {
          const q = await getQueueStatus(database.db, c.ctx, qid);
          if (q.state === 'completed' && q.result) return { status: 'success', data: toPublicFinderData(q.result) };
          if (q.state === 'failed') throw fail(503, null, q.error ?? 'The search failed; please try again');
          return buildPublicFailure(FINDER_ERROR_CODES.stillQueued, 'The request is still in the queue, please try again after some time');
        } catch (err) {
          return mapFinderError(err, invalid);
        }
      });

      v2.post('/email_finder/bulk', async (req) => {
        const c = caller(req);
        const invalidFile = (message: string) => finderFailure(FINDER_ERROR_CODES.invalidFile, message);
        if (!req.isMultipart()) throw invalidFile('"file" is required');
        const data = await readPublicFile(req);
        if (!data || data.fieldname !== 'file') throw invalidFile('"file" is required');
        const fileType = detectFileType(data.filename);
        if (fileType !== 'csv' && fileType !== 'xlsx') {
          data.file.resume();
          throw invalidFile('Invalid file type');
        }
        // The reference takes only the file: read it (≤ 20,000,000 bytes) to map its columns from the header row.
        const chunks: Buffer[] = [];
        for await (const chunk of data.file) chunks.push(chunk as Buffer);
        if (data.file.truncated) throw invalidFile(`The file is larger than ${BULK_FILE_SIZE_LIMIT_BYTES.toLocaleString('en-US')} bytes; please split it`);
        const content = Buffer.concat(chunks);
        let header: string[] | null = null;
        try {
          for await (const cells of readRows(Readable.from([content]), fileType)) {
            if (cells.every((cell) => cell.trim() === '')) continue;
            header = cells;
            break;
          }
        } catch (err) {
          if (err instanceof FileParseError) throw invalidFile(err.message);
          throw invalidFile('The file could not be read');
        }
        if (!header) throw invalidFile('The file is empty');
        const mapping = detectFinderColumns(header);
        if (!mapping) throw invalidFile('The file needs a name column (first and last name, or full name) and a domain (or company) column');
        const credits = await getCreditsAndLimits(database.db, c.ctx);
        const noCredits = (required: number) =>
          fail(402, FINDER_ERROR_CODES.bulkNoCredits, `Your available credits ${credits.credits} is not enough to find email addresses from the list, so please purchase ${required} more credits`, {
            additional_info: { required_credits: required },
          });
        if (credits.credits < 1) throw noCredits(1 - credits.credits);
        await requireCreditRoom(c);
        try {
          // The search starts by itself once the file is read (no waiting here).
          const list = await uploadFinderList(deps, storage, c.ctx, { filename: data.filename, file: Readable.from([content]), fields: { ...mapping, has_header: 'true' } }, { autoStart: true });
          await recordAppUsage(database.db, c.app, 0);
          return { status: 'success', data: { list_id: list.id } };
        } catch (err) {
          if (isAppError(err) && err.httpStatus === 402) {
            const required = Number((err.extra.additional_info as { required_credits?: number } | undefined)?.required_credits ?? 1);
            throw noCredits(required);
          }
          return mapFinderError(err, fail(503, null, 'Service unavailable, please try again shortly'), undefined, (message) => invalidFile(message));
        }
      });

      const finderProgressLabel: Record<string, string> = { processed: 'completed', in_progress: 'running', cancelled: 'cancelled', not_processed: 'queued' };
      v2.get('/email_finder/bulk/progress_status', async (req) => {
        const c = caller(req);
        const { list_id } = parseInput(ZListIdBody, req.query, 'query');
        const notAuthorized = fail(200, CODES.notAuthorized, 'You are not authorized to access this resource');
        if (!isUuid(list_id)) throw notAuthorized;
        try {
          const p = await getFinderProgress(database.db, c.ctx, list_id);
          const label = p.state === 'not_processed' && p.stopped_reason ? 'stopped' : (finderProgressLabel[p.state] ?? p.state);
          return { status: 'success', data: { progress_status: label, percentage: p.progress } };
        } catch (err) {
          return mapFinderError(err, notAuthorized);
        }
      });

      const listNotAvailable = () => fail(200, CODES.listNotAvailable, LIST_NOT_AVAILABLE);

      v2.post('/email_finder/download/result', async (req) => {
        const c = caller(req);
        const { list_id } = parseInput(ZListIdBody, req.body, 'body');
        if (!isUuid(list_id)) throw listNotAvailable();
        try {
          const d = await downloadListResult(deps, storage, c.ctx, { list_id, format: 'all', file_type: 'csv' });
          if (d.state !== 'success' || !d.download_url) throw fail(503, null, 'The result file could not be prepared');
          return { status: 'success', data: { url: d.download_url } };
        } catch (err) {
          return mapFinderError(err, listNotAvailable());
        }
      });

      /** The reference's view of a finder list (name, source, created_on), or 1029. */
      async function describeFinderList(c: TAppCaller, listId: string) {
        if (!isUuid(listId)) throw listNotAvailable();
        const found = await listFinderLists(database.db, c.ctx, ZFinderListsRequest.parse({ list_id: listId }));
        const list = found.items[0];
        if (!list) throw listNotAvailable();
        return { name: list.file_name, source: 'upload', created_on: list.created_at };
      }

      v2.post('/email_finder/list/remove', async (req) => {
        const c = caller(req);
        const { list_id } = parseInput(ZRemoveBody, req.body, 'body');
        const view = await describeFinderList(c, list_id);
        try {
          await removeFinderList(deps, storage, c.ctx, list_id);
        } catch (err) {
          return mapFinderError(err, listNotAvailable(), fail(200, CODES.notCancellable, 'List is not in the removable stage, cancel the bulk finding first'));
        }
        return { status: 'success', data: view };
      });

      v2.post('/email_finder/list/cancel', async (req) => {
        const c = caller(req);
        const { list_id } = parseInput(ZListIdBody, req.body, 'body');
        if (!isUuid(list_id)) throw listNotAvailable();
        try {
          const list = await cancelFindEmails(deps, c.ctx, list_id);
          return { status: 'success', data: { name: list.file_name, source: 'upload', created_on: list.created_at } };
        } catch (err) {
          return mapFinderError(err, listNotAvailable(), fail(200, CODES.notCancellable, 'List is not in the cancellable stage'));
        }
      });
    },
    { prefix: PUBLIC_API_PREFIX },
  );
}
