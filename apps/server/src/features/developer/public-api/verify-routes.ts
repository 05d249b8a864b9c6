import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import type { TVerificationResult } from '@verilead/contracts';
import type { TDeps } from '../../../platform/deps';
import { requestClosedSignal } from '../../../platform/http/request-closed';
import type { TVerifier } from '../../../platform/verifier/verifier';
import { getCreditsAndLimits } from '../../credits';
import { toPublicVerdict } from '../public-api-format';
import { publicCaller, publicRateLimit } from './auth';
import { parseInput, ZTimeoutMs } from './errors';
import { verifyForApp } from './instant-service';

const ZEmailBody = z.object({ email: z.string().trim().min(1).max(320), timeout: ZTimeoutMs.optional() });

/** /v2 instant verification, its single-attribute checks and the credits: thin routes over verifyForApp. */
export function registerPublicVerifyRoutes(v2: FastifyInstance, deps: TDeps, verifier: TVerifier): void {
  const config = { rateLimit: publicRateLimit(deps) };

  v2.get('/email_verify/getcredits', { config }, async (req) => {
    const c = publicCaller(req);
    const credits = await getCreditsAndLimits(deps.database.db, c.ctx);
    const daily = credits.limits.daily;
    const tomorrow = new Date();
    tomorrow.setUTCHours(24, 0, 0, 0);
    return {
      status: 'success',
      data: {
        available_credits: credits.credits,
        credits: {
          available: credits.credits,
          ...(daily.remaining !== null ? { available_daily_verify_limit: String(daily.remaining), reset_daily_verify_limit_date: tomorrow.toISOString() } : {}),
          total: credits.org_credits,
        },
        low_credit_balance_min_threshold: credits.low_credit_alert.threshold,
      },
    };
  });

  // A client that leaves stops its verification: nothing is stored or charged unless the charge had begun.
  const verifyOne = (req: { body: unknown } & Parameters<typeof publicCaller>[0], reply: FastifyReply) =>
    verifyForApp(deps, verifier, publicCaller(req), { ...parseInput(ZEmailBody, req.body, 'body'), signal: requestClosedSignal(reply) });

  v2.post('/email_verify/instant', { config }, async (req, reply) => ({ status: 'success', data: toPublicVerdict(await verifyOne(req, reply)) }));

  const single = (path: string, field: string, read: (r: TVerificationResult) => boolean) =>
    v2.post(path, { config }, async (req, reply) => {
      const r = await verifyOne(req, reply);
      return { status: 'success', data: { email_address: r.email, [field]: read(r) ? 'yes' : 'no', verified_on: r.verified_on, time_taken: Math.round(r.time_taken) } };
    });
  single('/email/verify/catchall', 'catchall', (r) => r.status === 'catch_all');
  single('/email/verify/disposable', 'disposable', (r) => r.disposable);
  single('/email/verify/business', 'business_account', (r) => !r.free_account && !r.disposable);
  single('/email/verify/free', 'free_account', (r) => r.free_account);
  single('/email/verify/role', 'role_account', (r) => r.role_account);
  single('/email/verify/gibberish', 'gibberish', (r) => r.gibberish);
}
