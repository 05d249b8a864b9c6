import os from 'node:os';
import type { THostView } from '@verilead/verifier';
import type { TDatabase, TDb } from '../db/database';
import { deleteSnapshotOf, deleteSnapshotsBefore, selectPausedHosts, upsertHostSnapshot } from './host-sync-queries';
import type { TVerifier } from './verifier';

/** Hosts kept in a process's snapshot: the busiest, so a row stays small however many hosts the engine met. */
export const SNAPSHOT_HOSTS = 100;
/** A process silent this long has its snapshot deleted (it stopped, or died). */
const SNAPSHOT_FORGET_MS = 60 * 60_000;

/** How busy a host is, for ordering the view: sessions, refusals and back-off first. */
export function hostWeight(h: THostView): number {
  return (h.paused ? 1_000_000 : 0) + h.sessionsOpen + h.sessionsOpening + h.inUse + h.refusedSessions + h.rateLimited + h.cutSessions + (h.backOffMs > 0 ? 1 : 0);
}

/** The busiest hosts of an engine's view, SNAPSHOT_HOSTS at most. */
export function busiestHosts(hosts: THostView[], max = SNAPSHOT_HOSTS): THostView[] {
  return [...hosts].sort((a, b) => hostWeight(b) - hostWeight(a) || a.host.localeCompare(b.host)).slice(0, max);
}

/** Reads the paused hosts into this process's engine (it holds new work for them). */
export async function loadPausedHosts(db: TDb, verifier: Pick<TVerifier, 'pausedHosts'>): Promise<string[]> {
  const hosts = await selectPausedHosts(db);
  verifier.pausedHosts.set(hosts);
  return hosts;
}

/** Writes this process's view of its mail hosts (one row per process, replaced) and forgets long-silent processes. */
export async function publishHostSnapshot(db: TDb, verifier: Pick<TVerifier, 'engine' | 'processId'>, role: string): Promise<void> {
  const hosts = busiestHosts(verifier.engine.listHosts());
  const row = { processId: verifier.processId, role, hostname: os.hostname(), pid: process.pid, hosts, updatedAt: new Date() };
  await upsertHostSnapshot(db, row);
  await deleteSnapshotsBefore(db, new Date(Date.now() - SNAPSHOT_FORGET_MS));
}

export type THostSync = { stop(): Promise<void> };

/**
 * Every process (api, worker or both) runs one: every `pauseEveryMs` it reads the paused hosts into its engine (so
 * an operator's pause reaches every process within that time), every `snapshotEveryMs` it publishes its view of
 * the mail hosts for the operator console. The database is the channel, so it works with or without Redis.
 * A failed round (the database away) is skipped; the next one tries again.
 */
export function startMailHostSync(opts: {
  database: Pick<TDatabase, 'db'>;
  verifier: Pick<TVerifier, 'engine' | 'processId' | 'pausedHosts'>;
  role: string;
  pauseEveryMs?: number;
  snapshotEveryMs?: number;
  onError?: (err: Error) => void;
}): THostSync {
  const { database, verifier, role } = opts;
  const pauseEveryMs = opts.pauseEveryMs ?? 2_000;
  const snapshotEveryMs = opts.snapshotEveryMs ?? 5_000;
  let lastSnapshot = 0;
  let running: Promise<void> | null = null;
  const round = async (): Promise<void> => {
    try {
      await loadPausedHosts(database.db, verifier);
      if (Date.now() - lastSnapshot >= snapshotEveryMs) {
        lastSnapshot = Date.now();
        await publishHostSnapshot(database.db, verifier, role);
      }
    } catch (err) {
      opts.onError?.(err as Error);
    }
  };
  const tick = (): void => {
    if (running) return;
    running = round().finally(() => (running = null));
  };
  tick();
  const timer = setInterval(tick, pauseEveryMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
      await deleteSnapshotOf(database.db, verifier.processId).catch(() => undefined);
    },
  };
}
