import { ZFailure } from '@verilead/contracts';

export type TFetchedFile = { kind: 'file'; blob: Blob; fileName: string } | { kind: 'expired'; message: string } | { kind: 'failed'; message: string };

/** The file name of a Content-Disposition header (filename* first), or the fallback. */
export function readFileName(disposition: string | null, fallback: string): string {
  if (!disposition) return fallback;
  const star = /filename\*\s*=\s*(?:UTF-8'')?([^;]+)/i.exec(disposition);
  if (star?.[1]) {
    try {
      return decodeURIComponent(star[1].trim().replace(/^"|"$/g, ''));
    } catch {
      // fall through to the plain parameter
    }
  }
  const plain = /filename\s*=\s*("([^"]*)"|[^;]+)/i.exec(disposition);
  const value = plain?.[2] ?? plain?.[1];
  return value ? value.trim() : fallback;
}

/** Fetches a prepared file by its expiring link; 410 means the link or the file expired. */
export async function fetchDownload(url: string, fetchImpl: typeof fetch = fetch): Promise<TFetchedFile> {
  let response: Response;
  try {
    response = await fetchImpl(url, { headers: { accept: '*/*' } });
  } catch {
    return { kind: 'failed', message: 'Could not reach the server. Check your connection and try again.' };
  }
  if (!response.ok) {
    let message = `The file could not be downloaded (HTTP ${response.status}).`;
    try {
      const parsed = ZFailure.safeParse(await response.json());
      if (parsed.success) message = parsed.data.error.message;
    } catch {
      // keep the generic message
    }
    return response.status === 410 ? { kind: 'expired', message } : { kind: 'failed', message };
  }
  const blob = await response.blob();
  return { kind: 'file', blob, fileName: readFileName(response.headers.get('content-disposition'), 'download') };
}

/** Hands a fetched file to the browser as a download. */
export function saveBlob(blob: Blob, fileName: string): string {
  const href = URL.createObjectURL(blob);
  const anchor = document.createElement('a');
  anchor.href = href;
  anchor.download = fileName;
  anchor.rel = 'noopener';
  document.body.appendChild(anchor);
  anchor.click();
  anchor.remove();
  return href;
}
