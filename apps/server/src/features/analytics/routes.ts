import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ZDashboardQuery,
  ZDashboardResponse,
  ZFinderUsageResponse,
  ZFormGuardUsageResponse,
  ZGraphRequest,
  ZGraphResponse,
  ZOverviewUsageResponse,
  ZPerformanceStatsRequest,
  ZPerformanceStatsResponse,
  ZProspectUsageResponse,
  ZReportRequest,
  ZVerifierUsageResponse,
} from '@verilead/contracts';
import { getCaller, type TGuards } from '../../platform/auth/guards';
import type { TDeps } from '../../platform/deps';
import { ok, withErrorResponses } from '../../platform/http/responses';
import {
  getDashboard,
  getFinderUsage,
  getFormGuardUsage,
  getOverviewUsage,
  getPerformanceStats,
  getProspectUsage,
  getUsageGraph,
  getVerifierUsage,
} from './service';

export function registerAnalyticsRoutes(app: FastifyInstance, deps: TDeps, guards: TGuards) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const db = deps.database.db;
  const base = { tags: ['insights'], security: [{ bearer: [] }] };
  const auth = { onRequest: guards.requireAuth };
  r.post(
    '/insights/graph',
    { ...auth, schema: { ...base, summary: 'Credits used per hour, day or month and feature', body: ZGraphRequest, response: withErrorResponses({ 200: ZGraphResponse }) } },
    async (req) => ok(await getUsageGraph(db, getCaller(req), req.body)),
  );
  r.post(
    '/insights/performance_stats',
    {
      ...auth,
      schema: { ...base, summary: 'Credits used per member or team', body: ZPerformanceStatsRequest, response: withErrorResponses({ 200: ZPerformanceStatsResponse }) },
    },
    async (req) => ok(await getPerformanceStats(db, getCaller(req), req.body)),
  );
  r.post(
    '/reports/usage',
    { ...auth, schema: { ...base, summary: 'Email verifier report', body: ZReportRequest, response: withErrorResponses({ 200: ZVerifierUsageResponse }) } },
    async (req) => ok(await getVerifierUsage(db, getCaller(req), req.body)),
  );
  r.post(
    '/reports/finder_usage',
    { ...auth, schema: { ...base, summary: 'Email finder report', body: ZReportRequest, response: withErrorResponses({ 200: ZFinderUsageResponse }) } },
    async (req) => ok(await getFinderUsage(db, getCaller(req), req.body)),
  );
  r.post(
    '/reports/prospect_usage',
    { ...auth, schema: { ...base, summary: 'Prospect report', body: ZReportRequest, response: withErrorResponses({ 200: ZProspectUsageResponse }) } },
    async (req) => ok(await getProspectUsage(db, getCaller(req), req.body)),
  );
  r.post(
    '/reports/overview_usage',
    { ...auth, schema: { ...base, summary: 'Overall billable split', body: ZReportRequest, response: withErrorResponses({ 200: ZOverviewUsageResponse }) } },
    async (req) => ok(await getOverviewUsage(db, getCaller(req), req.body)),
  );
  r.post(
    '/reports/js_widget_usage',
    { ...auth, schema: { ...base, summary: 'Form guard report', body: ZReportRequest, response: withErrorResponses({ 200: ZFormGuardUsageResponse }) } },
    async (req) => ok(await getFormGuardUsage(db, getCaller(req), req.body)),
  );
  r.get(
    '/dashboard',
    { ...auth, schema: { ...base, summary: 'The dashboard overview widgets', querystring: ZDashboardQuery, response: withErrorResponses({ 200: ZDashboardResponse }) } },
    async (req) => ok(await getDashboard(db, getCaller(req), req.query)),
  );
}
