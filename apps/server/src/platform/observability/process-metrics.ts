import { Counter, Gauge, Registry } from 'prom-client';
import type { THostView, VerifierEngine } from '@verilead/verifier';

/**
 * Metrics this process counts as work happens (as opposed to the gauges read from the database at scrape time,
 * features/operations/metrics.ts). One registry per process: the verifier is one per process too.
 */
export const processRegistry = new Registry();

/** Every verification the engine finished in this process, by verdict and reason code (instant and bulk verification; the finder's probes are not counted). */
export const verificationsCounter = new Counter({
  name: 'verilead_verifications_total',
  help: 'Verifications finished by the engine in this process, by status and reason code',
  labelNames: ['status', 'reason'] as const,
  registers: [processRegistry],
});

/** Counts one finished verification. */
export function countVerification(result: { status: string; reason: { code: string } }): void {
  verificationsCounter.inc({ status: result.status, reason: result.reason.code });
}

/** The engines of this process (one in production; tests build many, so they are held weakly). */
const engines = new Set<WeakRef<Pick<VerifierEngine, 'listHosts'>>>();

/** The connections every process holds per mail host, as an engine's shared host-budget store last read them (REDIS_URL). */
type TSharedConnections = { sharedConnections(): Map<string, number> };
const sharedOf = new WeakMap<Pick<VerifierEngine, 'listHosts'>, TSharedConnections>();

/**
 * Shows the engine's mail hosts in /metrics (verilead_smtp_*): called once when the process's engine is built, with the
 * store its hosts' budgets are shared through, if any (verilead_smtp_shared_connections).
 */
export function watchMailHosts(engine: Pick<VerifierEngine, 'listHosts'>, shared?: TSharedConnections): void {
  engines.add(new WeakRef(engine));
  if (shared) sharedOf.set(engine, shared);
}

/** Hosts shown per metric: the busiest, so a long-running process's label set stays bounded. */
const MAX_HOSTS = 50;

function currentHosts(): Array<THostView & { shared?: number }> {
  const hosts: Array<THostView & { shared?: number }> = [];
  for (const ref of engines) {
    const engine = ref.deref();
    if (!engine) engines.delete(ref);
    else {
      const shared = sharedOf.get(engine)?.sharedConnections();
      hosts.push(...engine.listHosts().map((h) => (shared?.has(h.host) ? { ...h, shared: shared.get(h.host) } : h)));
    }
  }
  const weight = (h: THostView) => h.sessionsOpen + h.sessionsOpening + h.refusedSessions + h.rateLimited + h.cutSessions + (h.backOffMs > 0 ? 1 : 0);
  return hosts.sort((a, b) => weight(b) - weight(a)).slice(0, MAX_HOSTS);
}

/** A gauge per host, read from the engine at each scrape (a host without a value is left out). */
function hostGauge(name: string, help: string, value: (h: THostView & { shared?: number }) => number | undefined): void {
  new Gauge({
    name,
    help,
    labelNames: ['host'] as const,
    registers: [processRegistry],
    collect() {
      this.reset();
      for (const h of currentHosts()) {
        const v = value(h);
        if (v !== undefined) this.set({ host: h.host }, v);
      }
    },
  });
}

hostGauge('verilead_smtp_sessions_open', "SMTP sessions this process holds open per mail host (greeted, in use or idle)", (h) => h.sessionsOpen);
hostGauge('verilead_smtp_sessions_opening', 'SMTP sessions being opened per mail host (connecting or waiting for the greeting)', (h) => h.sessionsOpening);
hostGauge('verilead_smtp_session_capacity', 'Sessions the engine may hold at once per mail host now (its limit within what the host taught it)', (h) => h.capacity);
hostGauge('verilead_smtp_sessions_refused', 'Sessions a mail host refused (4xx/5xx greeting or connection refused) since this process met it', (h) => h.refusedSessions);
hostGauge('verilead_smtp_rate_limited', 'Rate-limit replies a mail host gave this process', (h) => h.rateLimited);
hostGauge('verilead_smtp_sessions_cut', 'Sessions a mail host cut in mid-session (421) in this process', (h) => h.cutSessions);
hostGauge('verilead_smtp_backoff_seconds', 'The back-off before each new use of a mail host now (0: none)', (h) => h.backOffMs / 1000);
hostGauge(
  'verilead_smtp_shared_connections',
  'Connections every verifier process sharing this one\'s Redis holds per mail host, as last read (REDIS_URL only)',
  (h) => h.shared,
);
