import type { TDeps } from '../../../platform/deps';
import { waitForCompletion } from '../../../platform/jobs/completion';
import type { TFileStorage } from '../../../platform/storage/storage';
import { getDownloadStatus, requestListExport } from '../../downloads';
import { ensureListVerification, getProgressStatus, uploadList, type TUploadPart } from '../../email-verifier';
import { recordAppUsage, type TAppCaller } from '../service';
import { fail, invalidInput, LIST_NOT_AVAILABLE, mapServiceError } from './errors';
import { PUBLIC_API_ERROR_CODES as CODES } from '@verilead/contracts';
import { getPublicBaseUrl } from '../../../platform/http/public-url';

/** How long a /v2 call waits for a job it started (an upload's analysis, a result file) before answering 503. */
export const DEFAULT_WAIT_LIMIT_MS = 120_000;

/**
 * POST /v2/email_verify/bulk: stores the list (a retry of the same file within a day answers the list it made, never
 * charged twice), waits for its analysis job to say it is done (a completion notice, no polling), then makes sure it
 * is verifying (auto-pilot may have started it already: either way that is the answer).
 */
export async function submitBulkVerify(deps: TDeps, storage: TFileStorage, c: TAppCaller, part: TUploadPart, waitLimitMs = DEFAULT_WAIT_LIMIT_MS): Promise<{ list_id: string }> {
  try {
    const list = await uploadList(deps, storage, c.ctx, part, { reuseRetried: true, appId: c.app.id });
    const analysis = await waitForCompletion(
      deps.database,
      `verify_list:${list.id}`,
      async () => {
        const p = await getProgressStatus(deps.database.db, c.ctx, list.id);
        return p.analysis.state === 'ready' || p.analysis.state === 'failed' ? p.analysis : undefined;
      },
      waitLimitMs,
    );
    if (!analysis) throw fail(503, null, 'The file is still being analysed; please try again shortly');
    if (analysis.state === 'failed') throw invalidInput('file', analysis.error ?? 'The file could not be read');
    await ensureListVerification(deps, c.ctx, list.id);
    await recordAppUsage(deps.database.db, c.app, 0);
    return { list_id: list.id };
  } catch (err) {
    return mapServiceError(err);
  }
}

/** POST /v2/download/result: asks for the result file and waits for the export job's completion notice. */
export async function prepareResultDownload(deps: TDeps, c: TAppCaller, listId: string, waitLimitMs = DEFAULT_WAIT_LIMIT_MS): Promise<{ url: string }> {
  try {
    const requested = await requestListExport(deps, c.ctx, { list_id: listId, kind: 'result', format: 'standard', file_type: 'csv' });
    return await waitForPreparedFile(deps, c, requested.queue_id, waitLimitMs);
  } catch (err) {
    return mapServiceError(err);
  }
}

/**
 * Waits (within the request's limit) for a file queued to the downloads job — woken by the job's completion notice —
 * and answers the reference's `{ url }` with its absolute link; or the reference's failure.
 */
export async function waitForPreparedFile(deps: TDeps, c: TAppCaller, downloadId: string, waitLimitMs = DEFAULT_WAIT_LIMIT_MS): Promise<{ url: string }> {
  const { database, config } = deps;
  const d = await waitForCompletion(
    database,
    `download:${downloadId}`,
    async () => {
      const s = await getDownloadStatus(database.db, config.appSecret, c.ctx, downloadId);
      return s.state === 'queued' || s.state === 'processing' ? undefined : s;
    },
    waitLimitMs,
  );
  if (!d) throw fail(503, null, 'The result file is still being prepared; please try again shortly');
  if (d.state === 'success' && d.download_url) return { url: `${getPublicBaseUrl(config)}${d.download_url}` };
  if (d.state === 'expired') throw fail(200, CODES.fileExpired, 'Result file got expired, contact support');
  // The export job cancels a file whose list was removed meanwhile: answered as a missing list is.
  if (d.state === 'cancelled') throw fail(200, CODES.listNotAvailable, LIST_NOT_AVAILABLE);
  throw fail(503, null, d.error ?? 'The result file could not be prepared');
}
