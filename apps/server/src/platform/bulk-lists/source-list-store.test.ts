import { randomUUID } from 'node:crypto';
import { eq, getTableColumns, sql } from 'drizzle-orm';
import { integer, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TTestDb } from '../../test/test-db';
import type { TJobQueue } from '../jobs/jobs';
import type { TCallerContext } from '../tenancy/context';
import { cancelListJob, startSourceRun, type TListActivityEntry } from './lifecycle';
import { sourceListColumns } from './list-columns';
import { readRunningSourceJobs, readSourceListPage } from './list-views';
import { createSourceListStore } from './source-list-store';

// A source list of the test's own (no product's): runs over a named source, with a cursor and a count, read with the
// source's name joined in, as list enrichment reads its prospect list's name.
type TRunState = 'queued' | 'running' | 'done' | 'cancelled';
const sources = pgTable('kernel_test_sources', { id: uuid('id').primaryKey(), name: text('name').notNull() });
const runs = pgTable('kernel_test_runs', {
  ...sourceListColumns<TRunState>({ initialState: 'queued' }),
  sourceId: uuid('source_id'),
  done: integer('done').notNull().default(0),
  jobId: uuid('job_id'),
});
type TRunRow = typeof runs.$inferSelect & { sourceName: string | null };
const store = createSourceListStore<TRunRow, typeof runs.$inferInsert>({
  table: runs,
  noun: 'Run',
  running: ['queued', 'running'],
  from: (exec) => exec.select({ ...getTableColumns(runs), sourceName: sources.name }).from(runs).leftJoin(sources, eq(sources.id, runs.sourceId)).$dynamic(),
});

const orgA = randomUUID();
const orgB = randomUUID();
const owner = randomUUID();
const analyst = randomUUID();
const caller = (userId: string, role: TCallerContext['role'], orgId = orgA): TCallerContext => ({ userId, orgId, role, sessionId: null, via: 'session' });

/** A queue that hands out job ids and notes what was enqueued and dropped. */
function recordingQueue() {
  const seen = { enqueued: [] as { name: string; payload: unknown; orgId?: string | null; userId?: string | null }[], cancelled: [] as string[] };
  const queue = {
    enqueue: async (name: string, payload: unknown, opts?: { orgId?: string | null; userId?: string | null }) => {
      seen.enqueued.push({ name, payload, orgId: opts?.orgId, userId: opts?.userId });
      return randomUUID();
    },
    cancel: async (jobId: string) => {
      seen.cancelled.push(jobId);
      return 'cancelled' as const;
    },
    cancelWhere: async () => 0,
  } as unknown as TJobQueue;
  return { queue, seen };
}

describe('the bulk-list kernel: source lists (their state rows, start, cancel, pages, running)', () => {
  let t: TTestDb;
  const sourceId = randomUUID();
  beforeAll(async () => {
    t = await createTestDb();
    await t.db.execute(sql`create table kernel_test_sources (id uuid primary key, name text not null)`);
    await t.db.execute(sql`create table kernel_test_runs (id uuid primary key default gen_random_uuid(), org_id uuid not null, user_id uuid not null,
      state text not null default 'queued', error text, created_at timestamptz not null default now(), updated_at timestamptz not null default now(),
      source_id uuid, done integer not null default 0, job_id uuid)`);
    await t.db.insert(sources).values({ id: sourceId, name: 'Spring leads' });
  });
  afterAll(async () => {
    await t.dispose();
  });

  it('starts a run: its row, its first job with the owner, the job noted on the row', async () => {
    const { queue, seen } = recordingQueue();
    const row = await t.transaction((tx) =>
      startSourceRun(tx, queue, store, { orgId: orgA, userId: analyst, sourceId }, { name: 'test.chunk', payload: (r) => ({ runId: r.id }), noteJob: (jobId) => ({ jobId }) }),
    );
    expect(row).toMatchObject({ orgId: orgA, userId: analyst, state: 'queued', sourceName: 'Spring leads', done: 0, error: null });
    expect(seen.enqueued).toEqual([{ name: 'test.chunk', payload: { runId: row.id }, orgId: orgA, userId: analyst }]);
    expect((await store.selectById(t.db, row.id))?.jobId).toMatch(/^[0-9a-f-]{36}$/);
    expect(await store.selectState(t.db, row.id)).toBe('queued');
  });

  it('finds a row in the caller’s visible scope only: another organisation’s is a 404, an analyst sees only their own', async () => {
    const mine = await store.insert(t.db, { orgId: orgA, userId: analyst });
    const owners = await store.insert(t.db, { orgId: orgA, userId: owner });
    expect((await store.require(t.db, caller(owner, 'owner'), mine.id)).id).toBe(mine.id);
    await expect(store.require(t.db, caller(owner, 'owner', orgB), mine.id)).rejects.toThrow('Run not found');
    await expect(store.require(t.db, caller(analyst, 'analyst'), owners.id)).rejects.toThrow('Run not found');
  });

  it('moves a row between states with a single winner, and locks it with its joined name', async () => {
    const row = await store.insert(t.db, { orgId: orgA, userId: owner, sourceId, state: 'running' });
    const moves = await Promise.all([1, 2, 3].map(() => store.transition(t.db, null, row.id, store.running, { state: 'done' })));
    expect(moves.filter(Boolean)).toHaveLength(1);
    const locked = await t.transaction((tx) => store.selectForUpdate(tx, row.id));
    expect(locked).toMatchObject({ state: 'done', sourceName: 'Spring leads' });
    expect(store.isRunning('done')).toBe(false);
    expect(store.isRunning('running')).toBe(true);
  });

  it('pages the caller’s rows newest first, filtered by state, with the total; and lists a member’s running ones', async () => {
    const org = randomUUID();
    const user = randomUUID();
    const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s));
    const [a, b, c] = [
      await store.insert(t.db, { orgId: org, userId: user, state: 'running', createdAt: at(1), updatedAt: at(30) }),
      await store.insert(t.db, { orgId: org, userId: user, state: 'done', createdAt: at(2), updatedAt: at(20) }),
      await store.insert(t.db, { orgId: org, userId: user, state: 'queued', createdAt: at(3), updatedAt: at(10) }),
    ];
    const ctx = caller(user, 'owner', org);
    const page = await readSourceListPage(t.db, store, ctx, { page: 1, limit: 2 }, (r) => r.id);
    expect(page).toEqual({ items: [c!.id, b!.id], total: 3, page: 1, limit: 2 });
    expect(await readSourceListPage(t.db, store, ctx, { page: 1, limit: 10, states: store.running }, (r) => r.id)).toEqual({ items: [c!.id, a!.id], total: 2, page: 1, limit: 10 });
    const running = await readRunningSourceJobs(t.db, store, { orgId: org, userId: user }, (r) => ({ type: 'enrich', queued: r.state === 'queued', progress: 50, description: 'a run', metadata: { run_id: r.id } }));
    expect(running.map((j) => [j.key, j.status, j.progress])).toEqual([
      [`enrich:${a!.id}`, 'in_progress', 50],
      [`enrich:${c!.id}`, 'queued', null],
    ]);
  });

  it('cancels a running row once, with what goes with it and its history for the owner only when asked; a finished one is refused', async () => {
    const { queue, seen } = recordingQueue();
    const jobId = randomUUID();
    const row = await store.insert(t.db, { orgId: orgA, userId: analyst, state: 'running', jobId });
    const history: TListActivityEntry[] = [];
    const alongside: string[] = [];
    const opts = {
      refusal: 'This run has already finished',
      cancel: (r: TRunRow) => (store.isRunning(r.state) ? { from: r.state, values: { state: 'cancelled' as const } } : null),
      onCancelled: async (_tx: unknown, r: TRunRow) => void alongside.push(r.id),
      describe: (r: TRunRow) => ({ type: 'enrich' as const, description: `Cancelled ${r.id}`, metadata: {} }),
      recordActivity: async (_tx: unknown, entry: TListActivityEntry) => void history.push(entry),
      ownerOnly: true,
      dropJobs: [],
    };
    const cancelled = await cancelListJob({ database: t, queue }, store, caller(owner, 'owner'), row.id, opts);
    expect(cancelled.state).toBe('cancelled');
    expect(alongside).toEqual([row.id]);
    expect(history.map((h) => h.userId)).toEqual([analyst]);
    expect(seen.cancelled).toEqual([jobId]);
    await expect(cancelListJob({ database: t, queue }, store, caller(owner, 'owner'), row.id, opts)).rejects.toThrow('This run has already finished');
    expect(history).toHaveLength(1);
  });
});
