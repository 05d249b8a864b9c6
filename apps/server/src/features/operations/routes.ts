import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TDeps } from '../../platform/deps';
import { buildFailure } from '../../platform/errors/error-handler';
import { ok } from '../../platform/http/responses';
import type { TAppMetrics } from './metrics';
import { createReadinessProbe, type TReadiness, type TRedisPing } from './readiness';

function sameSecret(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

/** Whether the request carries METRICS_TOKEN as its bearer token (never, while it is unset). */
function hasMetricsToken(request: FastifyRequest, expected: string | undefined): boolean {
  const match = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization?.trim() ?? '');
  return Boolean(expected && match?.[1] && sameSecret(match[1], expected));
}

/** What a caller reads of a readiness answer: each check's detail with the metrics token, its summary otherwise. */
function readinessView(readiness: TReadiness, full: boolean) {
  return { ready: readiness.ready, checks: readiness.checks.map((c) => ({ name: c.name, ok: c.ok, detail: full ? c.detail : c.summary })) };
}

/**
 * Operations endpoints outside the API prefixes (no session, no app version): `/health/live` (the process answers),
 * `/health/ready` (503 while the database or Redis does not answer, or migrations are pending; one check a second at
 * most, shared by every caller; which component failed for anyone, the failure's detail only with the metrics token)
 * and `/metrics` (Prometheus text, only with METRICS_TOKEN set and sent as a bearer token; unset → 404).
 */
export function registerOperationsRoutes(app: FastifyInstance, deps: TDeps, metrics: TAppMetrics | null, redis: TRedisPing | null): void {
  app.get('/health/live', { schema: { hide: true } }, async (_request, reply) => {
    return reply.header('cache-control', 'no-store').send(ok({ live: true, uptime_seconds: Math.round(process.uptime()) }));
  });

  // The migration journal is read here, once; a failing check's detail (host, port, error) goes to the log.
  const readiness = createReadinessProbe(deps.database, redis, {
    onChecked: (r) => {
      if (!r.ready) app.log.warn({ checks: r.checks.filter((c) => !c.ok) }, 'not ready');
    },
  });
  app.get('/health/ready', { schema: { hide: true } }, async (request, reply) => {
    const view = readinessView(await readiness(), hasMetricsToken(request, deps.config.metricsToken));
    reply.header('cache-control', 'no-store');
    if (view.ready) return reply.send(ok(view));
    const failing = view.checks.filter((c) => !c.ok).map((c) => `${c.name}: ${c.detail}`);
    return reply.status(503).send(buildFailure('not_ready', `Not ready: ${failing.join('; ')}`, { additional_info: view }));
  });

  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    const expected = deps.config.metricsToken;
    if (!expected || !metrics) return reply.status(404).send(buildFailure('route_not_found', 'No route GET /metrics'));
    if (!hasMetricsToken(request, expected)) {
      reply.header('www-authenticate', 'Bearer realm="metrics"');
      return reply.status(401).send(buildFailure('unauthorized', 'The metrics token is missing or wrong'));
    }
    const text = await metrics.render();
    return reply.header('cache-control', 'no-store').type(metrics.contentType).send(text);
  });
}
