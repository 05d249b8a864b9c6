import { sql } from 'drizzle-orm';
import type { TEnrichLeadsData, TEnrichRequest, TEnrichSettings, TRevealResult } from '@verilead/contracts';
import { selectRows, type TDatabase, type TDb } from '../../platform/db/database';
import type { TDeps } from '../../platform/deps';
import { isOutOfCredits } from '../../platform/credits/ledger';
import { AppError, throwNotFound } from '../../platform/errors/app-error';
import type { TJobContext } from '../../platform/jobs/jobs';
import type { TCallerContext } from '../../platform/tenancy/context';
import type { TVerifier } from '../../platform/verifier/verifier';
import { recordActivity, type TRunningJobActivity } from '../activities';
import { getUserPreferences, getVerifierPreferences } from '../settings';
import { boundedEmailCheck, thoroughEmailCheck } from './email-check';
import { getList, visible } from './lists';
import { loadPeople, revealPerson, type TRevealOutcome } from './reveal';
import { toPersonViews } from './views';

/**
 * Enrichment requests. A few chosen people are enriched in the request; a whole list runs as a chain of jobs, one
 * per chunk of 25 leads (`prospect.enrich_chunk`): the request row holds the cursor (the last lead done) and the
 * counters, each chunk enqueues the next in the transaction that saves its progress, and a cancel is seen between
 * leads. Charges go through reveal.ts (once per organisation and field), so a retried chunk never charges twice.
 * Chosen people are checked within the request's time budget (email-check.ts: bounded), a list's leads thoroughly.
 */

export const ENRICH_CHUNK_JOB = 'prospect.enrich_chunk';
export const ENRICH_CHUNK_SIZE = 25;
/** The time POST /prospect/enrich gives its address checks, all together; what is not confirmed by then stays hidden (free). */
export const ENRICH_REQUEST_BUDGET_MS = 30_000;
/** Addresses POST /prospect/enrich checks at once. */
const ENRICH_REQUEST_CONCURRENCY = 4;

type TRequestRow = {
  id: string;
  kind: 'lead' | 'list';
  list_id: string | null;
  list_name: string | null;
  user_id: string;
  org_id: string;
  state: TEnrichRequest['state'];
  options: TEnrichSettings;
  cursor: string | null;
  total: number;
  processed: number;
  emails_revealed: number;
  phones_revealed: number;
  credits_charged: number;
  job_id: string | null;
  error: string | null;
  created_at: Date | string;
  updated_at: Date | string;
};

const REQUEST_COLUMNS = sql.raw(
  `r.id, r.kind, r.list_id, l.name as list_name, r.user_id, r.org_id, r.state, r.options, r.cursor, r.total, r.processed, r.emails_revealed,
   r.phones_revealed, r.credits_charged, r.job_id, r.error, r.created_at, r.updated_at`,
);
const FROM_REQUESTS = sql.raw('prospect_enrich_requests r left join prospect_lists l on l.id = r.list_id');

export function toRequestView(r: TRequestRow): TEnrichRequest {
  const total = Number(r.total);
  const processed = Number(r.processed);
  return {
    request_id: r.id,
    kind: r.kind,
    list_id: r.list_id,
    list_name: r.list_name,
    state: r.state,
    options: r.options,
    total,
    processed,
    progress: r.state === 'completed' ? 100 : total === 0 ? 0 : Math.min(100, Math.floor((processed * 100) / total)),
    emails_revealed: Number(r.emails_revealed),
    phones_revealed: Number(r.phones_revealed),
    credits_charged: Number(r.credits_charged),
    error: r.error,
    created_at: new Date(r.created_at).toISOString(),
    updated_at: new Date(r.updated_at).toISOString(),
  };
}

async function selectRequest(exec: TDb, id: string, ctx?: TCallerContext, forUpdate = false): Promise<TRequestRow | null> {
  const rows = await selectRows<TRequestRow>(
    exec,
    sql`select ${REQUEST_COLUMNS} from ${FROM_REQUESTS} where r.id = ${id} ${ctx ? sql`and ${visible(ctx, 'r')}` : sql``} ${forUpdate ? sql`for update of r` : sql``}`,
  );
  return rows[0] ?? null;
}

/** The member's enrichments still queued or running, with their progress. */
export async function listRunningEnrichments(exec: TDb, who: { orgId: string; userId: string }): Promise<TRunningJobActivity[]> {
  const rows = await selectRows<TRequestRow>(
    exec,
    sql`select ${REQUEST_COLUMNS} from ${FROM_REQUESTS} where r.org_id = ${who.orgId} and r.user_id = ${who.userId} and r.state in ('queued', 'in_progress')
        order by r.updated_at desc limit 200`,
  );
  return rows.map((r) => {
    const view = toRequestView(r);
    return {
      key: `enrich:${r.id}`,
      type: 'enrich',
      status: r.state === 'in_progress' ? 'in_progress' : 'queued',
      progress: r.state === 'in_progress' ? view.progress : null,
      description: r.list_name ? `The list "${r.list_name}" (${view.total} leads)` : `${view.total} lead(s)`,
      metadata: { feature: 'prospect', request_id: r.id, list_id: r.list_id, processed: view.processed },
      since: new Date(r.updated_at),
    };
  });
}

export async function getRequest(exec: TDb, ctx: TCallerContext, id: string): Promise<TEnrichRequest> {
  const row = await selectRequest(exec, id, ctx);
  if (!row) throwNotFound('Request');
  return toRequestView(row);
}

export async function latestListRequest(exec: TDb, listId: string): Promise<TEnrichRequest | null> {
  const rows = await selectRows<TRequestRow>(exec, sql`select ${REQUEST_COLUMNS} from ${FROM_REQUESTS} where r.list_id = ${listId} order by r.created_at desc limit 1`);
  return rows[0] ? toRequestView(rows[0]) : null;
}

export async function listRequests(exec: TDb, ctx: TCallerContext, q: { page: number; limit: number }, inProgressOnly = false) {
  const where = inProgressOnly ? sql`${visible(ctx, 'r')} and r.state in ('queued', 'in_progress')` : visible(ctx, 'r');
  const [rows, count] = await Promise.all([
    selectRows<TRequestRow>(exec, sql`select ${REQUEST_COLUMNS} from ${FROM_REQUESTS} where ${where} order by r.created_at desc, r.id limit ${q.limit} offset ${(q.page - 1) * q.limit}`),
    selectRows<{ n: number }>(exec, sql`select count(*)::int as n from prospect_enrich_requests r where ${where}`),
  ]);
  return { items: rows.map(toRequestView), total: count[0]?.n ?? 0, page: q.page, limit: q.limit };
}

async function resolveOptions(exec: TDb, ctx: TCallerContext, options?: TEnrichSettings): Promise<TEnrichSettings> {
  return options ?? (await getUserPreferences(exec, ctx)).prospect_settings.person_enrich_settings;
}

export type TEnrichLeadsRun = {
  /** Aborts when the request closes (the client went away): checks stop, the request is cancelled, nothing more is charged. */
  closed?: AbortSignal;
  /** The time the address checks may take together (default ENRICH_REQUEST_BUDGET_MS). */
  budgetMs?: number;
};

/** Runs `work` over `items`, `concurrency` at a time, in order; after a failure no new item starts, and the first failure is thrown. */
async function mapPool<T, R>(items: readonly T[], concurrency: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  let failure: { err: unknown } | null = null;
  const worker = async () => {
    while (!failure && next < items.length) {
      const i = next++;
      try {
        out[i] = await work(items[i]!);
      } catch (err) {
        failure ??= { err };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  if (failure) throw (failure as { err: unknown }).err;
  return out;
}

/** POST /prospect/enrich: reveals up to 25 chosen people now, checking their addresses within the request's budget. */
export async function enrichLeads(
  deps: TDeps,
  verifier: TVerifier,
  ctx: TCallerContext,
  personIds: string[],
  options?: TEnrichSettings,
  run: TEnrichLeadsRun = {},
): Promise<TEnrichLeadsData> {
  const { database } = deps;
  const ids = [...new Set(personIds)];
  const people = await loadPeople(database.db, ids);
  if (people.length < ids.length) throwNotFound('Person');
  const [opts, prefs] = await Promise.all([resolveOptions(database.db, ctx, options), getVerifierPreferences(database.db, ctx)]);
  const created = await selectRows<{ id: string }>(
    database.db,
    sql`insert into prospect_enrich_requests (org_id, user_id, kind, state, options, person_ids, total)
        values (${ctx.orgId}, ${ctx.userId}, 'lead', 'in_progress', ${JSON.stringify(opts)}::jsonb, ${JSON.stringify(ids)}::jsonb, ${ids.length}) returning id`,
  );
  const requestId = created[0]!.id;
  const check = boundedEmailCheck(verifier, prefs, { deadline: AbortSignal.timeout(run.budgetMs ?? ENRICH_REQUEST_BUDGET_MS), closed: run.closed });
  const revealCtx = { orgId: ctx.orgId, userId: ctx.userId, sourceAgent: 'enrich_lead' as const, objectId: requestId };
  let outcomes: TRevealOutcome[];
  try {
    outcomes = await mapPool(people, ENRICH_REQUEST_CONCURRENCY, async (person) => {
      if (run.closed?.aborted) throw run.closed.reason;
      const out = await revealPerson(database, revealCtx, person, opts, check);
      await bump(database.db, requestId, person.id, out);
      return out;
    });
  } catch (failure) {
    const closed = run.closed?.aborted === true;
    const message = closed
      ? 'The request was closed before it finished; what was revealed until then stays revealed'
      : failure instanceof AppError
        ? failure.message
        : 'The enrichment stopped on an error';
    await database.db.execute(sql`update prospect_enrich_requests set state = ${closed ? 'cancelled' : 'failed'}, error = ${message}, updated_at = now() where id = ${requestId}`);
    throw failure;
  }
  await database.db.execute(sql`update prospect_enrich_requests set state = 'completed', updated_at = now() where id = ${requestId}`);
  await recordActivity(database.db, { orgId: ctx.orgId, userId: ctx.userId, type: 'enrich', description: `Enriched ${ids.length} prospect(s)`, metadata: { feature: 'prospect', request_id: requestId } });
  const results: TRevealResult[] = people.map((p, i) => ({ person_id: p.id, email: outcomes[i]!.email, phone: outcomes[i]!.phone }));
  return { request: await getRequest(database.db, ctx, requestId), people: await toPersonViews(database.db, ctx.orgId, people), results };
}

async function bump(exec: TDb, requestId: string, personId: string, out: { emailsRevealed: number; phonesRevealed: number; credits: number }) {
  await exec.execute(sql`update prospect_enrich_requests set processed = processed + 1, cursor = ${personId},
    emails_revealed = emails_revealed + ${out.emailsRevealed}, phones_revealed = phones_revealed + ${out.phonesRevealed},
    credits_charged = credits_charged + ${out.credits}, updated_at = now() where id = ${requestId}`);
}

/** POST /prospect/list/enrich: starts enriching a list (one request at a time per list). */
export async function startListEnrich(deps: TDeps, ctx: TCallerContext, listId: string, options?: TEnrichSettings): Promise<TEnrichRequest> {
  const opts = await resolveOptions(deps.database.db, ctx, options);
  const id = await deps.database.transaction(async (tx) => {
    const list = await getList(tx, ctx, listId, true);
    if (list.state === 'in_progress') throw new AppError('conflict', 'This list is already being enriched');
    if (Number(list.lead_count) === 0) throw new AppError('validation_failed', 'This list has no people yet; add some from the search first');
    const rows = await selectRows<{ id: string }>(
      tx,
      sql`insert into prospect_enrich_requests (org_id, user_id, list_id, kind, state, options, total)
          values (${ctx.orgId}, ${ctx.userId}, ${listId}, 'list', 'queued', ${JSON.stringify(opts)}::jsonb, ${list.lead_count}) returning id`,
    );
    const requestId = rows[0]!.id;
    const jobId = await deps.queue.enqueue(ENRICH_CHUNK_JOB, { requestId }, { tx, orgId: ctx.orgId, userId: ctx.userId });
    await tx.execute(sql`update prospect_enrich_requests set job_id = ${jobId} where id = ${requestId}`);
    await tx.execute(sql`update prospect_lists set state = 'in_progress', updated_at = now() where id = ${listId}`);
    return requestId;
  });
  return getRequest(deps.database.db, ctx, id);
}

/** Stops a running list enrichment (what was revealed stays revealed and billed). */
export async function cancelRequest(deps: TDeps, ctx: TCallerContext, requestId: string): Promise<TEnrichRequest> {
  const jobId = await deps.database.transaction(async (tx) => {
    const r = await selectRequest(tx, requestId, ctx, true);
    if (!r) throwNotFound('Request');
    if (r.state !== 'queued' && r.state !== 'in_progress') throw new AppError('conflict', 'This enrichment has already finished');
    await tx.execute(sql`update prospect_enrich_requests set state = 'cancelled', updated_at = now() where id = ${requestId}`);
    if (r.list_id) await tx.execute(sql`update prospect_lists set state = 'cancelled', updated_at = now() where id = ${r.list_id}`);
    await recordActivity(tx, {
      orgId: r.org_id,
      userId: r.user_id,
      type: 'enrich',
      description: `Cancelled enriching ${r.list_name ? `the list "${r.list_name}"` : 'the leads'}: ${Number(r.processed)} of ${Number(r.total)} leads done`,
      metadata: { feature: 'prospect', request_id: r.id, list_id: r.list_id, cancelled: true },
    });
    return r.job_id;
  });
  if (jobId) await deps.queue.cancel(jobId, ctx.orgId).catch(() => null);
  return getRequest(deps.database.db, ctx, requestId);
}

export async function cancelListEnrich(deps: TDeps, ctx: TCallerContext, listId: string): Promise<TEnrichRequest> {
  await getList(deps.database.db, ctx, listId);
  const latest = await latestListRequest(deps.database.db, listId);
  if (!latest || (latest.state !== 'queued' && latest.state !== 'in_progress')) throw new AppError('conflict', 'This list is not being enriched');
  return cancelRequest(deps, ctx, latest.request_id);
}

/** POST /prospect/remove: a running enrichment is stopped, a finished one leaves the requests. */
export async function removeRequest(deps: TDeps, ctx: TCallerContext, requestId: string) {
  const r = await getRequest(deps.database.db, ctx, requestId);
  if (r.state === 'queued' || r.state === 'in_progress') {
    await cancelRequest(deps, ctx, requestId);
    return { message: 'The enrichment was stopped; what was revealed stays in your list' };
  }
  await deps.database.db.execute(sql`delete from prospect_enrich_requests where id = ${requestId}`);
  return { message: 'The request was removed' };
}

async function finishList(database: TDatabase, r: TRequestRow, state: 'completed' | 'failed', error: string | null) {
  await database.transaction(async (tx) => {
    const upd = await selectRows<{ id: string }>(
      tx,
      sql`update prospect_enrich_requests set state = ${state}, error = ${error}, updated_at = now() where id = ${r.id} and state in ('queued', 'in_progress') returning id`,
    );
    if (upd.length === 0) return;
    if (r.list_id) await tx.execute(sql`update prospect_lists set state = ${state === 'completed' ? 'processed' : 'cancelled'}, updated_at = now() where id = ${r.list_id}`);
    await recordActivity(tx, {
      orgId: r.org_id,
      userId: r.user_id,
      type: state === 'completed' ? 'enrich' : 'failed',
      description: state === 'completed' ? `Enriched the list "${r.list_name ?? ''}"` : `Enriching the list "${r.list_name ?? ''}" stopped: ${error}`,
      metadata: { feature: 'prospect', request_id: r.id, list_id: r.list_id },
    });
  });
}

/** One chunk of a list enrichment; enqueues the next chunk, or finishes the request. */
export async function runEnrichChunk(database: TDatabase, verifier: TVerifier, deps: Pick<TDeps, 'queue'>, requestId: string, job: Pick<TJobContext, 'isCancelled' | 'reportProgress'>) {
  const r = await selectRequest(database.db, requestId);
  if (!r || (r.state !== 'queued' && r.state !== 'in_progress') || !r.list_id) return;
  await database.db.execute(sql`update prospect_enrich_requests set state = 'in_progress', updated_at = now() where id = ${requestId} and state = 'queued'`);
  const chunk = await selectRows<{ person_id: string }>(
    database.db,
    sql`select person_id from prospect_list_leads where list_id = ${r.list_id} ${r.cursor ? sql`and person_id > ${r.cursor}` : sql``}
        order by person_id limit ${ENRICH_CHUNK_SIZE}`,
  );
  const people = await loadPeople(
    database.db,
    chunk.map((c) => c.person_id),
  );
  const byId = new Map(people.map((p) => [p.id, p]));
  const ctx = { orgId: r.org_id, userId: r.user_id, sourceAgent: 'enrich_list' as const, objectId: requestId };
  const check = thoroughEmailCheck(verifier, await getVerifierPreferences(database.db, ctx));
  for (const { person_id } of chunk) {
    const state = await selectRows<{ state: string }>(database.db, sql`select state from prospect_enrich_requests where id = ${requestId}`);
    if (state[0]?.state !== 'in_progress' || (await job.isCancelled())) return;
    const person = byId.get(person_id);
    try {
      const out = person ? await revealPerson(database, ctx, person, r.options, check) : { emailsRevealed: 0, phonesRevealed: 0, credits: 0 };
      await bump(database.db, requestId, person_id, out);
    } catch (err) {
      if (isOutOfCredits(err)) {
        await finishList(database, r, 'failed', err.message);
        return;
      }
      throw err;
    }
  }
  const fresh = (await selectRequest(database.db, requestId))!;
  await job.reportProgress(fresh.total ? (fresh.processed * 100) / fresh.total : 100);
  if (chunk.length < ENRICH_CHUNK_SIZE) {
    await finishList(database, fresh, 'completed', null);
    return;
  }
  await database.transaction(async (tx) => {
    const locked = await selectRequest(tx, requestId, undefined, true);
    if (locked?.state !== 'in_progress') return;
    const jobId = await deps.queue.enqueue(ENRICH_CHUNK_JOB, { requestId }, { tx, orgId: r.org_id, userId: r.user_id });
    await tx.execute(sql`update prospect_enrich_requests set job_id = ${jobId} where id = ${requestId}`);
  });
}
