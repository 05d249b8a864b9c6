import { ZDownload, type TDownload, type TExportRequest } from '@verilead/contracts';
import { requestApi } from './api-client';

/** How often a file being prepared is polled. */
export const DOWNLOAD_POLL_MS = 1_000;
const FINAL_DOWNLOAD_STATES: ReadonlySet<string> = new Set(['success', 'failed', 'cancelled', 'expired']);

/** True once a download will not change any more. */
export function isDownloadFinal(download: Pick<TDownload, 'state'>): boolean {
  return FINAL_DOWNLOAD_STATES.has(download.state);
}

/** GET /download/result/status?queue_id. */
export function getDownloadStatus(queueId: string, signal?: AbortSignal): Promise<TDownload> {
  return requestApi({ path: '/download/result/status', query: { queue_id: queueId }, schema: ZDownload, signal });
}

function wait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(new DOMException('aborted', 'AbortError'));
      return;
    }
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(new DOMException('aborted', 'AbortError'));
      },
      { once: true },
    );
  });
}

/** Polls a download until it is success, failed, cancelled or expired (`getStatus` is injectable for tests). */
export async function waitForDownload(
  first: TDownload,
  signal: AbortSignal,
  onUpdate?: (download: TDownload) => void,
  options: { pollMs?: number; getStatus?: (queueId: string, signal: AbortSignal) => Promise<TDownload> } = {},
): Promise<TDownload> {
  const getStatus = options.getStatus ?? getDownloadStatus;
  let current = first;
  while (!isDownloadFinal(current)) {
    await wait(options.pollMs ?? DOWNLOAD_POLL_MS, signal);
    current = await getStatus(current.queue_id, signal);
    onUpdate?.(current);
  }
  return current;
}

/** POST /download/result: prepares a file (results, or the uploaded input with kind `input`). */
export function requestDownload(body: TExportRequest, signal?: AbortSignal): Promise<TDownload> {
  return requestApi({ method: 'POST', path: '/download/result', body, schema: ZDownload, signal });
}
