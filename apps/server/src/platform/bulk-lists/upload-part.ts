import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { AppError, summariseReasons } from '../errors/app-error';
import type { TUploadPart } from '../bulk/upload';

/**
 * Reads the multipart `file` part of a list upload (fields sent before it, or in the query string, come along): 415
 * for a request that is not multipart, 413 past the scope's size limit, 400 for a malformed body or no `file` field.
 */
export async function readUploadPart(req: FastifyRequest): Promise<TUploadPart> {
  if (!req.isMultipart()) throw new AppError('unsupported_media_type', 'Send the file as multipart/form-data in the field "file"');
  let data: Awaited<ReturnType<FastifyRequest['file']>>;
  try {
    data = await req.file();
  } catch (err) {
    if ((err as { statusCode?: number }).statusCode === 413) throw new AppError('payload_too_large', 'The upload is too large');
    throw new AppError('malformed_request', 'The upload is not a valid multipart/form-data request');
  }
  if (!data || data.fieldname !== 'file') {
    throw new AppError('validation_failed', 'Please attach a file in the field "file"', {
      reasons: [{ field: 'file', location: 'body', messages: ['Please attach a file'] }],
    });
  }
  const fields: Record<string, string> = {};
  for (const [name, value] of Object.entries((req.query ?? {}) as Record<string, unknown>)) if (typeof value === 'string') fields[name] = value;
  for (const [name, value] of Object.entries(data.fields)) {
    const v = Array.isArray(value) ? value[0] : value;
    if (v && v.type === 'field' && typeof v.value === 'string') fields[name] = v.value;
  }
  return { filename: data.filename, file: data.file, fields };
}

/** The upload's form fields read with the product's schema; a bad field is answered 400 with every reason. */
export function parseUploadFields<TSchema extends z.ZodType>(schema: TSchema, fields: Record<string, string>): z.output<TSchema> {
  const parsed = schema.safeParse(fields);
  if (!parsed.success) {
    const reasons = parsed.error.issues.map((i) => ({ field: i.path.join('.') || '(root)', location: 'body' as const, messages: [i.message] }));
    throw new AppError('validation_failed', summariseReasons(reasons), { reasons });
  }
  return parsed.data;
}
