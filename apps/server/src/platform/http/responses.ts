import { ZFailure } from '@verilead/contracts';
import type { z } from 'zod';

/** Adds the failure envelope for the error statuses a route can answer, so they show in OpenAPI. */
export function withErrorResponses<T extends Record<number, z.ZodType>>(ok: T) {
  return { ...ok, 400: ZFailure, 401: ZFailure, 403: ZFailure, 404: ZFailure, 409: ZFailure, 429: ZFailure };
}

/** The success envelope. */
export function ok<T>(data: T): { status: 'success'; data: T } {
  return { status: 'success', data };
}
