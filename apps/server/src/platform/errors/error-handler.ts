import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { TErrorCode, TErrorLocation, TErrorReason, TFailure } from '@verilead/contracts';
import { isAppError, summariseReasons } from './app-error';
import { httpStatusOf } from './http-status';
import { RequestClosedError } from '../http/request-closed';

export function buildFailure(code: string, message: string, extra: Omit<TFailure['error'], 'code' | 'message'> = {}): TFailure {
  return { status: 'failed', error: { code, message, ...extra } };
}

function toLocation(context: string | undefined): TErrorLocation {
  if (context === 'querystring') return 'query';
  if (context === 'params') return 'params';
  if (context === 'headers') return 'headers';
  return 'body';
}

/** Groups zod issues by field into the envelope's reasons and a readable summary. */
function buildValidationFailure(error: { validation: { instancePath: string; message?: string }[]; validationContext?: string }) {
  const location = toLocation(error.validationContext);
  const byField = new Map<string, string[]>();
  for (const issue of error.validation) {
    const field = issue.instancePath.replace(/^\//, '').replace(/\//g, '.') || '(root)';
    const list = byField.get(field) ?? [];
    list.push(issue.message ?? 'Invalid value');
    byField.set(field, list);
  }
  const reasons: TErrorReason[] = [...byField].map(([field, messages]) => ({ field, location, messages }));
  return buildFailure('validation_failed', summariseReasons(reasons), { reasons });
}

const STATUS_CODES: Record<number, TErrorCode> = {
  400: 'malformed_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  406: 'malformed_request',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
};

/** PostgreSQL's SQLSTATE classes and the driver's own failures that mean "the database went away", not "the query is wrong". */
const DB_UNAVAILABLE_STATES = /^(08|57P0[1-3]|53300)/;
const DB_UNAVAILABLE_SYSCALLS = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH']);
const DB_UNAVAILABLE_MESSAGES = /Connection terminated|terminating connection|Client has encountered a connection error|timeout exceeded when trying to connect/i;

/**
 * True when the error (or one it wraps: Drizzle wraps the driver's error as its cause) says the database connection was
 * lost or refused: the request can be tried again in a moment, so it is answered 503 with Retry-After, not 500.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && (DB_UNAVAILABLE_STATES.test(code) || DB_UNAVAILABLE_SYSCALLS.has(code))) return true;
    if (typeof message === 'string' && DB_UNAVAILABLE_MESSAGES.test(message)) return true;
  }
  return false;
}

/** Seconds a client is asked to wait before it tries again when the database is briefly unreachable. */
const DB_RETRY_AFTER_SECONDS = 5;

/** One error handler for every route: AppError (its status from the code table), zod validation, Fastify's own 4xx, and everything else as 500. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (isAppError(error)) {
      return reply.status(httpStatusOf(error)).send(buildFailure(error.code, error.message, error.extra));
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      return reply.status(400).send(buildValidationFailure(error));
    }
    if (error instanceof RequestClosedError) return reply.status(error.statusCode).send(buildFailure('client_closed_request', error.message));
    const status = typeof error.statusCode === 'number' ? error.statusCode : 500;
    if (status >= 400 && status < 500) {
      if (status === 429) {
        return reply.status(429).send(buildFailure('rate_limited', error.message || 'Too many requests, please try again later'));
      }
      const code = STATUS_CODES[status] ?? 'malformed_request';
      const message =
        code === 'payload_too_large'
          ? 'Request body is too large'
          : code === 'unsupported_media_type'
            ? 'Unsupported content type'
            : error.message || 'Bad request';
      return reply.status(status).send(buildFailure(code, message));
    }
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: error }, 'database unavailable');
      return reply
        .status(503)
        .header('retry-after', String(DB_RETRY_AFTER_SECONDS))
        .send(buildFailure('service_unavailable', 'The service is briefly unavailable; please try again in a few seconds'));
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send(buildFailure('internal_error', 'Something went wrong on our side'));
  });
}
