import type { TErrorCode, TErrorReason } from '@verilead/contracts';

/** A failure the API answers with its own status and code (never a 500). */
export class AppError extends Error {
  readonly httpStatus: number;
  readonly code: TErrorCode;
  readonly extra: { reasons?: TErrorReason[]; additional_info?: Record<string, unknown> };

  constructor(
    httpStatus: number,
    code: TErrorCode,
    message: string,
    extra: { reasons?: TErrorReason[]; additional_info?: Record<string, unknown> } = {},
  ) {
    super(message);
    this.name = 'AppError';
    this.httpStatus = httpStatus;
    this.code = code;
    this.extra = extra;
  }
}

export function isAppError(value: unknown): value is AppError {
  return value instanceof AppError;
}

/** 404 for anything missing or belonging to another organisation. */
export function throwNotFound(what = 'Resource'): never {
  throw new AppError(404, 'not_found', `${what} not found`);
}

/** A 400 validation failure on one body field. */
export function throwFieldError(field: string, message: string, code: TErrorCode = 'validation_failed'): never {
  throw new AppError(400, code, message, { reasons: [{ field, location: 'body', messages: [message] }] });
}

/** A validation failure's message for people: the reasons' own sentences, never field keys. */
export function summariseReasons(reasons: ReadonlyArray<TErrorReason>): string {
  const sentences = [...new Set(reasons.flatMap((reason) => reason.messages))]
    .map((message) => message.trim())
    .filter(Boolean)
    .map((message) => (/[.!?]$/.test(message) ? message : `${message}.`));
  return sentences.length > 0 ? sentences.join(' ') : 'Please check the values you entered.';
}
