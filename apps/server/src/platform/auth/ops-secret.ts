import { timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { TConfig } from '../../config';
import { AppError } from '../errors/app-error';
import { rateLimitFor } from '../http/rate-limits';

/** The header the ops command (`npm run ops -- …`) sends APP_SECRET in when it asks the running server. */
export const OPS_SECRET_HEADER = 'x-ops-secret';

/** Whether the request carries APP_SECRET (compared in constant time). */
export function hasOpsSecret(config: Pick<TConfig, 'appSecret'>, request: FastifyRequest): boolean {
  const given = request.headers[OPS_SECRET_HEADER];
  const secret = Buffer.from(typeof given === 'string' ? given : '');
  const expected = Buffer.from(config.appSecret);
  return secret.length === expected.length && timingSafeEqual(secret, expected);
}

/**
 * Route options of an endpoint the ops command calls, authenticated by APP_SECRET (`/ops/create_owner`,
 * `/ops/onetool_token`, `/ops/announcement`, `/ops/create_operator`, `/ops/operator_status`): the sign-in rate limit
 * (per address, counted before the secret is checked, so guessing it is limited too), then the secret, before the
 * body is read; a wrong or missing secret answers 403.
 */
export function opsSecretRoute(config: TConfig) {
  return {
    config: rateLimitFor(config, 'auth'),
    preValidation: async (request: FastifyRequest) => {
      if (!hasOpsSecret(config, request)) throw new AppError('forbidden', 'Forbidden');
    },
  };
}
