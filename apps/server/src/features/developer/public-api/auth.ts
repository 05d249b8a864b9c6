import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RateLimitOptions } from '@fastify/rate-limit';
import { PUBLIC_API_ERROR_CODES as CODES, PUBLIC_API_PREFIX, RATE_WINDOW_SECONDS } from '@verilead/contracts';
import type { TDb } from '../../../platform/db/database';
import type { TDeps } from '../../../platform/deps';
import { resolveAppToken, type TAppCaller } from '../service';
import { fail, INVALID_TOKEN } from './errors';

declare module 'fastify' {
  interface FastifyRequest {
    /** The /v2 caller: the app behind the bearer token, resolved once per request (onRequest). */
    appCaller: TAppCaller | null;
  }
}

/** The request's app caller (after the /v2 authentication); 401 when there is none. */
export function publicCaller(req: FastifyRequest): TAppCaller {
  const c = req.appCaller;
  if (!c) throw fail(401, CODES.invalidToken, INVALID_TOKEN);
  return c;
}

const rateLimitMessage = (resetAt: number) =>
  `You have reached API rate limit, try calling after ${new Date(resetAt).toString()} or to increase limit raise the app's rate limit`;

/**
 * The /v2 rate limit, as every /v2 route's `config.rateLimit` (@fastify/rate-limit, Redis store with REDIS_URL so every
 * API process counts in one place). It runs as a preHandler, after the token is resolved: the app's own window, max
 * and scope (per IP or global) decide; a call without an app (the public document) counts per IP. Answers carry
 * X-RateLimit-Limit/Remaining/Reset (seconds until the window resets), and a 429 Retry-After.
 */
export function publicRateLimit(deps: TDeps): RateLimitOptions {
  const { rateLimit } = deps.config;
  return {
    hook: 'preHandler',
    keyGenerator: async (req) => {
      const c = req.appCaller;
      if (!c) return `v2ip|${req.ip}`;
      const r = c.app.rateLimit;
      return `v2app|${c.app.id}|${r.window}|${r.scope === 'ip' ? req.ip : '*'}`;
    },
    max: async (req) => req.appCaller?.app.rateLimit.max ?? rateLimit.publicMax,
    timeWindow: async (req) => {
      const c = req.appCaller;
      return c ? RATE_WINDOW_SECONDS[c.app.rateLimit.window] * 1000 : rateLimit.windowMs;
    },
    errorResponseBuilder: (_req, context) => fail(429, null, rateLimitMessage(Date.now() + context.ttl)),
  };
}

/** What a client (browser) app's token gets outside the form guard's routes. */
export const CLIENT_TOKEN_REFUSED = "This is a client app's token: it works only for the form guard widget (/v2/form_guard); call the API with a server app's token";

/**
 * The server app behind an `Authorization: Bearer <token>` header (through the few-seconds caller cache), or why it is
 * refused: no or an unknown token, or a client app's token (it sits in the pages that embed the widget: it works on
 * /v2/form_guard only, whose own routes check the origin and page). /v2 and the MCP server (/mcp) authenticate with it.
 */
export async function resolveServerAppToken(db: TDb, authorization: string | undefined): Promise<{ caller: TAppCaller; refused?: undefined } | { refused: 'unknown' | 'client' }> {
  const token = /^Bearer\s+(\S+)$/i.exec((authorization ?? '').trim())?.[1] ?? '';
  const found = token ? await resolveAppToken(db, token) : null;
  if (!found) return { refused: 'unknown' };
  // An Origin header authenticates nothing.
  if (found.app.type !== 'server') return { refused: 'client' };
  return { caller: found };
}

/**
 * The per-IP limit of calls without a known token (none, or one no app has), shared by /v2 and the MCP server (/mcp)
 * in one window (the public limit per IP): a guesser is counted before the 401. Throws the rate limit's 429 (with
 * X-RateLimit-* and Retry-After) once the window is used up; answers otherwise, the caller then refuses with its 401.
 */
export function createAnonymousLimit(instance: FastifyInstance, deps: TDeps): TAnonymousLimit {
  let limit = anonymousLimits.get(deps);
  if (!limit) anonymousLimits.set(deps, (limit = makeAnonymousLimit(instance, deps)));
  return limit;
}

type TAnonymousLimit = (req: FastifyRequest, reply: FastifyReply) => Promise<void>;
/** One limiter per app (its deps): the in-process store then holds one window per IP, as the Redis store's key does. */
const anonymousLimits = new WeakMap<TDeps, TAnonymousLimit>();

function makeAnonymousLimit(instance: FastifyInstance, deps: TDeps): TAnonymousLimit {
  const { config } = deps;
  const anonymous = instance.createRateLimit({ keyGenerator: (req) => `v2anon|${req.ip}`, max: config.rateLimit.publicMax, timeWindow: config.rateLimit.windowMs });
  return async (req, reply) => {
    const limit = await anonymous(req);
    if (limit.isAllowed) return;
    reply.header('X-RateLimit-Limit', String(limit.max)).header('X-RateLimit-Remaining', String(limit.remaining)).header('X-RateLimit-Reset', String(limit.ttlInSeconds));
    if (limit.isExceeded) {
      reply.header('Retry-After', String(limit.ttlInSeconds));
      throw fail(429, null, rateLimitMessage(Date.now() + limit.ttl));
    }
  };
}

/**
 * The one authentication path of /v2: the bearer token is resolved once per request (through the few-seconds caller
 * cache) into `request.appCaller`; an unknown token answers 401 (counted per IP first), and so does a client app's
 * token (it belongs to /v2/form_guard, registered outside this scope with its own origin and page checks).
 */
export function registerPublicApiAuth(v2: FastifyInstance, deps: TDeps): void {
  const { database } = deps;
  v2.decorateRequest('appCaller', null);
  const countAnonymous = createAnonymousLimit(v2, deps);
  v2.addHook('onRequest', async (req, reply) => {
    // CORS preflight of browser (client) apps: the real call is then checked against the app's origins.
    if (req.method === 'OPTIONS') return;
    if (req.url.split('?')[0] === `${PUBLIC_API_PREFIX}/openapi.json`) return;
    const resolved = await resolveServerAppToken(database.db, req.headers.authorization);
    if (resolved.refused === 'unknown') {
      await countAnonymous(req, reply);
      throw fail(401, CODES.invalidToken, INVALID_TOKEN);
    }
    if (resolved.refused) throw fail(401, CODES.notAuthorized, CLIENT_TOKEN_REFUSED);
    req.appCaller = resolved.caller;
  });
}
