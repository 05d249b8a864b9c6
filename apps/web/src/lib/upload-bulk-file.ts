import type { z } from 'zod';
import { APP_VERSION, APP_VERSION_HEADER, ZFailure } from '@verilead/contracts';
import { API_BASE, handleApiError } from './api-client';
import { ApiError } from './api-error';
import { getSessionToken } from './session-store';

export type TUploadProgress = { loaded: number; total: number; percent: number };

function toError(status: number, body: string): ApiError {
  let payload: unknown = null;
  try {
    payload = body ? (JSON.parse(body) as unknown) : null;
  } catch {
    payload = null;
  }
  const parsed = ZFailure.safeParse(payload);
  if (parsed.success) {
    const { code, message, reasons, additional_info } = parsed.data.error;
    return new ApiError({ status, code, message, reasons, additionalInfo: additional_info });
  }
  if (status === 413) return new ApiError({ status, code: 'payload_too_large', message: 'The file is larger than 20,000,000 bytes.' });
  return new ApiError({ status, code: 'http_error', message: `The upload failed (HTTP ${status}).` });
}

export type TBulkUploadOptions<TSchema extends z.ZodType> = {
  /** API path under /api/v1, e.g. `/email_verify/bulk_upload`. */
  path: string;
  /** Schema of the success envelope's `data`. */
  schema: TSchema;
  file: File;
  /** Multipart fields sent before the file; empty values are left out. */
  fields: Record<string, string | number | boolean | null | undefined>;
  onProgress: (progress: TUploadProgress) => void;
  signal?: AbortSignal;
};

/**
 * POSTs a bulk upload as multipart (`file` last, after the fields) through XMLHttpRequest, so the
 * screen can show upload progress; errors go through the API client's 401/402/418 handling.
 */
export function uploadBulkFile<TSchema extends z.ZodType>({ path, schema, file, fields, onProgress, signal }: TBulkUploadOptions<TSchema>): Promise<z.infer<TSchema>> {
  return new Promise((resolve, reject) => {
    const form = new FormData();
    for (const [key, value] of Object.entries(fields)) {
      if (value !== undefined && value !== null && value !== '') form.append(key, String(value));
    }
    form.append('file', file, file.name);

    const token = getSessionToken();
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `${API_BASE}${path}`);
    xhr.setRequestHeader(APP_VERSION_HEADER, APP_VERSION);
    xhr.setRequestHeader('accept', 'application/json');
    if (token) xhr.setRequestHeader('authorization', `Bearer ${token}`);

    xhr.upload.onprogress = (event) => {
      const total = event.lengthComputable ? event.total : file.size;
      onProgress({ loaded: event.loaded, total, percent: total > 0 ? Math.min(100, Math.round((event.loaded / total) * 100)) : 0 });
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        let payload: unknown = null;
        try {
          payload = JSON.parse(xhr.responseText) as unknown;
        } catch {
          payload = null;
        }
        const parsed = schema.safeParse((payload as { data?: unknown } | null)?.data);
        if (parsed.success) resolve(parsed.data);
        else reject(new ApiError({ status: xhr.status, code: 'invalid_response', message: 'The server answered with an unexpected response.' }));
        return;
      }
      const error = toError(xhr.status, xhr.responseText);
      handleApiError(error, token !== null);
      reject(error);
    };
    xhr.onerror = () => reject(new ApiError({ status: 0, code: 'network_error', message: 'Could not reach the server. Check your connection.' }));
    xhr.onabort = () => reject(new DOMException('The upload was cancelled.', 'AbortError'));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(form);
  });
}
