import type { TConfig } from '../../config';

/** Route `config` for @fastify/rate-limit: 'auth' for login, sign-up and password calls, 'public' for unauthenticated endpoints. */
export function rateLimitFor(config: TConfig, kind: 'auth' | 'public') {
  const max = kind === 'auth' ? config.rateLimit.authMax : config.rateLimit.publicMax;
  return { rateLimit: { max, timeWindow: config.rateLimit.windowMs } };
}
