import {
  CREDITS_PER_FIND,
  EMAIL_FINDER_EVENTS,
  type TFinderHistoryItem,
  type TFinderResult,
  type TInstantFindData,
  type TQueueStatusData,
  type ZInstantFindRequest,
} from '@verilead/contracts';
import type { z } from 'zod';
import { chargeCredits } from '../../platform/credits/ledger';
import type { TDatabase, TDb } from '../../platform/db/database';
import type { TDeps } from '../../platform/deps';
import { AppErrorWithStatus, isAppError, throwNotFound } from '../../platform/errors/app-error';
import { getVisibleScope, type TCallerContext } from '../../platform/tenancy/context';
import type { TVerifier } from '../../platform/verifier/verifier';
import { recordEvent } from '../events';
import { getVerifierPreferences } from '../settings';
import { splitFullName, type TPersonName } from './candidates';
import {
  completeInstant,
  hasPaidInstantFind,
  incrementDomainPatterns,
  insertInstant,
  selectDomainPatterns,
  selectInstant,
  selectInstantById,
  updateInstant,
  type TInstantRow,
} from './queries';
import { readDomainInput, searchEmail } from './search';
import { badRequest, getFinderPrefs, NO_DIRECTORY, requireCredits, toStoredResult } from './finder-support';
import type { TInstantInput } from './tables';

export const INSTANT_JOB = 'email_finder.instant';

/** Validates the instant request: names and a domain, or a clear 400 (a company name needs the companies directory). */
export function readInstantInput(input: z.output<typeof ZInstantFindRequest>): TInstantInput {
  const name: TPersonName = input.first_name?.trim()
    ? { first: input.first_name.trim(), middle: input.middle_name?.trim() || null, last: input.last_name?.trim() ?? '' }
    : splitFullName(input.name ?? '');
  if (!name.first) badRequest('name', 'Please enter the person’s name');
  if (!name.last) badRequest('last_name', 'Please enter the person’s last name as well');
  const raw = input.domain?.trim() || input.company_name?.trim() || '';
  const read = readDomainInput(raw);
  if ('error' in read) badRequest('domain', read.error);
  if ('company' in read) badRequest(input.domain ? 'domain' : 'company_name', NO_DIRECTORY);
  return { name, domain: read.domain, companyName: input.company_name?.trim() || null };
}

export function toInstantResult(row: TInstantRow): TFinderHistoryItem {
  const r = row.result as unknown as TFinderResult;
  return { ...r, id: row.id, credits_charged: row.creditsCharged, created_at: row.createdAt.toISOString() };
}

/**
 * Runs the search of an instant row and stores it once: the result, the charge (found only), the domain pattern count
 * and the event, in one transaction. A second run (the queued job after a slow request) finds it completed and does nothing.
 */
async function runInstantSearch(database: TDatabase, verifier: TVerifier, id: string): Promise<TInstantRow | null> {
  const row = await selectInstantById(database.db, id);
  if (!row || row.state === 'completed' || row.state === 'failed') return row;
  const input = row.input;
  const ctx = { userId: row.userId, orgId: row.orgId };
  try {
    const [prefs, vprefs, counts] = await Promise.all([getFinderPrefs(database.db, ctx), getVerifierPreferences(database.db, ctx), selectDomainPatterns(database.db, input.domain)]);
    // The process's one engine: candidates share its warm sessions to the domain's mail host and its per-host limits.
    const { engine } = verifier;
    const outcome = await searchEmail(input.name, input.domain, {
      verify: (email) => engine.verify(email, { mode: vprefs.mode }),
      includeRoleEmail: prefs.includeRoleEmail,
      strictDomainCheck: prefs.strictDomainCheck,
      domainCounts: counts,
      companyName: input.companyName,
    });
    const result = toStoredResult(outcome);
    const found = result.status === 'found';
    return await database.transaction(async (tx) => {
      // The same person found again by the organisation costs nothing (charged once per found address).
      const charge = found && !(result.email && (await hasPaidInstantFind(tx, row.orgId, result.email, id)));
      const done = await completeInstant(tx, id, {
        state: 'completed',
        status: result.status,
        email: result.email,
        result: result as unknown as Record<string, unknown>,
        creditsCharged: charge ? CREDITS_PER_FIND : 0,
      });
      if (!done) return selectInstantById(tx, id);
      if (charge) {
        await chargeCredits(tx, { orgId: row.orgId, userId: row.userId, amount: CREDITS_PER_FIND, reason: 'Instant email finder', sourceAgent: 'instant_finder', objectType: 'finder_instant', objectId: id });
        if (result.reason.code === 'verified_valid' && result.pattern) await incrementDomainPatterns(tx, [{ domain: result.domain, pattern: result.pattern }]);
      }
      await recordEvent(tx, {
        orgId: row.orgId,
        userId: row.userId,
        type: EMAIL_FINDER_EVENTS.instantCompleted,
        payload: { id, email: result.email, status: result.status, confidence_score: result.confidence_score, catch_all: result.catch_all, domain: result.domain, full_name: result.full_name },
      });
      return done;
    });
  } catch (err) {
    const message = isAppError(err) ? err.message : 'The search failed; please try again';
    await database.transaction(async (tx) => {
      const failed = await completeInstant(tx, id, { state: 'failed', error: message });
      if (failed) {
        await recordEvent(tx, { orgId: row.orgId, userId: row.userId, type: EMAIL_FINDER_EVENTS.instantFailed, payload: { id, error: message, domain: input.domain } });
      }
    });
    throw err;
  }
}

/**
 * POST /email_finder/instant: searches within `timeout` ms; when the search takes longer (and `queue` is not false) the
 * answer is a qid and a durable job finishes it (GET instant/queue_status?qid).
 */
export async function findInstant(deps: TDeps, verifier: TVerifier, ctx: TCallerContext, input: z.output<typeof ZInstantFindRequest>): Promise<TInstantFindData> {
  const { database } = deps;
  const parsed = readInstantInput(input);
  await requireCredits(database.db, ctx);
  const row = await insertInstant(database.db, {
    orgId: ctx.orgId,
    userId: ctx.userId,
    state: 'running',
    input: parsed,
    fullName: [parsed.name.first, parsed.name.middle, parsed.name.last].filter(Boolean).join(' '),
    domain: parsed.domain,
  });
  const search = runInstantSearch(database, verifier, row.id);
  const answer = (done: TInstantRow | null): TInstantFindData => {
    if (!done || done.state !== 'completed') throw new AppErrorWithStatus(503, 'internal_error', done?.error ?? 'The search failed; please try again');
    return { ...toInstantResult(done), queued: false };
  };
  if (!input.queue) return answer(await search);
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), input.timeout);
  });
  const first = await Promise.race([search, timedOut]).finally(() => clearTimeout(timer));
  if (first !== 'timeout') return answer(first);
  // Slow mail server: a durable job takes over (the running search still stores its result if it ends first).
  search.catch(() => undefined);
  const jobId = await deps.queue.enqueue(INSTANT_JOB, { findId: row.id }, { orgId: ctx.orgId, userId: ctx.userId, maxAttempts: 3, backoffMs: 5_000, delayMs: 5_000 });
  await updateInstant(database.db, row.id, { jobId });
  return { queued: true, qid: row.id, message: 'The search is taking longer than usual; check GET /email_finder/instant/queue_status?qid for the result' };
}

/** The queued instant job: finishes a search the request could not wait for. Idempotent. */
export async function runInstantJob(database: TDatabase, verifier: TVerifier, findId: string): Promise<void> {
  await runInstantSearch(database, verifier, findId);
}

export async function getQueueStatus(exec: TDb, ctx: TCallerContext, qid: string): Promise<TQueueStatusData> {
  const row = await selectInstant(exec, getVisibleScope(ctx), qid);
  if (!row) throwNotFound('Search');
  const state = row.state === 'completed' ? 'completed' : row.state === 'failed' ? 'failed' : row.jobId ? 'queued' : 'running';
  return { qid: row.id, state, result: row.state === 'completed' ? toInstantResult(row) : null, error: row.error };
}
