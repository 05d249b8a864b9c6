import type { FastifyInstance } from 'fastify';
import { PUBLIC_API_ERROR_CODES as CODES } from '@verilead/contracts';
import type { TDeps } from '../../../platform/deps';
import { isAppError } from '../../../platform/errors/app-error';
import { httpStatusOf } from '../../../platform/errors/http-status';
import type { TFileStorage } from '../../../platform/storage/storage';
import { cancelListVerification, getProgressStatus, removeList, getListForExport } from '../../email-verifier';
import type { TAppCaller } from '../service';
import { publicCaller, publicRateLimit } from './auth';
import { fail, invalidInput, isUuid, LIST_NOT_AVAILABLE, mapServiceError, parseInput, readPublicFile, ZListIdBody, ZRemoveBody } from './errors';
import { requireAppCreditRoom } from './instant-service';
import { prepareResultDownload, submitBulkVerify } from './list-service';

const progressLabel: Record<string, string> = { verified: 'completed', in_progress: 'running', cancelled: 'cancelled', non_verified: 'queued' };

/** /v2 bulk verification lists: upload, progress, result file, remove and cancel (thin routes over the services). */
export function registerPublicListRoutes(v2: FastifyInstance, deps: TDeps, storage: TFileStorage, opts: { waitLimitMs?: number } = {}): void {
  const { database } = deps;
  const config = { rateLimit: publicRateLimit(deps) };

  v2.post('/email_verify/bulk', { config }, async (req) => {
    const c = publicCaller(req);
    if (!req.isMultipart()) throw invalidInput('file', 'Please attach a file (the multipart field named file).', 'any.required');
    const data = await readPublicFile(req);
    if (!data || data.fieldname !== 'file') throw invalidInput('file', 'Please attach a file (the multipart field named file).', 'any.required');
    await requireAppCreditRoom(deps, c);
    return { status: 'success', data: await submitBulkVerify(deps, storage, c, { filename: data.filename, file: data.file, fields: {} }, opts.waitLimitMs) };
  });

  v2.get('/email_verify/bulk/progress_status', { config }, async (req) => {
    const c = publicCaller(req);
    const { list_id } = parseInput(ZListIdBody, req.query, 'query');
    if (!isUuid(list_id)) throw fail(200, CODES.notAuthorized, 'You are not authorized to access this resource');
    try {
      const p = await getProgressStatus(database.db, c.ctx, list_id);
      return { status: 'success', data: { progress_status: progressLabel[p.state] ?? p.state, percentile: p.progress } };
    } catch (err) {
      return mapServiceError(err, { status: 200, code: CODES.notAuthorized, message: 'You are not authorized to access this resource' });
    }
  });

  v2.post('/download/result', { config }, async (req) => {
    const c = publicCaller(req);
    const { list_id } = parseInput(ZListIdBody, req.body, 'body');
    if (!isUuid(list_id)) throw fail(200, CODES.listNotAvailable, LIST_NOT_AVAILABLE);
    return { status: 'success', data: await prepareResultDownload(deps, c, list_id, opts.waitLimitMs) };
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

  v2.post('/email_verify/list/remove', { config }, async (req) => {
    const c = publicCaller(req);
    const { list_id } = parseInput(ZRemoveBody, req.body, 'body');
    const view = await describeList(c, list_id);
    try {
      await removeList(deps, storage, c.ctx, list_id);
    } catch (err) {
      if (isAppError(err) && httpStatusOf(err) === 409) throw fail(200, CODES.notCancellable, 'List is not in the removable stage, cancel the verification first');
      return mapServiceError(err);
    }
    return { status: 'success', data: view };
  });

  v2.post('/email_verify/list/cancel', { config }, async (req) => {
    const c = publicCaller(req);
    const { list_id } = parseInput(ZListIdBody, req.body, 'body');
    await describeList(c, list_id);
    try {
      const list = await cancelListVerification(deps, c.ctx, list_id);
      return { status: 'success', data: { name: list.file_name, source: list.source, created_on: list.created_at } };
    } catch (err) {
      if (isAppError(err) && httpStatusOf(err) === 409) throw fail(200, CODES.notCancellable, 'List is not in the cancellable stage');
      return mapServiceError(err);
    }
  });
}
