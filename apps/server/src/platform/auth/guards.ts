import type { FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import type { TRole } from '@verilead/contracts';
import type { TDatabase } from '../db/database';
import { AppError } from '../errors/app-error';
import type { TCallerContext } from '../tenancy/context';
import { resolveBearer } from './sessions';

declare module 'fastify' {
  interface FastifyRequest {
    caller: TCallerContext | null;
  }
}

export const SESSION_EXPIRED_MESSAGE = 'Session expired. Please login again to continue.';

function readBearer(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(header.trim());
  return match?.[1] ?? null;
}

/** The caller of an authenticated route (after requireAuth ran). */
export function getCaller(request: FastifyRequest): TCallerContext {
  if (!request.caller) throw new AppError('session_expired', SESSION_EXPIRED_MESSAGE);
  return request.caller;
}

export function createGuards(database: TDatabase) {
  const requireAuth: onRequestAsyncHookHandler = async (request: FastifyRequest, _reply: FastifyReply) => {
    const token = readBearer(request);
    if (!token || token.length > 200) throw new AppError('session_expired', SESSION_EXPIRED_MESSAGE);
    const caller = await resolveBearer(database.db, token);
    if (!caller) throw new AppError('session_expired', SESSION_EXPIRED_MESSAGE);
    request.caller = caller;
  };
  /** requireAuth, then a 403 unless the caller has one of `roles`. */
  const requireRole = (...roles: TRole[]): onRequestAsyncHookHandler[] => [
    requireAuth,
    async (request: FastifyRequest) => {
      const caller = getCaller(request);
      if (!roles.includes(caller.role)) throw new AppError('forbidden', 'You do not have permission to do this');
    },
  ];
  return { requireAuth, requireRole };
}
export type TGuards = ReturnType<typeof createGuards>;
