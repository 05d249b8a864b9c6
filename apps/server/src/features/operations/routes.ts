import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { TDeps } from '../../platform/deps';
import { buildFailure } from '../../platform/errors/error-handler';
import { ok } from '../../platform/http/responses';
import type { TAppMetrics } from './metrics';
import { checkReadiness, type TRedisPing } from './readiness';

function sameSecret(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

/**
 * Operations endpoints outside the API prefixes (no session, no app version): `/health/live` (the process answers),
 * `/health/ready` (503 while the database or Redis does not answer, or migrations are pending) and `/metrics`
 * (Prometheus text, only with METRICS_TOKEN set and sent as a bearer token; unset → 404).
 */
export function registerOperationsRoutes(app: FastifyInstance, deps: TDeps, metrics: TAppMetrics | null, redis: TRedisPing | null): void {
  app.get('/health/live', { schema: { hide: true } }, async (_request, reply) => {
    return reply.header('cache-control', 'no-store').send(ok({ live: true, uptime_seconds: Math.round(process.uptime()) }));
  });

  app.get('/health/ready', { schema: { hide: true } }, async (_request, reply) => {
    const readiness = await checkReadiness(deps.database, redis);
    reply.header('cache-control', 'no-store');
    if (readiness.ready) return reply.send(ok(readiness));
    const failing = readiness.checks.filter((c) => !c.ok).map((c) => c.detail);
    return reply.status(503).send(buildFailure('not_ready', `Not ready: ${failing.join('; ')}`, { additional_info: readiness }));
  });

  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    const expected = deps.config.metricsToken;
    if (!expected || !metrics) return reply.status(404).send(buildFailure('route_not_found', 'No route GET /metrics'));
    const match = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization?.trim() ?? '');
    if (!match?.[1] || !sameSecret(match[1], expected)) {
      reply.header('www-authenticate', 'Bearer realm="metrics"');
      return reply.status(401).send(buildFailure('unauthorized', 'The metrics token is missing or wrong'));
    }
    const text = await metrics.render();
    return reply.header('cache-control', 'no-store').type(metrics.contentType).send(text);
  });
}
