import type { TErrorReason } from '@verilead/contracts';

/** Every failed call rejects with this: the HTTP status and the failure envelope's error. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly reasons: TErrorReason[];
  readonly additionalInfo: Record<string, unknown>;

  constructor(input: {
    status: number;
    code: string;
    message: string;
    reasons?: TErrorReason[];
    additionalInfo?: Record<string, unknown>;
  }) {
    super(input.message);
    this.name = 'ApiError';
    this.status = input.status;
    this.code = input.code;
    this.reasons = input.reasons ?? [];
    this.additionalInfo = input.additionalInfo ?? {};
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/** A message fit for the screen, from any thrown value. */
export function getErrorMessage(error: unknown): string {
  if (isApiError(error)) {
    if (error.code === 'validation_failed') return joinReasonMessages(error.reasons) ?? error.message;
    return error.message;
  }
  if (error instanceof Error) return error.message;
  return 'Something went wrong. Please try again.';
}

/** The reasons' own sentences (no field keys), or null when there are none. */
export function joinReasonMessages(reasons: ReadonlyArray<TErrorReason>): string | null {
  const messages = [...new Set(reasons.flatMap((reason) => reason.messages).map((m) => m.trim()).filter(Boolean))];
  if (messages.length === 0) return null;
  if (messages.length === 1) return messages[0]!;
  return messages.map((m) => (/[.!?]$/.test(m) ? m : `${m}.`)).join(' ');
}

/** The title of a 402: which credit rule refused the work (balance, the member's daily or lifetime limit). */
export function getCreditRefusalTitle(error: unknown): string | null {
  if (!isApiError(error) || error.status !== 402) return null;
  if (error.code === 'daily_limit_exceeded') return 'Daily limit reached';
  if (error.code === 'life_time_limit_exceeded') return 'Credit limit reached';
  return 'Not enough credits';
}
