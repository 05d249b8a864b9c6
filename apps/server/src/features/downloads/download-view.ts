import { createHmac, timingSafeEqual } from 'node:crypto';
import { DOWNLOAD_TOKEN_TTL_HOURS, ZResultColumn, type TDownload, type TDownloadKind, type TDownloadStatus, type TResultColumn } from '@verilead/contracts';
import { AppError } from '../../platform/errors/app-error';
import type { TDownloadRow } from './queries';

// ---------- tokens ----------

function sign(secret: string, id: string, exp: number): string {
  return createHmac('sha256', secret).update(`download:${id}:${exp}`).digest('base64url');
}

/** An expiring download token: `<download id>.<expiry unix seconds>.<HMAC>`; nothing to store, nothing to leak. */
export function createDownloadToken(secret: string, downloadId: string, expiresAt: Date): string {
  const exp = Math.floor(expiresAt.getTime() / 1000);
  return `${downloadId}.${exp}.${sign(secret, downloadId, exp)}`;
}

/** The download id of a valid token; 400 for a forged token, 410 for an expired one. */
export function readDownloadToken(secret: string, token: string, now = Date.now()): string {
  const [id, expText, mac] = token.split('.');
  const exp = Number(expText);
  const expected = id && Number.isInteger(exp) ? sign(secret, id, exp) : '';
  const ok = !!mac && expected.length === mac.length && timingSafeEqual(Buffer.from(expected), Buffer.from(mac));
  if (!ok || !id) throw new AppError('invalid_token', 'This download link is not valid');
  if (exp * 1000 <= now) throw new AppError('token_expired', 'This download link has expired; please request the file again');
  return id;
}

// ---------- views ----------

export function effectiveState(row: TDownloadRow, now = Date.now()): TDownloadStatus {
  // A file removed from storage (its retention is over) reads expired too.
  if (row.state === 'success' && (!row.storageKey || (row.expiresAt && row.expiresAt.getTime() <= now))) return 'expired';
  return row.state;
}

/** The public path of each kind's files (spec section 7); every path serves any valid token. */
const PUBLIC_DOWNLOAD_PATH: Partial<Record<TDownloadKind, string>> = {
  activities: 'user_activity_download',
  prospects: 'download_prospects',
  finder_result: 'download_email_finder_history',
  finder_history: 'download_email_finder_history',
};

export function toDownloadView(secret: string, row: TDownloadRow): TDownload {
  const state = effectiveState(row);
  let token: string | null = null;
  let tokenExpires: Date | null = null;
  if (state === 'success' && row.expiresAt) {
    tokenExpires = new Date(Math.min(Date.now() + DOWNLOAD_TOKEN_TTL_HOURS * 3_600_000, row.expiresAt.getTime()));
    token = createDownloadToken(secret, row.id, tokenExpires);
  }
  return {
    download_id: row.id,
    queue_id: row.id,
    kind: row.kind,
    list_id: row.listId,
    format: row.format ?? null,
    file_type: row.fileType as TDownload['file_type'],
    columns: row.columns.filter((c): c is TResultColumn => ZResultColumn.safeParse(c).success),
    state,
    progress: state === 'success' ? 100 : row.progress,
    file_name: row.fileName,
    rows: row.rowCount,
    size_bytes: row.sizeBytes,
    download_url: token ? `/api/v1/public/${PUBLIC_DOWNLOAD_PATH[row.kind] ?? 'download'}?download_token=${encodeURIComponent(token)}` : null,
    download_token: token,
    token_expires_at: tokenExpires?.toISOString() ?? null,
    expires_at: row.expiresAt?.toISOString() ?? null,
    error: row.error,
    created_at: row.createdAt.toISOString(),
  };
}
