import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ZOpsFailedJobsQuery,
  ZOpsFailedJobsResponse,
  ZOpsJobAction,
  ZOpsJobActionResponse,
  ZOpsMailHostsResponse,
  ZOpsPausedHostsResponse,
  ZOpsPauseHost,
  ZOpsPaymentEventsQuery,
  ZOpsPaymentEventsResponse,
  ZOpsQueuesResponse,
  ZOpsResumeHost,
} from '@verilead/contracts';
import type { TDeps } from '../../platform/deps';
import { ok, withErrorResponses } from '../../platform/http/responses';
import { createOperatorGuard, getOperator, OPS_SECURITY, OPS_TAGS } from '../ops-console';
import { actOnFailedJob, listFailedJobs, listQueueFigures } from './job-queues';
import { getMailHosts, pauseMailHost, resumeMailHost } from './mail-hosts';
import { listPaymentEvents } from './payment-events';

/**
 * The operator console's infrastructure routes (under /api/v1/ops, operator sessions only): the job queues and their
 * failed jobs (retry, discard), the verifier's mail hosts (pause, resume) and payment events.
 */
export function registerOpsInfraRoutes(app: FastifyInstance, deps: TDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { requireOperator: onRequest } = createOperatorGuard(deps.database);
  const tags = OPS_TAGS;
  const security = OPS_SECURITY;
  r.get('/ops/queues', { onRequest, schema: { tags, security, summary: 'Job queues: depth, oldest waiting, running, finished', response: withErrorResponses({ 200: ZOpsQueuesResponse }) } }, async () =>
    ok(await listQueueFigures(deps)),
  );
  r.get(
    '/ops/queues/failed',
    { onRequest, schema: { tags, security, summary: 'Failed jobs with their error, newest first', querystring: ZOpsFailedJobsQuery, response: withErrorResponses({ 200: ZOpsFailedJobsResponse }) } },
    async (req) => ok(await listFailedJobs(deps, req.query)),
  );
  r.post(
    '/ops/queues/retry',
    { onRequest, schema: { tags, security, summary: 'Retry a failed job', body: ZOpsJobAction, response: withErrorResponses({ 200: ZOpsJobActionResponse }) } },
    async (req) => ok(await actOnFailedJob(deps, getOperator(req), req.body, 'retry')),
  );
  r.post(
    '/ops/queues/discard',
    { onRequest, schema: { tags, security, summary: 'Discard a failed job', body: ZOpsJobAction, response: withErrorResponses({ 200: ZOpsJobActionResponse }) } },
    async (req) => ok(await actOnFailedJob(deps, getOperator(req), req.body, 'discard')),
  );
  r.get(
    '/ops/mail_hosts',
    { onRequest, schema: { tags, security, summary: "The verifier's mail hosts, per process, and the paused ones", response: withErrorResponses({ 200: ZOpsMailHostsResponse }) } },
    async () => ok(await getMailHosts(deps)),
  );
  r.post(
    '/ops/mail_hosts/pause',
    { onRequest, schema: { tags, security, summary: 'Pause a mail host: its verifications wait', body: ZOpsPauseHost, response: withErrorResponses({ 200: ZOpsPausedHostsResponse }) } },
    async (req) => ok(await pauseMailHost(deps, getOperator(req), req.body)),
  );
  r.post(
    '/ops/mail_hosts/resume',
    { onRequest, schema: { tags, security, summary: 'Resume a paused mail host', body: ZOpsResumeHost, response: withErrorResponses({ 200: ZOpsPausedHostsResponse }) } },
    async (req) => ok(await resumeMailHost(deps, getOperator(req), req.body)),
  );
  r.get(
    '/ops/payments/events',
    { onRequest, schema: { tags, security, summary: 'Payment provider events and failures, newest first', querystring: ZOpsPaymentEventsQuery, response: withErrorResponses({ 200: ZOpsPaymentEventsResponse }) } },
    async (req) => ok(await listPaymentEvents(deps, req.query)),
  );
}
