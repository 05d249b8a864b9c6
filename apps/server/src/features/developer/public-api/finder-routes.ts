import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { BULK_FILE_SIZE_LIMIT_BYTES, detectFinderColumns, PUBLIC_API_ERROR_CODES as CODES, ZFinderListsRequest } from '@verilead/contracts';
import { detectFileType, FileParseError, readRows } from '../../../platform/bulk/file-parsing';
import type { TDeps } from '../../../platform/deps';
import { isAppError } from '../../../platform/errors/app-error';
import { httpStatusOf } from '../../../platform/errors/http-status';
import type { TFileStorage } from '../../../platform/storage/storage';
import type { TVerifier } from '../../../platform/verifier/verifier';
import { getCreditsAndLimits } from '../../credits';
import { downloadListResult, getQueueStatus, cancelFindEmails, removeFinderList, getFinderProgress, listFinderLists, uploadFinderList } from '../../email-finder';
import { buildPublicFailure, FINDER_DETECTION_ROWS, toFinderUploadMapping, toPublicFinderData } from '../public-api-format';
import { recordAppUsage, type TAppCaller } from '../service';
import { publicCaller, publicRateLimit } from './auth';
import { fail, FINDER_ERROR_CODES, invalidInput, isUuid, LIST_NOT_AVAILABLE, parseInput, readPublicFile, UPLOAD_INTERRUPTED, ZListIdBody, ZRemoveBody, ZTimeoutMs } from './errors';
import { findForApp, mapFinderError } from './finder-service';
import { requireAppCreditRoom } from './instant-service';
import { waitForPreparedFile } from './list-service';

const FINDER_TIMEOUT_BOUNDS = { min: 1_000, max: 60_000, default: 30_000 } as const;
const ZFinderInstantBody = z.object({
  name: z.string().trim().min(1).max(300),
  domain: z.string().trim().min(1).max(253),
  timeout: ZTimeoutMs.optional(),
  queue: z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]).optional(),
});
const ZQidQuery = z.object({ qid: z.string().trim().min(1) });

/** /v2 Email finder: the finder feature's services (only found addresses are charged). */
export function registerPublicFinderRoutes(v2: FastifyInstance, deps: TDeps, verifier: TVerifier, storage: TFileStorage, opts: { waitLimitMs?: number } = {}): void {
  const config = { rateLimit: publicRateLimit(deps) };

  const finderFailure = (code: number, message: string) => fail(200, code, message);

  v2.post('/email_finder/instant', { config }, async (req) => {
    const c = publicCaller(req);
    const body = parseInput(ZFinderInstantBody, req.body, 'body');
    const timeout = Math.min(FINDER_TIMEOUT_BOUNDS.max, Math.max(FINDER_TIMEOUT_BOUNDS.min, body.timeout ?? FINDER_TIMEOUT_BOUNDS.default));
    // The service always queues a slow search (a durable job finishes it); with queue=false the answer just omits its id.
    const found = await findForApp(deps, verifier, c, { name: body.name, domain: body.domain, timeout });
    if (found.queued) {
      throw fail(524, null, 'Timeout Occurred', {
        additional_info: { resource_name: 'email_finder', resource_value: `${body.name} ${body.domain}`, ...(body.queue === false ? {} : { queue_id: found.qid }) },
      });
    }
    return { status: 'success', data: toPublicFinderData(found) };
  });

  v2.get('/email_finder/instant/queue_status', { config }, async (req) => {
    const c = publicCaller(req);
    const { qid } = parseInput(ZQidQuery, req.query, 'query');
    const invalid = finderFailure(FINDER_ERROR_CODES.invalidQueueId, 'Invalid queue ID');
    if (!isUuid(qid)) throw invalid;
    try {
      const q = await getQueueStatus(deps.database.db, c.ctx, qid);
      if (q.state === 'completed' && q.result) return { status: 'success', data: toPublicFinderData(q.result) };
      if (q.state === 'failed') throw fail(503, null, q.error ?? 'The search failed; please try again');
      return buildPublicFailure(FINDER_ERROR_CODES.stillQueued, 'The request is still in the queue, please try again after some time');
    } catch (err) {
      return mapFinderError(err, invalid);
    }
  });

  v2.post('/email_finder/bulk', { config }, async (req) => {
    const c = publicCaller(req);
    const invalidFile = (message: string) => finderFailure(FINDER_ERROR_CODES.invalidFile, message);
    if (!req.isMultipart()) throw invalidFile('Please attach a file (the multipart field named file).');
    const data = await readPublicFile(req);
    if (!data || data.fieldname !== 'file') throw invalidFile('Please attach a file (the multipart field named file).');
    const fileType = detectFileType(data.filename);
    if (fileType !== 'csv' && fileType !== 'xlsx') {
      data.file.resume();
      throw invalidFile('Invalid file type');
    }
    // The reference takes only the file: read it (≤ 20,000,000 bytes) to map its columns from its first rows.
    const chunks: Buffer[] = [];
    try {
      for await (const chunk of data.file) chunks.push(chunk as Buffer);
    } catch {
      // The body ended before the file did, or is not valid multipart: the client's error, as on the verifier's route.
      throw invalidInput('file', UPLOAD_INTERRUPTED);
    }
    if (data.file.truncated) throw invalidFile(`The file is larger than ${BULK_FILE_SIZE_LIMIT_BYTES.toLocaleString('en-US')} bytes; please split it`);
    const content = Buffer.concat(chunks);
    const sample: string[][] = [];
    try {
      for await (const cells of readRows(Readable.from([content]), fileType)) {
        if (cells.every((cell) => cell.trim() === '')) continue;
        sample.push(cells);
        if (sample.length >= FINDER_DETECTION_ROWS) break;
      }
    } catch (err) {
      if (err instanceof FileParseError) throw invalidFile(err.message);
      throw invalidFile('The file could not be read');
    }
    if (sample.length === 0) throw invalidFile('The file is empty');
    // The same column reading as the web app's upload screen (contracts).
    const mapping = toFinderUploadMapping(detectFinderColumns(sample));
    if (!mapping) throw invalidFile('The file needs a name column (first and last name, or full name) and a domain (or company) column');
    const credits = await getCreditsAndLimits(deps.database.db, c.ctx);
    const noCredits = (required: number) =>
      fail(402, FINDER_ERROR_CODES.bulkNoCredits, `Your available credits ${credits.credits} is not enough to find email addresses from the list, so please purchase ${required} more credits`, {
        additional_info: { required_credits: required },
      });
    if (credits.credits < 1) throw noCredits(1 - credits.credits);
    await requireAppCreditRoom(deps, c);
    try {
      // The search starts by itself once the file is read (no waiting here).
      const list = await uploadFinderList(deps, storage, c.ctx, { filename: data.filename, file: Readable.from([content]), fields: mapping }, { autoStart: true, appId: c.app.id });
      await recordAppUsage(deps.database.db, c.app, 0);
      return { status: 'success', data: { list_id: list.id } };
    } catch (err) {
      if (isAppError(err) && httpStatusOf(err) === 402) {
        const required = Number((err.extra.additional_info as { required_credits?: number } | undefined)?.required_credits ?? 1);
        throw noCredits(required);
      }
      return mapFinderError(err, fail(503, null, 'Service unavailable, please try again shortly'), undefined, (message) => invalidFile(message));
    }
  });

  const finderProgressLabel: Record<string, string> = { processed: 'completed', in_progress: 'running', cancelled: 'cancelled', not_processed: 'queued' };
  v2.get('/email_finder/bulk/progress_status', { config }, async (req) => {
    const c = publicCaller(req);
    const { list_id } = parseInput(ZListIdBody, req.query, 'query');
    const notAuthorized = fail(200, CODES.notAuthorized, 'You are not authorized to access this resource');
    if (!isUuid(list_id)) throw notAuthorized;
    try {
      const p = await getFinderProgress(deps.database.db, c.ctx, list_id);
      const label = p.state === 'not_processed' && p.stopped_reason ? 'stopped' : (finderProgressLabel[p.state] ?? p.state);
      return { status: 'success', data: { progress_status: label, percentage: p.progress } };
    } catch (err) {
      return mapFinderError(err, notAuthorized);
    }
  });

  const listNotAvailable = () => fail(200, CODES.listNotAvailable, LIST_NOT_AVAILABLE);

  v2.post('/email_finder/download/result', { config }, async (req) => {
    const c = publicCaller(req);
    const { list_id } = parseInput(ZListIdBody, req.body, 'body');
    if (!isUuid(list_id)) throw listNotAvailable();
    try {
      const d = await downloadListResult(deps, c.ctx, { list_id, format: 'all', file_type: 'csv' });
      return { status: 'success', data: await waitForPreparedFile(deps, c, d.queue_id, opts.waitLimitMs) };
    } catch (err) {
      return mapFinderError(err, listNotAvailable());
    }
  });

  /** The reference's view of a finder list (name, source, created_on), or 1029. */
  async function describeFinderList(c: TAppCaller, listId: string) {
    if (!isUuid(listId)) throw listNotAvailable();
    const found = await listFinderLists(deps.database.db, c.ctx, ZFinderListsRequest.parse({ list_id: listId }));
    const list = found.items[0];
    if (!list) throw listNotAvailable();
    return { name: list.file_name, source: 'upload', created_on: list.created_at };
  }

  v2.post('/email_finder/list/remove', { config }, async (req) => {
    const c = publicCaller(req);
    const { list_id } = parseInput(ZRemoveBody, req.body, 'body');
    const view = await describeFinderList(c, list_id);
    try {
      await removeFinderList(deps, storage, c.ctx, list_id);
    } catch (err) {
      return mapFinderError(err, listNotAvailable(), fail(200, CODES.notCancellable, 'List is not in the removable stage, cancel the bulk finding first'));
    }
    return { status: 'success', data: view };
  });

  v2.post('/email_finder/list/cancel', { config }, async (req) => {
    const c = publicCaller(req);
    const { list_id } = parseInput(ZListIdBody, req.body, 'body');
    if (!isUuid(list_id)) throw listNotAvailable();
    try {
      const list = await cancelFindEmails(deps, c.ctx, list_id);
      return { status: 'success', data: { name: list.file_name, source: 'upload', created_on: list.created_at } };
    } catch (err) {
      return mapFinderError(err, listNotAvailable(), fail(200, CODES.notCancellable, 'List is not in the cancellable stage'));
    }
  });
}
