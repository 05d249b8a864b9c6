import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import {
  CREDITS_PER_FIND,
  DOWNLOAD_TOKEN_TTL_HOURS,
  EMAIL_FINDER_EVENTS,
  FINDER_COMPANY_NAME_UNSUPPORTED,
  type TFinderCheckDuplicateData,
  type TFinderColumnMapping,
  type TFinderDownloadData,
  type TFinderFileType,
  type TFinderHistoryData,
  type TFinderHistoryItem,
  type TFinderList,
  type TFinderListState,
  type TFinderListsData,
  type TFinderPattern,
  type TFinderProgressData,
  type TFinderResult,
  type TFinderStats,
  type TInstantFindData,
  type TJobActivityType,
  type TQueueStatusData,
  type ZFinderDownloadResultRequest,
  type ZFinderHistoryDownloadRequest,
  type ZFinderHistoryQuery,
  type ZFinderListsRequest,
  type ZInstantFindRequest,
} from '@verilead/contracts';
import type { z } from 'zod';
import type { TConfig } from '../../config';
import { writeCsv, writeXlsx } from '../../platform/bulk/file-writers';
import { inputColumnNames, withInputCells } from '../../platform/bulk/input-columns';
import { enqueueRowChunks, type TRowChunk } from '../../platform/bulk/row-chunks';
import { chargeCredits } from '../../platform/credits/ledger';
import { storeWhileCreditsLast } from '../../platform/credits/store-while-credits-last';
import type { TDatabase, TDb } from '../../platform/db/database';
import type { TDeps } from '../../platform/deps';
import { AppError, isAppError, throwNotFound } from '../../platform/errors/app-error';
import type { TJobContext, TJobQueue } from '../../platform/jobs/jobs';
import type { TFileStorage } from '../../platform/storage/storage';
import { getVisibleScope, type TCallerContext } from '../../platform/tenancy/context';
import type { TVerifier } from '../../platform/verifier/verifier';
import { recordActivity } from '../activities/service';
import { assertCreditsAvailable } from '../credits/service';
import { createDownloadToken, readDownloadToken } from '../downloads/service';
import { recordEvent } from '../events/service';
import { getUserPreferences, getVerifierPreferences } from '../settings/service';
import { splitFullName, type TPersonName } from './candidates';
import {
  completeInstant,
  countPendingRows,
  deleteList,
  EMPTY_FINDER_COUNTERS,
  incrementDomainPatterns,
  insertDownload,
  insertInstant,
  selectDomainPatterns,
  selectFinderChunkStarts,
  selectDownloadById,
  selectHistory,
  selectInstant,
  selectInstantById,
  selectList,
  selectListById,
  selectListForUpdate,
  selectLists,
  selectListsByFileName,
  selectPendingRows,
  selectRowResults,
  selectRowsPage,
  storeRowResults,
  transitionList,
  updateInstant,
  updateList,
  type TFinderListRow,
  type TInstantRow,
} from './queries';
import { selectFinderSummary } from './queries';
import { readSummaryRows } from '../../platform/db/summary-rows';
import type { TFinderUsageStats } from '@verilead/contracts';
import { readDomainInput, searchEmail, type TSearchOutcome } from './search';
import type { TFinderCounters } from './tables';

export const INSTANT_JOB = 'email_finder.instant';
/** `find_emails` plans a started list into `find_chunk` jobs; any worker takes any chunk. */
export const FIND_EMAILS_JOB = 'email_finder.find_emails';
export const FIND_CHUNK_JOB = 'email_finder.find_chunk';

type TFinderPrefs = { includeRoleEmail: boolean; strictDomainCheck: boolean };

async function getFinderPrefs(exec: TDb, ctx: Pick<TCallerContext, 'userId' | 'orgId'>): Promise<TFinderPrefs> {
  const prefs = await getUserPreferences(exec, ctx);
  return { includeRoleEmail: prefs.ef_settings.include_role_email, strictDomainCheck: prefs.ef_settings.strict_domain_check };
}

export function badRequest(field: string, message: string): never {
  throw new AppError(400, 'validation_failed', message, { reasons: [{ field, location: 'body', messages: [message] }] });
}

/** A company name instead of a domain: no companies directory exists yet (the same words as the web form's). */
const NO_DIRECTORY = FINDER_COMPANY_NAME_UNSUPPORTED;

/** The search's stored form (no verification transcript). */
function toStoredResult(r: TSearchOutcome): TFinderResult {
  const { verification: _v, ...rest } = r;
  return rest;
}

async function requireCredits(exec: TDb, ctx: TCallerContext, need = CREDITS_PER_FIND) {
  await assertCreditsAvailable(exec, ctx, need);
}

/** Domain pattern counts with an in-memory layer (a bulk job sees its own finds at once). */
export function createPatternBook(exec: TDb) {
  const cache = new Map<string, Record<string, number>>();
  return {
    async get(domain: string): Promise<Partial<Record<TFinderPattern, number>>> {
      let counts = cache.get(domain);
      if (!counts) {
        counts = await selectDomainPatterns(exec, domain);
        cache.set(domain, counts);
      }
      return counts as Partial<Record<TFinderPattern, number>>;
    },
    note(domain: string, pattern: string) {
      const counts = cache.get(domain) ?? {};
      counts[pattern] = (counts[pattern] ?? 0) + 1;
      cache.set(domain, counts);
    },
  };
}

// ---------- instant ----------

type TInstantInput = { name: TPersonName; domain: string; companyName: string | null };

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

function toInstantResult(row: TInstantRow): TFinderHistoryItem {
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
  const input = row.input as unknown as TInstantInput;
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
      const done = await completeInstant(tx, id, {
        state: 'completed',
        status: result.status,
        email: result.email,
        result: result as unknown as Record<string, unknown>,
        creditsCharged: found ? CREDITS_PER_FIND : 0,
      });
      if (!done) return selectInstantById(tx, id);
      if (found) {
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
    input: parsed as unknown as Record<string, unknown>,
    fullName: [parsed.name.first, parsed.name.middle, parsed.name.last].filter(Boolean).join(' '),
    domain: parsed.domain,
  });
  const search = runInstantSearch(database, verifier, row.id);
  const answer = (done: TInstantRow | null): TInstantFindData => {
    if (!done || done.state !== 'completed') throw new AppError(503, 'internal_error', done?.error ?? 'The search failed; please try again');
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

// ---------- history ----------

function historyFilter(ctx: TCallerContext, q: { search?: string; status?: string; from?: string; to?: string }) {
  const day = (v: string | undefined, end: boolean) => (v ? new Date(/^\d{4}-\d{2}-\d{2}$/.test(v) ? `${v}T${end ? '23:59:59.999' : '00:00:00'}Z` : v) : undefined);
  return { ...getVisibleScope(ctx), search: q.search, status: q.status, from: day(q.from, false), to: day(q.to, true) };
}

export async function listHistory(exec: TDb, ctx: TCallerContext, q: z.output<typeof ZFinderHistoryQuery>): Promise<TFinderHistoryData> {
  const { rows, total } = await selectHistory(exec, historyFilter(ctx, q), (q.page - 1) * q.limit, q.limit);
  return { items: rows.map(toInstantResult), total, page: q.page, limit: q.limit };
}

// ---------- lists: views ----------

function computeStats(row: TFinderListRow): TFinderStats {
  const c = { ...EMPTY_FINDER_COUNTERS, ...row.counters };
  return {
    total: row.searchableCount,
    found: c.found,
    not_found: c.not_found,
    business: c.business,
    role: c.role,
    catch_all: c.catch_all,
    confidence_score: c.found > 0 ? Math.round((c.confidence_sum / c.found) * 100) / 100 : 0,
    billable: c.billable,
  };
}

function toMapping(m: Record<string, number | null>): TFinderColumnMapping {
  const g = (k: string) => (typeof m[k] === 'number' ? m[k] : null);
  return { first_name: g('first_name'), last_name: g('last_name'), middle_name: g('middle_name'), full_name: g('full_name'), domain: g('domain'), company: g('company') };
}

export function toListView(row: TFinderListRow): TFinderList {
  const processed = (row.counters ?? EMPTY_FINDER_COUNTERS).processed;
  const remaining = Math.max(0, row.searchableCount - processed);
  const progress = row.searchableCount === 0 ? (row.state === 'processed' ? 100 : 0) : Math.min(100, Math.floor((processed / row.searchableCount) * 100));
  return {
    id: row.id,
    name: row.name,
    file_name: row.fileName,
    file_type: row.fileType as TFinderFileType,
    state: row.state as TFinderListState,
    activity: (row.activity as TJobActivityType | null) ?? null,
    mapping: toMapping(row.mapping),
    counts: { rows: row.rowCount, searchable: row.searchableCount, skipped: row.skippedCount, duplicate: Math.max(0, row.rowCount - row.searchableCount - row.skippedCount), processed, remaining },
    stats: computeStats(row),
    progress,
    stopped_reason: row.stoppedReason,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    processed_at: row.processedAt?.toISOString() ?? null,
  };
}

/** A list the caller sees (404 otherwise: another organisation's, or another member's for an Executive). */
async function requireList(exec: TDb, ctx: TCallerContext, listId: string): Promise<TFinderListRow> {
  const row = await selectList(exec, getVisibleScope(ctx), listId);
  if (!row) throwNotFound('List');
  return row;
}

export async function listFinderLists(exec: TDb, ctx: TCallerContext, q: z.output<typeof ZFinderListsRequest>): Promise<TFinderListsData> {
  const { rows, total } = await selectLists(exec, {
    ...getVisibleScope(ctx),
    search: q.search,
    state: q.state,
    listId: q.list_id,
    sortBy: q.sort_by,
    sortOrder: q.sort_order,
    offset: (q.page - 1) * q.limit,
    limit: q.limit,
  });
  return { items: rows.map(toListView), total, page: q.page, limit: q.limit };
}

export async function getFinderProgress(exec: TDb, ctx: TCallerContext, listId: string): Promise<TFinderProgressData> {
  const v = toListView(await requireList(exec, ctx, listId));
  return { list_id: v.id, state: v.state, activity: v.activity, progress: v.progress, processed: v.counts.processed, total: v.counts.searchable, stats: v.stats, stopped_reason: v.stopped_reason };
}

export async function checkFinderDuplicate(exec: TDb, ctx: TCallerContext, fileName: string): Promise<TFinderCheckDuplicateData> {
  const lists = await selectListsByFileName(exec, getVisibleScope(ctx), fileName.trim());
  return {
    is_duplicate: lists.length > 0,
    message: lists.length > 0 ? `A file named "${fileName.trim()}" was already uploaded. Upload it again?` : 'No file with this name was uploaded before',
    lists: lists.map((l) => ({ id: l.id, name: l.name, created_at: l.createdAt.toISOString() })),
  };
}

// ---------- lists: find, cancel, remove ----------

/** POST /email_finder/list/find_emails: starts (or resumes) the durable find_emails job. */
export async function startFindEmails(deps: Pick<TDeps, 'database' | 'queue'>, ctx: TCallerContext, listId: string): Promise<TFinderList> {
  const { database } = deps;
  const list = await requireList(database.db, ctx, listId);
  if (list.activity === 'analyse') throw new AppError(409, 'conflict', 'The file is still being read; please wait a moment');
  if (list.state === 'in_progress') throw new AppError(409, 'conflict', 'The list is already being processed');
  const remaining = await countPendingRows(database.db, list.id);
  if (remaining === 0) throw new AppError(409, 'conflict', 'Every row of this list is already processed');
  // Only found addresses are charged, so the job starts with at least one credit and stops cleanly when they run out.
  await requireCredits(database.db, ctx);
  await database.transaction(async (tx) => {
    const current = await selectListForUpdate(tx, list.id);
    if (!current || current.state === 'in_progress') throw new AppError(409, 'conflict', 'The list is already being processed');
    const jobId = await deps.queue.enqueue(FIND_EMAILS_JOB, { listId: list.id }, { tx, orgId: ctx.orgId, userId: ctx.userId, maxAttempts: 20, backoffMs: 2_000 });
    await updateList(tx, list.id, { state: 'in_progress', activity: 'find_emails', jobId, stoppedReason: null });
  });
  return toListView((await selectListById(database.db, list.id))!);
}

/** POST /email_finder/list/cancel: stops the job; what finished stays (and is billed when found), the rest is never charged. */
export async function cancelFindEmails(deps: TDeps, ctx: TCallerContext, listId: string): Promise<TFinderList> {
  const list = await requireList(deps.database.db, ctx, listId);
  const moved = await deps.database.transaction(async (tx) => {
    // The row lock waits for a batch being stored; once cancelled, no further batch is stored or charged (storeListBatch).
    const current = await selectListForUpdate(tx, listId);
    // A list whose file is still being read (the public API's upload-and-find) is cancelled too: its analysis ends, nothing starts.
    const analysing = current?.state === 'not_processed' && current.activity === 'analyse';
    if (!current || (current.state !== 'in_progress' && !analysing)) return false;
    const values = { state: 'cancelled', activity: analysing ? 'analyse' : null, stoppedReason: 'Cancelled by the user' };
    if (!(await transitionList(tx, getVisibleScope(ctx), listId, [current.state], values))) return false;
    const c = { ...EMPTY_FINDER_COUNTERS, ...current.counters };
    const entry = {
      orgId: list.orgId,
      type: 'find_emails' as const,
      description: `Cancelled the search of "${list.name}": ${c.processed} of ${list.searchableCount} people searched, ${c.billable} credit${c.billable === 1 ? '' : 's'} charged`,
      metadata: { list_id: listId, cancelled: true, processed: c.processed, credits_charged: c.billable },
    };
    await recordActivity(tx, { ...entry, userId: list.userId });
    if (ctx.userId !== list.userId) await recordActivity(tx, { ...entry, userId: ctx.userId });
    return true;
  });
  if (!moved) throw new AppError(409, 'conflict', 'Only a list being processed can be cancelled');
  if (list.jobId) await deps.queue.cancel(list.jobId, ctx.orgId);
  // Chunks not yet taken are dropped now; running ones stop at their next batch.
  await deps.queue.cancelWhere(FIND_CHUNK_JOB, { listId });
  return toListView((await selectList(deps.database.db, getVisibleScope(ctx), listId))!);
}

export async function removeFinderList(deps: TDeps, storage: TFileStorage, ctx: TCallerContext, listId: string): Promise<{ message: string }> {
  const list = await requireList(deps.database.db, ctx, listId);
  if (list.state === 'in_progress') throw new AppError(409, 'conflict', 'The list is being processed; cancel it first');
  if (list.activity === 'analyse') throw new AppError(409, 'conflict', 'The file is still being read; please wait a moment');
  await deleteList(deps.database.db, getVisibleScope(ctx), listId);
  await storage.remove(list.storageKey);
  return { message: 'List removed successfully' };
}

// ---------- lists: the find_emails job ----------

function addToCounters(c: TFinderCounters, r: TFinderResult, billable: boolean) {
  c.processed += 1;
  if (r.status === 'found') {
    c.found += 1;
    c.confidence_sum += r.confidence_score;
    if (r.business) c.business += 1;
    if (r.role) c.role += 1;
    if (r.catch_all) c.catch_all += 1;
  } else c.not_found += 1;
  if (billable) c.billable += 1;
}

type TPendingResult = { rowNumber: number; result: TFinderResult };

/** Stores results with their charges in one transaction; rows that already have a result are skipped and never charged again. */
async function storeListBatch(database: TDatabase, list: TFinderListRow, batch: TPendingResult[]): Promise<void> {
  await database.transaction(async (tx) => {
    const current = await selectListForUpdate(tx, list.id);
    // A cancelled (or stopped) list stores and charges nothing more: what it charged was told at the cancel.
    if (!current || current.state !== 'in_progress') return;
    const counters = { ...EMPTY_FINDER_COUNTERS, ...current.counters };
    const stored = await storeRowResults(
      tx,
      list.id,
      batch.map((b) => ({ rowNumber: b.rowNumber, status: b.result.status, result: b.result as unknown as Record<string, unknown>, billable: b.result.status === 'found' })),
    );
    const patterns: { domain: string; pattern: string }[] = [];
    for (const b of batch) {
      if (!stored.has(b.rowNumber)) continue;
      const billable = b.result.status === 'found';
      if (billable) {
        await chargeCredits(tx, { orgId: list.orgId, userId: list.userId, amount: CREDITS_PER_FIND, reason: 'Bulk email finder', sourceAgent: 'bulk_finder', objectType: 'finder_list_row', objectId: `${list.id}:${b.rowNumber}` });
      }
      if (b.result.reason.code === 'verified_valid' && b.result.pattern) patterns.push({ domain: b.result.domain, pattern: b.result.pattern });
      addToCounters(counters, b.result, billable);
    }
    await incrementDomainPatterns(tx, patterns);
    await updateList(tx, list.id, { counters });
  });
}

const JOB_PAGE = 200;
const STORE_BATCH = 25;

/** The plan: enqueues the chunk jobs of a started list in one transaction (a retried plan enqueues nothing twice). */
export async function planFindChunks(deps: { database: TDatabase; queue: TJobQueue; chunkSize: number }, listId: string, jobId: string): Promise<number> {
  const planned = await deps.database.transaction(async (tx) => {
    const list = await selectListForUpdate(tx, listId);
    if (!list || list.state !== 'in_progress' || list.plannedJobId === jobId) return null;
    const enqueued = await enqueueRowChunks(deps.queue, tx, FIND_CHUNK_JOB, list, await selectFinderChunkStarts(tx, listId, deps.chunkSize));
    await updateList(tx, listId, { plannedJobId: jobId });
    return enqueued;
  });
  if (planned === 0) await finishFinderListIfDone(deps.database, listId);
  return planned ?? 0;
}

/**
 * One chunk job: searches the pending rows `fromRow`…`toRow` (several people at once), stores and charges in batches.
 * Idempotent and resumable; when credits run out it stops the list and drops its queued chunks; the last chunk with
 * work finishes the list.
 */
export async function runFindChunk(
  deps: { database: TDatabase; queue: TJobQueue },
  verifier: TVerifier,
  chunk: TRowChunk,
  job: Pick<TJobContext, 'reportProgress' | 'isCancelled'>,
  opts: { concurrency?: number } = {},
): Promise<void> {
  const { database } = deps;
  const { listId } = chunk;
  const list = await selectListById(database.db, listId);
  if (!list || list.state !== 'in_progress') return;
  const ctx = { userId: list.userId, orgId: list.orgId };
  const [prefs, vprefs] = await Promise.all([getFinderPrefs(database.db, ctx), getVerifierPreferences(database.db, ctx)]);
  const book = createPatternBook(database.db);
  const concurrency = opts.concurrency ?? 24;
  let stop = false;
  let creditError: AppError | null = null;

  const isStopped = async () => {
    if (await job.isCancelled()) return true;
    const now = await selectListById(database.db, listId);
    return !now || now.state !== 'in_progress';
  };

  /** Stores a batch; when credits run out, keeps what can still be paid one by one, then stops the list. */
  const store = async (items: TPendingResult[]) => {
    const refused = await storeWhileCreditsLast(items, (batch) => storeListBatch(database, list, batch));
    if (refused) {
      creditError ??= refused;
      stop = true;
    }
  };

  // A pool of workers pulls pending rows continuously (a slow greylisting domain never holds up the others);
  // results are stored and charged in batches, one store at a time, after a check that the list was not cancelled.
  let after = chunk.fromRow - 1;
  let queue: Awaited<ReturnType<typeof selectPendingRows>> = [];
  let exhausted = false;
  let loading: Promise<void> | null = null;
  const nextRow = async () => {
    while (queue.length === 0 && !exhausted && !stop) {
      loading ??= (async () => {
        const page = await selectPendingRows(database.db, listId, after, JOB_PAGE, chunk.toRow);
        if (page.length === 0) exhausted = true;
        else {
          after = page[page.length - 1]!.rowNumber;
          queue = page;
        }
      })().finally(() => {
        loading = null;
      });
      await loading;
    }
    return stop ? undefined : queue.shift();
  };
  // The process's one engine: SMTP sessions reused per mail host, DNS and catch-all answers cached, hosts throttled for the whole process.
  const { engine } = verifier;
  let buffer: TPendingResult[] = [];
  let storing: Promise<void> = Promise.resolve();
  let storeError: unknown = null;
  const flush = (force: boolean) => {
    if (buffer.length === 0 || (!force && buffer.length < STORE_BATCH)) return storing;
    const items = buffer;
    buffer = [];
    storing = storing.then(async () => {
      if (stop || storeError) return;
      try {
        // Cancelled while searching: what was stored before stays billed; these results are dropped, never charged.
        if (await isStopped()) {
          stop = true;
          return;
        }
        await store(items);
        const now = await selectListById(database.db, listId);
        if (now) await job.reportProgress(toListView(now).progress);
      } catch (err) {
        storeError = err;
        stop = true;
      }
    });
    return storing;
  };
  const worker = async () => {
    for (let row = await nextRow(); row; row = await nextRow()) {
      const outcome = await searchEmail({ first: row.firstName, middle: row.middleName, last: row.lastName }, row.domain, {
        verify: (email) => engine.verify(email, { mode: vprefs.mode }),
        includeRoleEmail: prefs.includeRoleEmail,
        strictDomainCheck: prefs.strictDomainCheck,
        domainCounts: await book.get(row.domain),
      });
      if (outcome.reason.code === 'verified_valid' && outcome.pattern) book.note(row.domain, outcome.pattern);
      buffer.push({ rowNumber: row.rowNumber, result: toStoredResult(outcome) });
      if (buffer.length >= STORE_BATCH) await flush(false);
    }
  };
  if (!(await isStopped())) {
    await Promise.all(Array.from({ length: concurrency }, worker));
    await flush(true);
  }
  await storing;
  if (storeError) throw storeError;
  const failure = creditError as AppError | null;
  if (failure) {
    await updateList(database.db, listId, { state: 'not_processed', activity: null, stoppedReason: failure.message });
    await deps.queue.cancelWhere(FIND_CHUNK_JOB, { listId });
    return;
  }
  await finishFinderListIfDone(database, listId);
}

/** Marks the list processed once no searchable row is pending, with its activity and `email_finder.bulk.completed` event. */
async function finishFinderListIfDone(database: TDatabase, listId: string): Promise<void> {
  if ((await countPendingRows(database.db, listId)) > 0) return;
  await database.transaction(async (tx) => {
    const current = await selectListForUpdate(tx, listId);
    if (!current || current.state !== 'in_progress') return;
    const list = current;
    await updateList(tx, listId, { state: 'processed', activity: null, processedAt: new Date(), stoppedReason: null });
    const done = (await selectListById(tx, listId))!;
    await recordActivity(tx, { orgId: list.orgId, userId: list.userId, type: 'find_emails', description: `Found emails for the list "${list.name}"`, metadata: { list_id: listId } });
    await recordEvent(tx, {
      orgId: list.orgId,
      userId: list.userId,
      type: EMAIL_FINDER_EVENTS.bulkCompleted,
      payload: { list_id: listId, name: list.name, stats: computeStats(done), processed_at: done.processedAt?.toISOString() ?? null },
    });
  });
}

// ---------- downloads ----------

const RESULT_COLUMNS = ['email', 'status', 'confidence_score', 'catch_all', 'business', 'role', 'pattern', 'reason', 'reason_text'] as const;
/** The status of a row that repeats an earlier row's person: not searched, not charged, answered with that row's result. */
export const DUPLICATE_STATUS = 'duplicate';

/** A list download adds whether the row repeats an earlier row's person (it then carries that row's result, uncharged). */
const LIST_RESULT_COLUMNS = [...RESULT_COLUMNS, 'duplicate'] as const;

function resultCells(r: TFinderResult | null, skipReason: string | null): string[] {
  if (!r) return ['', skipReason ? 'skipped' : 'not_processed', '', '', '', '', '', skipReason ? 'skipped' : '', skipReason ?? ''];
  return [r.email ?? '', r.status, String(r.confidence_score), r.catch_all ? 'yes' : 'no', r.business ? 'yes' : 'no', r.role ? 'yes' : 'no', r.pattern ?? '', r.reason.code, r.reason.text];
}

/** The row a duplicate row points at (null for other rows). */
function readDuplicateOf(row: { status: string | null; result: Record<string, unknown> | null }): number | null {
  if (row.status !== DUPLICATE_STATUS) return null;
  const first = row.result?.duplicate_of;
  return typeof first === 'number' ? first : null;
}

async function prepareFile(
  deps: TDeps,
  storage: TFileStorage,
  ctx: TCallerContext,
  opts: { kind: 'result' | 'history'; listId: string | null; fileType: 'csv' | 'xlsx'; baseName: string; rows: AsyncIterable<string[]>; counter: { rows: number } },
): Promise<TFinderDownloadData> {
  const id = randomUUID();
  const key = `downloads/${ctx.orgId}/finder-${id}.${opts.fileType}`;
  const stream: Readable = opts.fileType === 'xlsx' ? writeXlsx(opts.rows) : writeCsv(opts.rows);
  const { size } = await storage.write(key, stream);
  const expiresAt = new Date(Date.now() + DOWNLOAD_TOKEN_TTL_HOURS * 3_600_000);
  const fileName = `${opts.baseName.replace(/[^\w.\- ]+/g, '_').slice(0, 120) || 'email-finder'}.${opts.fileType}`;
  await insertDownload(deps.database.db, { id, orgId: ctx.orgId, userId: ctx.userId, kind: opts.kind, listId: opts.listId, fileType: opts.fileType, fileName, storageKey: key, rowCount: opts.counter.rows, sizeBytes: size, expiresAt });
  const token = createDownloadToken(deps.config.appSecret, id, expiresAt);
  return {
    download_id: id,
    queue_id: id,
    state: 'success',
    file_name: fileName,
    rows: opts.counter.rows,
    download_url: `${deps.config.publicUrl}/api/v1/public/download_email_finder_history?download_token=${encodeURIComponent(token)}`,
    download_token: token,
    token_expires_at: expiresAt.toISOString(),
  };
}

/** POST /email_finder/download/result: the list's rows (uploaded columns first) with the finder columns, CSV or XLSX. */
export async function downloadListResult(deps: TDeps, storage: TFileStorage, ctx: TCallerContext, input: z.output<typeof ZFinderDownloadResultRequest>): Promise<TFinderDownloadData> {
  const list = await requireList(deps.database.db, ctx, input.list_id);
  const counter = { rows: 0 };
  const exec = deps.database.db;
  async function* rows(): AsyncGenerator<string[]> {
    const width = Math.max(list.header.length, 1);
    const keep = Array.from({ length: width }, (_, i) => i);
    yield withInputCells(inputColumnNames(list.header, width), keep, LIST_RESULT_COLUMNS);
    let after = 0;
    for (;;) {
      const page = await selectRowsPage(exec, list.id, after, 1_000);
      if (page.length === 0) return;
      const firstRows = [...new Set(page.map(readDuplicateOf).filter((n): n is number => n !== null))];
      const firstResults = new Map((await selectRowResults(exec, list.id, firstRows)).map((f) => [f.rowNumber, f.result]));
      for (const r of page) {
        const duplicateOf = readDuplicateOf(r);
        const stored = duplicateOf === null ? r.result : (firstResults.get(duplicateOf) ?? null);
        const result = (stored as unknown as TFinderResult | null) ?? null;
        if (input.format === 'found' && result?.status !== 'found') continue;
        if (input.format === 'not_found' && result?.status === 'found') continue;
        counter.rows += 1;
        yield withInputCells(r.cells, keep, [...resultCells(result, r.skipReason), duplicateOf === null ? 'no' : 'yes']);
      }
      after = page[page.length - 1]!.rowNumber;
    }
  }
  return prepareFile(deps, storage, ctx, { kind: 'result', listId: list.id, fileType: input.file_type, baseName: `${list.name}-email-finder-${input.format}`, rows: rows(), counter });
}

/** POST /email_finder/history/download: the filtered instant history as CSV or XLSX. */
export async function downloadHistory(deps: TDeps, storage: TFileStorage, ctx: TCallerContext, input: z.output<typeof ZFinderHistoryDownloadRequest>): Promise<TFinderDownloadData> {
  const counter = { rows: 0 };
  const filter = historyFilter(ctx, input);
  const exec = deps.database.db;
  async function* rows(): AsyncGenerator<string[]> {
    yield ['full_name', 'first_name', 'last_name', 'domain', ...RESULT_COLUMNS, 'searched_at'];
    for (let offset = 0; ; offset += 500) {
      const { rows: page } = await selectHistory(exec, filter, offset, 500);
      for (const row of page) {
        const r = row.result as unknown as TFinderResult;
        counter.rows += 1;
        yield [r.full_name, r.first_name, r.last_name, r.domain, ...resultCells(r, null), row.createdAt.toISOString()];
      }
      if (page.length < 500) return;
    }
  }
  return prepareFile(deps, storage, ctx, { kind: 'history', listId: null, fileType: input.file_type, baseName: 'email-finder-history', rows: rows(), counter });
}

/** GET /public/download_email_finder_history?download_token: a prepared finder file behind a valid, unexpired token. */
export async function openFinderDownload(config: Pick<TConfig, 'appSecret'>, exec: TDb, storage: TFileStorage, token: string) {
  const id = readDownloadToken(config.appSecret, token);
  const row = await selectDownloadById(exec, id);
  if (!row) throwNotFound('Download');
  if (row.expiresAt.getTime() <= Date.now()) throw new AppError(410, 'token_expired', 'This file has expired; please request it again');
  const stat = await storage.stat(row.storageKey);
  if (!stat) throw new AppError(410, 'token_expired', 'This file is no longer available; please request it again');
  const contentType = row.fileType === 'xlsx' ? 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' : 'text/csv; charset=utf-8';
  return { stream: storage.read(row.storageKey), fileName: row.fileName, contentType, size: stat.size };
}

/** What the finder did in [from, to) for analytics: list and instant results added up (spec section 3 finder metrics). */
export async function summariseFinds(
  exec: TDb,
  f: { orgId: string; userIds?: string[]; from: Date; to: Date },
): Promise<{ stats: TFinderUsageStats; instant: number; bulk: number }> {
  const { lists: l, instant: i } = await selectFinderSummary(exec, f);
  const { n, both } = readSummaryRows(l, i);
  const found = both('found');
  return {
    stats: {
      total: both('total'),
      found,
      not_found: both('not_found'),
      business: both('business'),
      role: both('role'),
      confidence_score: found > 0 ? Math.round(((n(l, 'confidence_sum') + n(i, 'confidence_sum')) / found) * 100) / 100 : 0,
      billable: both('billable'),
    },
    instant: n(i, 'total'),
    bulk: Math.round(n(l, 'total')),
  };
}
