import { CREDITS_PER_FIND, EMAIL_FINDER_EVENTS, type TFinderResult } from '@verilead/contracts';
import { enqueueRowChunks, type TRowChunk } from '../../platform/bulk/row-chunks';
import { finishListIfDone, planListChunks, stopListJob } from '../../platform/bulk-lists/lifecycle';
import { addChargedAppUsage } from '../../platform/credits/app-usage';
import { chargeCredits } from '../../platform/credits/ledger';
import { storeWhileCreditsLast } from '../../platform/credits/store-while-credits-last';
import type { TDatabase } from '../../platform/db/database';
import { AppError } from '../../platform/errors/app-error';
import type { TJobContext, TJobQueue } from '../../platform/jobs/jobs';
import type { TVerifier } from '../../platform/verifier/verifier';
import { recordActivity } from '../activities';
import { recordEvent } from '../events';
import { getVerifierPreferences } from '../settings';
import { countPendingRows, EMPTY_FINDER_COUNTERS, finderListStore, incrementDomainPatterns, selectFinderChunkStarts, selectPendingRows, storeFinderResults, type TFinderListRow } from './queries';
import { searchEmail } from './search';
import type { TFinderCounters } from './tables';
import { createPatternBook, getFinderPrefs, toStoredResult } from './finder-support';
import { computeStats, toListView } from './list-view';

/** `find_emails` plans a started list into `find_chunk` jobs; any worker takes any chunk. */
export const FIND_EMAILS_JOB = 'email_finder.find_emails';
export const FIND_CHUNK_JOB = 'email_finder.find_chunk';

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

export type TPendingResult = { rowNumber: number; result: TFinderResult };

/** Stores results with their charges in one transaction; rows that already have a result are skipped and never charged again. */
async function storeListBatch(database: TDatabase, list: TFinderListRow, batch: TPendingResult[]): Promise<void> {
  await database.transaction(async (tx) => {
    const current = await finderListStore.selectForUpdate(tx, list.id);
    // A cancelled (or stopped) list stores and charges nothing more: what it charged was told at the cancel.
    if (!current || current.state !== 'in_progress') return;
    const counters = { ...EMPTY_FINDER_COUNTERS, ...current.counters };
    const stored = await storeFinderResults(
      tx,
      list.id,
      batch.map((b) => ({ rowNumber: b.rowNumber, status: b.result.status, result: b.result as unknown as Record<string, unknown>, billable: b.result.status === 'found' })),
    );
    const patterns: { domain: string; pattern: string }[] = [];
    let charged = 0;
    for (const b of batch) {
      if (!stored.has(b.rowNumber)) continue;
      const billable = b.result.status === 'found';
      if (billable) {
        charged += CREDITS_PER_FIND;
        await chargeCredits(tx, { orgId: list.orgId, userId: list.userId, amount: CREDITS_PER_FIND, reason: 'Bulk email finder', sourceAgent: 'bulk_finder', objectType: 'finder_list_row', objectId: `${list.id}:${b.rowNumber}` });
      }
      if (b.result.reason.code === 'verified_valid' && b.result.pattern) patterns.push({ domain: b.result.domain, pattern: b.result.pattern });
      addToCounters(counters, b.result, billable);
    }
    await incrementDomainPatterns(tx, patterns);
    // A list uploaded with an app's token counts its charges in the app's usage, in this same transaction.
    await addChargedAppUsage(tx, current.appId, charged);
    await finderListStore.update(tx, list.id, { counters });
  });
}

const JOB_PAGE = 200;
const STORE_BATCH = 25;

/** The plan: enqueues the chunk jobs of a started list in one transaction (a retried plan enqueues nothing twice). */
export function planFindChunks(deps: { database: TDatabase; queue: TJobQueue; chunkSize: number }, listId: string, jobId: string): Promise<number> {
  return planListChunks(deps.database, finderListStore, listId, jobId, {
    enqueueChunks: async (tx, list) => enqueueRowChunks(deps.queue, tx, FIND_CHUNK_JOB, list, await selectFinderChunkStarts(tx, listId, deps.chunkSize)),
    finish: () => finishFinderListIfDone(deps.database, listId),
  });
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
  const list = await finderListStore.selectById(database.db, listId);
  if (!list || list.state !== 'in_progress') return;
  const ctx = { userId: list.userId, orgId: list.orgId };
  const [prefs, vprefs] = await Promise.all([getFinderPrefs(database.db, ctx), getVerifierPreferences(database.db, ctx)]);
  const book = createPatternBook(database.db);
  const concurrency = opts.concurrency ?? 24;
  let stop = false;
  let creditError: AppError | null = null;

  const isStopped = async () => {
    if (await job.isCancelled()) return true;
    const now = await finderListStore.selectById(database.db, listId);
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
        const now = await finderListStore.selectById(database.db, listId);
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
    await stopListJob(deps, finderListStore, listId, {
      values: { state: 'not_processed', activity: null, stoppedReason: failure.message },
      describe: (stopped) => ({ type: 'failed', description: `Finding emails for the list "${stopped.name}" stopped: ${failure.message}`, metadata: { job: 'find_emails', list_id: listId } }),
      recordActivity,
      dropJobs: [FIND_CHUNK_JOB],
    });
    return;
  }
  await finishFinderListIfDone(database, listId);
}

/** Marks the list processed once no searchable row is pending, with its activity and `email_finder.bulk.completed` event. */
export function finishFinderListIfDone(database: TDatabase, listId: string): Promise<void> {
  return finishListIfDone(database, finderListStore, listId, {
    countPending: countPendingRows,
    values: () => ({ state: 'processed' as const, activity: null, processedAt: new Date(), stoppedReason: null }),
    onDone: async (tx, list, done) => {
      await recordActivity(tx, { orgId: list.orgId, userId: list.userId, type: 'find_emails', description: `Found emails for the list "${list.name}"`, metadata: { list_id: listId } });
      await recordEvent(tx, {
        orgId: list.orgId,
        userId: list.userId,
        type: EMAIL_FINDER_EVENTS.bulkCompleted,
        payload: { list_id: listId, name: list.name, stats: computeStats(done), processed_at: done.processedAt?.toISOString() ?? null },
      });
    },
  });
}
