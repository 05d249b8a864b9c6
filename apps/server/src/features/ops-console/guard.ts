import type { FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { OPERATOR_TOKEN_PREFIX } from '@verilead/contracts';
import type { TDatabase } from '../../platform/db/database';
import { AppError } from '../../platform/errors/app-error';
import { hashToken } from '../../platform/auth/tokens';
import { selectOperatorBySession, type TOperatorIdentity } from './queries';

export type TOperatorCaller = TOperatorIdentity;

declare module 'fastify' {
  interface FastifyRequest {
    operator?: TOperatorCaller | null;
  }
}

export const OPERATOR_SESSION_MESSAGE = 'Your operator session has ended. Please sign in to the operator console again.';
export const NOT_AN_OPERATOR_MESSAGE = 'This is the operator console: customer sessions and API keys are not accepted here.';

function readBearer(request: FastifyRequest): string | null {
  const match = /^Bearer\s+(\S+)$/i.exec((request.headers.authorization ?? '').trim());
  return match?.[1] ?? null;
}

/** The operator of a route behind requireOperator. */
export function getOperator(request: FastifyRequest): TOperatorCaller {
  if (!request.operator) throw new AppError('session_expired', OPERATOR_SESSION_MESSAGE);
  return request.operator;
}

/**
 * The operator guard: only an operator session token (`vlo_…`, table operator_sessions) passes. No token or a dead
 * operator session answers 401; a customer session or API key answers 403 (it is a valid identity, of the wrong kind).
 * `authenticate` is what the authorisation layer runs for every `operator` route of the table (deny by default: a
 * route that forgot its own `onRequest` guard is still checked); `requireOperator`, the routes' own hook, then finds
 * the operator already set and does not look again.
 */
export function createOperatorGuard(database: TDatabase): { authenticate: (request: FastifyRequest) => Promise<void>; requireOperator: onRequestAsyncHookHandler } {
  const authenticate = async (request: FastifyRequest) => {
    if (request.operator) return;
    const token = readBearer(request);
    if (!token || token.length > 200) throw new AppError('session_expired', OPERATOR_SESSION_MESSAGE);
    if (!token.startsWith(`${OPERATOR_TOKEN_PREFIX}_`)) throw new AppError('forbidden', NOT_AN_OPERATOR_MESSAGE);
    const operator = await selectOperatorBySession(database.db, hashToken(token));
    if (!operator) throw new AppError('session_expired', OPERATOR_SESSION_MESSAGE);
    request.operator = operator;
  };
  const requireOperator: onRequestAsyncHookHandler = async (request) => authenticate(request);
  return { authenticate, requireOperator };
}
export type TOperatorGuard = ReturnType<typeof createOperatorGuard>;
