import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZAuditLogExportQuery, ZAuditLogQuery, ZAuditLogResponse } from '@verilead/contracts';
import { getCaller, type TGuards } from '../../platform/auth/guards';
import type { TDeps } from '../../platform/deps';
import { ok, withErrorResponses } from '../../platform/http/responses';
import { exportAuditLogCsv, listAuditLog } from './service';

export function registerAuditRoutes(app: FastifyInstance, deps: TDeps, guards: TGuards) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const db = deps.database.db;
  const base = { tags: ['account'], security: [{ bearer: [] }] };
  r.get(
    '/audit_log',
    { onRequest: guards.requireAuth, schema: { ...base, summary: "The organisation's audit log, paged and filtered", querystring: ZAuditLogQuery, response: withErrorResponses({ 200: ZAuditLogResponse }) } },
    async (req) => ok(await listAuditLog(db, getCaller(req), req.query)),
  );
  r.get(
    '/audit_log/export',
    { onRequest: guards.requireAuth, schema: { ...base, summary: "The organisation's audit log as CSV (the same filters)", querystring: ZAuditLogExportQuery } },
    async (req, reply) => {
      const csv = await exportAuditLogCsv(db, getCaller(req), req.query);
      const day = new Date().toISOString().slice(0, 10);
      return reply.type('text/csv; charset=utf-8').header('content-disposition', `attachment; filename="audit-log-${day}.csv"`).send(csv);
    },
  );
}
