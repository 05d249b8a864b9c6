import os from 'node:os';
import type { TOpsHostProcess, TOpsMailHost, TOpsMailHostsData, TOpsPauseHost, TOpsPausedHost, TOpsResumeHost } from '@verilead/contracts';
import { maskAddresses, type THostView } from '@verilead/verifier';
import type { TDeps } from '../../platform/deps';
import { AppError } from '../../platform/errors/app-error';
import { busiestHosts, loadPausedHosts } from '../../platform/verifier/host-sync';
import { recordOperatorAction, type TOperatorCaller } from '../ops-console';
import { deletePausedHost, selectHostSnapshots, selectPausedHosts, upsertPausedHost } from './queries';

/** A process whose snapshot is older than this is shown as stale (they are written every 5 s). */
const STALE_MS = 30_000;

const iso = (ms: number | null | undefined): string | null => (typeof ms === 'number' && Number.isFinite(ms) ? new Date(ms).toISOString() : null);

/** One host of an engine's view (current or from a snapshot; a snapshot may predate a field: it reads as empty). */
export function toMailHost(h: Partial<THostView> & { host: string }): TOpsMailHost {
  return {
    host: h.host,
    exchange: h.exchange ?? null,
    paused: h.paused ?? false,
    sessions_open: h.sessionsOpen ?? 0,
    sessions_opening: h.sessionsOpening ?? 0,
    in_use: h.inUse ?? 0,
    capacity: h.capacity ?? 0,
    learned_connections: h.learnedCeiling ?? null,
    error_budget: h.errorBudget ?? 0,
    non_mail_budget: h.nonMailBudget ?? 0,
    refused_sessions: h.refusedSessions ?? 0,
    rate_limited: h.rateLimited ?? 0,
    cut_sessions: h.cutSessions ?? 0,
    back_off_ms: h.backOffMs ?? 0,
    down_until: iso(h.downUntil),
    // The engine records them masked; a snapshot written before it did is masked here.
    recent_replies: (h.recentReplies ?? []).map((r) => ({ at: iso(r.at) ?? '', line: maskAddresses(r.line) })),
  };
}

const toPaused = (p: { host: string; note: string | null; pausedBy: string | null; pausedAt: Date }): TOpsPausedHost => ({
  host: p.host,
  note: p.note,
  paused_by: p.pausedBy,
  paused_at: p.pausedAt.toISOString(),
});

/**
 * The verifier's view of the internet: this process's engine read now, and every other process's last snapshot
 * (api and `--role worker` processes publish theirs every few seconds, platform/verifier/host-sync.ts), with the
 * paused hosts.
 */
export async function getMailHosts(deps: Pick<TDeps, 'database' | 'verifier'>): Promise<TOpsMailHostsData> {
  const { verifier } = deps;
  const now = Date.now();
  const own: TOpsHostProcess = {
    process_id: verifier.processId,
    role: 'api',
    hostname: os.hostname(),
    pid: process.pid,
    this_process: true,
    updated_at: new Date(now).toISOString(),
    stale: false,
    hosts: busiestHosts(verifier.engine.listHosts()).map(toMailHost),
  };
  const snapshots = await selectHostSnapshots(deps.database.db);
  const others = snapshots
    .filter((s) => s.processId !== verifier.processId)
    .map(
      (s): TOpsHostProcess => ({
        process_id: s.processId,
        role: s.role,
        hostname: s.hostname,
        pid: s.pid,
        this_process: false,
        updated_at: s.updatedAt.toISOString(),
        stale: now - s.updatedAt.getTime() > STALE_MS,
        hosts: (s.hosts as Array<Partial<THostView> & { host: string }>).filter((h) => typeof h?.host === 'string').map(toMailHost),
      }),
    );
  const ownRole = snapshots.find((s) => s.processId === verifier.processId)?.role;
  if (ownRole) own.role = ownRole;
  return { processes: [own, ...others], paused: (await selectPausedHosts(deps.database.db)).map(toPaused) };
}

/**
 * Pauses a mail host for every process: stored (so each process's sync reads it within a few seconds) and applied to
 * this process's engine at once. Pausing a paused host again only changes its note.
 */
export async function pauseMailHost(deps: Pick<TDeps, 'database' | 'verifier'>, operator: TOperatorCaller, input: TOpsPauseHost) {
  await deps.database.transaction(async (tx) => {
    await upsertPausedHost(tx, { host: input.host, note: input.note || null, pausedBy: operator.email });
    await recordOperatorAction(tx, operator, { action: 'operator.mail_host_paused', orgId: null, targetType: 'mail_host', targetId: input.host, details: { note: input.note ?? null } });
  });
  await loadPausedHosts(deps.database.db, deps.verifier);
  return { paused: (await selectPausedHosts(deps.database.db)).map(toPaused) };
}

/** Lifts a pause: the held verifications go on (this process at once, the others within a few seconds). */
export async function resumeMailHost(deps: Pick<TDeps, 'database' | 'verifier'>, operator: TOperatorCaller, input: TOpsResumeHost) {
  await deps.database.transaction(async (tx) => {
    if (!(await deletePausedHost(tx, input.host))) throw new AppError('not_found', `${input.host} is not paused.`);
    await recordOperatorAction(tx, operator, { action: 'operator.mail_host_resumed', orgId: null, targetType: 'mail_host', targetId: input.host });
  });
  await loadPausedHosts(deps.database.db, deps.verifier);
  return { paused: (await selectPausedHosts(deps.database.db)).map(toPaused) };
}
