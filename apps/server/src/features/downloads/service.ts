import type { Readable } from 'node:stream';
import type { TDownload } from '@verilead/contracts';
import type { TDb } from '../../platform/db/database';
import type { TDeps } from '../../platform/deps';
import { AppError, throwNotFound } from '../../platform/errors/app-error';
import type { TFileStorage } from '../../platform/storage/storage';
import { getVisibleScope, type TCallerContext } from '../../platform/tenancy/context';
import type { TRunningJobActivity } from '../activities';
import { effectiveState, readDownloadToken, toDownloadView } from './download-view';
import { insertDownload, selectDownload, selectDownloadById, selectRunningDownloads, updateDownload } from './queries';

export const EXPORT_JOB = 'downloads.export';

/** The member's files still queued or being prepared, as running export activities. */
export async function listRunningJobActivities(exec: TDb, who: { orgId: string; userId: string }): Promise<TRunningJobActivity[]> {
  const rows = await selectRunningDownloads(exec, who);
  return rows.map((d) => ({
    key: `export:${d.id}`,
    type: 'export',
    status: d.state === 'processing' ? 'in_progress' : 'queued',
    progress: d.state === 'processing' && d.progress > 0 ? d.progress : null,
    description: d.kind === 'activities' ? 'The activity log' : `"${d.fileName}"`,
    metadata: { download_id: d.id, list_id: d.listId, kind: d.kind },
    since: d.updatedAt,
  }));
}

export async function getDownloadStatus(exec: TDb, secret: string, ctx: TCallerContext, queueId: string): Promise<TDownload> {
  const row = await selectDownload(exec, getVisibleScope(ctx), queueId);
  if (!row) throwNotFound('Download');
  return toDownloadView(secret, row);
}

/** GET /public/download?download_token: the file behind a valid, unexpired token. */
export async function openDownload(
  exec: TDb,
  storage: TFileStorage,
  secret: string,
  token: string,
): Promise<{ stream: Readable; fileName: string; contentType: string; size: number }> {
  const id = readDownloadToken(secret, token);
  const row = await selectDownloadById(exec, id);
  if (!row) throwNotFound('Download');
  const state = effectiveState(row);
  if (state === 'expired') throw new AppError('token_expired', 'This file has expired; please request it again');
  if (state !== 'success' || !row.storageKey) throw new AppError('conflict', `This file is not ready (${state})`);
  const stat = await storage.stat(row.storageKey);
  if (!stat) throw new AppError('token_expired', 'This file is no longer available; please request it again');
  const contentType =
    row.fileType === 'xlsx' ? 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' : row.fileType === 'txt' ? 'text/plain; charset=utf-8' : row.fileType === 'jsonl' ? 'application/jsonl; charset=utf-8' : 'text/csv; charset=utf-8';
  return { stream: storage.read(row.storageKey), fileName: row.fileName, contentType, size: stat.size };
}

/** Queues a file another feature prepares through the export job (prospect files); answers its download view. */
export async function queueExportDownload(deps: TDeps, row: Parameters<typeof insertDownload>[1]): Promise<TDownload> {
  const d = await deps.database.transaction(async (tx) => {
    const inserted = await insertDownload(tx, row);
    const jobId = await deps.queue.enqueue(EXPORT_JOB, { downloadId: inserted.id }, { tx, orgId: row.orgId, userId: row.userId, maxAttempts: 3 });
    await updateDownload(tx, inserted.id, { jobId });
    return inserted;
  });
  return toDownloadView(deps.config.appSecret, d);
}
