import { ZFailure } from '@verilead/contracts';
import { ApiError } from './api-error';

/**
 * Reads a failed answer's envelope. Loaded by the API client with the first failed answer, so the pages that
 * have not called the API yet (the sign-in form) do not download the envelope schemas (issue 12).
 */
export function toApiError(status: number, payload: unknown, statusText: string): ApiError {
  const parsed = ZFailure.safeParse(payload);
  if (parsed.success) {
    const { code, message, reasons, additional_info } = parsed.data.error;
    return new ApiError({ status, code, message, reasons, additionalInfo: additional_info });
  }
  return new ApiError({ status, code: 'http_error', message: statusText || `Request failed with status ${status}` });
}
