import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ZCreditStatusResponse,
  ZCreditTransactionsQuery,
  ZCreditTransactionsResponse,
  ZCreditLedgerResponse,
  ZCreditLedgerRowsQuery,
  ZCreditsAndLimitsResponse,
  ZUserCreditsResponse,
} from '@verilead/contracts';
import { getCaller, type TGuards } from '../../platform/auth/guards';
import type { TDeps } from '../../platform/deps';
import { ok, withErrorResponses } from '../../platform/http/responses';
import { checkCreditStatus, getCreditsAndLimits, getUserCredits, listLedgerGroupRows, listLedgerGroups, listTransactions } from './service';

export function registerCreditRoutes(app: FastifyInstance, deps: TDeps, guards: TGuards) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const db = deps.database.db;
  const base = { tags: ['user'], security: [{ bearer: [] }] };
  r.get(
    '/user/credits_and_limits',
    { onRequest: guards.requireAuth, schema: { ...base, summary: 'Credits and member limits', response: withErrorResponses({ 200: ZCreditsAndLimitsResponse }) } },
    async (req) => ok(await getCreditsAndLimits(db, getCaller(req))),
  );
  r.get(
    '/user/credits_and_limits/transactions',
    {
      onRequest: guards.requireAuth,
      schema: { ...base, summary: 'The credits ledger, paged', querystring: ZCreditTransactionsQuery, response: withErrorResponses({ 200: ZCreditTransactionsResponse }) },
    },
    async (req) => ok(await listTransactions(db, getCaller(req), req.query)),
  );
  r.get(
    '/user/credits_and_limits/ledger',
    {
      onRequest: guards.requireAuth,
      schema: { ...base, summary: 'The credits ledger in lines: one per job, per day and source of instant calls, per purchase', querystring: ZCreditTransactionsQuery, response: withErrorResponses({ 200: ZCreditLedgerResponse }) },
    },
    async (req) => ok(await listLedgerGroups(db, getCaller(req), req.query)),
  );
  r.get(
    '/user/credits_and_limits/ledger/rows',
    {
      onRequest: guards.requireAuth,
      schema: { ...base, summary: 'The rows of one ledger line', querystring: ZCreditLedgerRowsQuery, response: withErrorResponses({ 200: ZCreditTransactionsResponse }) },
    },
    async (req) => ok(await listLedgerGroupRows(db, getCaller(req), req.query)),
  );
  r.get(
    '/user/check_credit_status',
    { onRequest: guards.requireAuth, schema: { ...base, summary: 'Whether the user has credits left', response: withErrorResponses({ 200: ZCreditStatusResponse }) } },
    async (req) => ok(await checkCreditStatus(db, getCaller(req))),
  );
  r.get(
    '/email_verify/getusercredits',
    {
      onRequest: guards.requireAuth,
      schema: { ...base, tags: ['email_verify'], summary: 'Credits available for verification', response: withErrorResponses({ 200: ZUserCreditsResponse }) },
    },
    async (req) => ok(await getUserCredits(db, getCaller(req))),
  );
}
