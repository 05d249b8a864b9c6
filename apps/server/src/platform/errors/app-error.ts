import type { TErrorCode, TErrorReason } from '@verilead/contracts';

/** What a failure tells the client besides its code and message; sent as is in the failure envelope. */
export type TErrorExtra = { reasons?: TErrorReason[]; additional_info?: Record<string, unknown> };

/**
 * A failure the API answers with its own code (never a 500). Domain code says what went wrong: the code clients see,
 * a message for people, and the reasons or additional info. The HTTP status is the edge's business: the error
 * handlers look the code up in ERROR_HTTP_STATUS (http-status.ts).
 */
export class AppError extends Error {
  readonly code: TErrorCode;
  readonly extra: TErrorExtra;

  constructor(code: TErrorCode, message: string, extra: TErrorExtra = {}) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.extra = extra;
  }
}

/**
 * The narrow exception to "the code decides the status": a few throws answer their code with another status than the
 * table's, and the code cannot be split because clients see it. Each one is listed, with its reason, in http-status.ts;
 * do not add one without adding it there.
 */
export class AppErrorWithStatus extends AppError {
  readonly httpStatus: number;

  constructor(httpStatus: number, code: TErrorCode, message: string, extra: TErrorExtra = {}) {
    super(code, message, extra);
    this.httpStatus = httpStatus;
  }
}

export function isAppError(value: unknown): value is AppError {
  return value instanceof AppError;
}

/** Not found (404) for anything missing or belonging to another organisation. */
export function throwNotFound(what = 'Resource'): never {
  throw new AppError('not_found', `${what} not found`);
}

/** A validation failure (400 with the default code) on one body field. */
export function throwFieldError(field: string, message: string, code: TErrorCode = 'validation_failed'): never {
  throw new AppError(code, message, { reasons: [{ field, location: 'body', messages: [message] }] });
}

/** A validation failure's message for people: the reasons' own sentences, never field keys. */
export function summariseReasons(reasons: ReadonlyArray<TErrorReason>): string {
  const sentences = [...new Set(reasons.flatMap((reason) => reason.messages))]
    .map((message) => message.trim())
    .filter(Boolean)
    .map((message) => (/[.!?]$/.test(message) ? message : `${message}.`));
  return sentences.length > 0 ? sentences.join(' ') : 'Please check the values you entered.';
}
