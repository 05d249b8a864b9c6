import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { PUBLIC_API_ERROR_CODES as CODES } from '@verilead/contracts';
import { isAppError } from '../../../platform/errors/app-error';
import { httpStatusOf } from '../../../platform/errors/http-status';
import { buildPublicFailure, buildValidationFailure, type TPublicFailure } from '../public-api-format';

export const INVALID_TOKEN = 'Invalid API Token, please generate new token';
export const NO_CREDITS = 'You have exhausted your credits, please add additional credits to continue';
export const DAILY_LIMIT = 'You have reached daily verify limit, please try next day or contact us@clearout.io';
export const LIFE_TIME_LIMIT = 'You have reached the credit limit of this app, please raise it on the Apps page';
export const LIST_NOT_AVAILABLE = 'List is not available';
export const UPLOAD_INTERRUPTED = 'The upload was interrupted or is not a valid multipart/form-data request';

/** Codes of the reference's Email finder operations (beside the shared PUBLIC_API_ERROR_CODES). */
export const FINDER_ERROR_CODES = {
  /** 200: a name with characters no address can hold. */
  unsupportedName: 1088,
  /** 402 on instant: no credit left for a search. */
  instantNoCredits: 1099,
  /** 402 on bulk: too few credits to start finding a list. */
  bulkNoCredits: 1028,
  /** 200 on bulk: the file is missing, not CSV/XLSX, unreadable or has no name and domain columns. */
  invalidFile: 1100,
  /** 200 on queue_status: no such queued search. */
  invalidQueueId: 1104,
  /** 200 on queue_status: the queued search has not finished yet. */
  stillQueued: 1105,
} as const;

/** A failure with the HTTP status it is answered with. */
export class PublicApiError extends Error {
  constructor(
    readonly httpStatus: number,
    readonly body: TPublicFailure,
  ) {
    super(body.error.message);
  }
}

export const fail = (httpStatus: number, code: number | null, message: string, extra: Omit<TPublicFailure['error'], 'code' | 'message'> = {}) =>
  new PublicApiError(httpStatus, buildPublicFailure(code, message, extra));

export const invalidInput = (field: string, message: string, type = 'any.invalid') =>
  new PublicApiError(400, buildValidationFailure([{ field, location: 'body', message, type }]));

/** A timeout in milliseconds: an integer, or a string of digits (form posts); `true` or `[]` are not numbers. */
export const ZTimeoutMs = z
  .union([z.number(), z.string().trim().regex(/^\d+$/, { message: 'must be a number' })])
  .transform((v) => Number(v))
  .pipe(z.number().int().min(1).max(180_000));
export const ZListIdBody = z.object({ list_id: z.string().trim().min(1) });
export const ZRemoveBody = ZListIdBody.extend({ ignore_result: z.union([z.boolean(), z.string()]).optional() });

/** How a /v2 field is named in a sentence asking for it. */
const FIELD_NOUN: Record<string, string> = {
  email: 'an email address',
  name: 'the person’s name',
  domain: 'a domain or company name',
  list_id: 'the list id',
  qid: 'the queue id',
  file: 'a file',
  timeout: 'a timeout in milliseconds',
};

const TYPE_NOUN: Record<string, string> = { string: 'text', number: 'a number', int: 'a whole number', boolean: 'true or false', object: 'an object', array: 'a list' };

/**
 * One /v2 validation problem as a person would write it ("Please give an email address.", "email must not be
 * empty."), never the validator's wording; its type keeps the reference's codes (any.required, any.empty, any.invalid).
 */
export function describeInputIssue(field: string, issue: z.core.$ZodIssue, given: unknown): { message: string; type: string } {
  const i = issue as z.core.$ZodIssue & { origin?: string; minimum?: number | bigint; maximum?: number | bigint; expected?: string };
  if (i.code === 'invalid_type' && given === undefined) return { message: `Please give ${FIELD_NOUN[field] ?? `a value for ${field}`}.`, type: 'any.required' };
  if (i.code === 'too_small' && i.origin === 'string') {
    return Number(i.minimum) <= 1 ? { message: `${field} must not be empty.`, type: 'any.empty' } : { message: `${field} must be at least ${i.minimum} characters long.`, type: 'any.invalid' };
  }
  if (i.code === 'too_small') return { message: `${field} must be at least ${i.minimum}.`, type: 'any.invalid' };
  if (i.code === 'too_big') return { message: i.origin === 'string' ? `${field} must be at most ${i.maximum} characters long.` : `${field} must be at most ${i.maximum}.`, type: 'any.invalid' };
  if (i.code === 'invalid_type') return { message: `${field} must be ${TYPE_NOUN[i.expected ?? ''] ?? `of type ${i.expected}`}.`, type: 'any.invalid' };
  // Our own schema messages are written as the end of a sentence about the field ("must be a number").
  if (i.code === 'custom' || i.code === 'invalid_format') return { message: `${field} ${i.message.replace(/\.$/, '')}.`, type: 'any.invalid' };
  // One of several forms: told as the first form's problem (e.g. a timeout given as words: "must be a number").
  const first = i.code === 'invalid_union' ? i.errors[0]?.[0] : undefined;
  if (first) return { ...describeInputIssue(field, first, given), type: 'any.invalid' };
  return { message: `${field} is not valid.`, type: 'any.invalid' };
}

/** Parses a body or query against a schema, failing in the reference's validation shape with readable messages. */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, location: 'body' | 'query'): z.output<S> {
  const parsed = schema.safeParse(value ?? {});
  if (parsed.success) return parsed.data;
  throw new PublicApiError(
    400,
    buildValidationFailure(
      parsed.error.issues.map((i) => {
        const field = String(i.path[0] ?? 'body');
        const given = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[field] : undefined;
        return { field, location, ...describeInputIssue(field, i, given) };
      }),
    ),
  );
}

/** The multipart file part; a body that is not valid multipart answers the reference's validation failure. */
export async function readPublicFile(req: FastifyRequest) {
  try {
    return await req.file();
  } catch {
    throw invalidInput('file', 'Please send the file as a multipart/form-data body.');
  }
}

export const isUuid = (v: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(v);

/** Maps a Verilead service error to the public API's answer. */
export function mapServiceError(err: unknown, notFound: { status: number; code: number; message: string } = { status: 200, code: CODES.listNotAvailable, message: LIST_NOT_AVAILABLE }): never {
  if (err instanceof PublicApiError) throw err;
  if (isAppError(err)) {
    const status = httpStatusOf(err);
    // The member's own limits first: they answer 402 too, but the organisation is not out of credits.
    if (err.code === 'daily_limit_exceeded') throw fail(200, CODES.dailyLimit, DAILY_LIMIT);
    if (err.code === 'life_time_limit_exceeded') throw fail(200, CODES.dailyLimit, err.message);
    if (status === 402) throw fail(402, CODES.noCredits, NO_CREDITS);
    if (status === 404) throw fail(notFound.status, notFound.code, notFound.message);
    if (status === 400 || status === 413 || status === 415) {
      const field = err.extra.reasons?.[0]?.field ?? 'file';
      throw invalidInput(field, err.message);
    }
  }
  throw err;
}
