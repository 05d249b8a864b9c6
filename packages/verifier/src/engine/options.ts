import dns from 'node:dns';
import os from 'node:os';
import { setTimeout as delay } from 'node:timers/promises';
import { systemClock } from '../clock';
import { parseDnsServer } from '../dns/dns-client';
import type { TDnsContext } from '../dns/resolve-mail-hosts';
import { dialTcp } from '../smtp/smtp-session';
import { TRANSACTION_RECIPIENTS } from '../smtp/smtp-transaction';
import { inProcessHostBudgets } from './host-budgets';
import { HostWatch } from './host-watch';
import { MemoryCache } from './memory-cache';
import type {
  TCallOptions,
  TClock,
  TDial,
  TGibberishThreshold,
  THostBudgetStore,
  TSleep,
  TTimeouts,
  TTranscriptLine,
  TVerificationMode,
  TVerifierCache,
  TVerifyOptions,
} from '../types';

// The engine's options, resolved once when it is built, and the state of one verification (a run), made per call
// from them and the call's own choices.

export const DEFAULT_GREYLIST_SCHEDULE: Record<TVerificationMode, number[]> = {
  highest_accuracy: [60_000, 180_000, 420_000],
  fastest_turnaround: [15_000],
};
export const DEFAULT_TIMEOUTS: Record<TVerificationMode, TTimeouts> = {
  highest_accuracy: { dnsMs: 5_000, connectMs: 10_000, replyMs: 30_000, totalMs: 900_000 },
  fastest_turnaround: { dnsMs: 3_000, connectMs: 5_000, replyMs: 10_000, totalMs: 60_000 },
};

export type TResolvedOptions = {
  dns: TDnsContext;
  heloName: string;
  mailFrom: string;
  smtpPort: number;
  /** default mode of calls that name none */
  mode: TVerificationMode;
  /** explicit timeouts of the engine options (each call's mode fills in the rest) */
  timeoutOverrides: Partial<TTimeouts>;
  scheduleOverride: number[] | null;
  timeouts: TTimeouts;
  gibberishThreshold: TGibberishThreshold;
  allow: Set<string>;
  block: Set<string>;
  cache: TVerifierCache;
  /** the one clock of the engine: runs, deadlines, caches, host gates and SMTP sessions all read it */
  clock: TClock;
  sleep: TSleep;
  dial: TDial;
  perHostConcurrency: number;
  /** most recipients asked in one batch (a host's 452 lowers its own) */
  maxBatch: number;
  /** most recipients one mail transaction takes before another is begun (the caller's maxRecipientsPerTransaction, else 100) */
  maxTransaction: number;
  sessionBudget: { errors?: number; nonMail?: number };
  /** where the hosts' lessons and connections are counted: this process alone by default (host-budgets.ts) */
  hostBudgets: THostBudgetStore;
  /** per mail host: recent replies, MX name and the operator's pause (host-watch.ts) */
  hostWatch: HostWatch;
};

/** One verification: its transcript, its time limits on the engine's clock, its greylisting choice and cancellation. */
export type TRun = {
  transcript: TTranscriptLine[];
  start: number;
  /** clock time by which the verification must end; pushed back by the time it waited for our own host slots */
  deadline: number;
  timeouts: TTimeouts;
  schedule: number[];
  signal: AbortSignal | undefined;
  /** tells a stream when the verification starts (+1) and stops (-1) waiting for a host slot */
  onParked: ((delta: number) => void) | undefined;
  greylisting: 'wait' | 'defer' | 'last';
  /** the longest the run waits for a paused mail host (TCallOptions.pauseWaitMs); null: until resumed */
  pauseWaitMs: number | null;
};

/** A run with the call's local-check choices (what the pipeline needs before the SMTP stage). */
export type TPipelineRun = TRun & { threshold: TGibberishThreshold; allow: Set<string>; block: Set<string> };

const lowerSet = (list: string[] | undefined): Set<string> => new Set((list ?? []).map((e) => e.trim().toLowerCase()));

/** The default sleep: a real timer, cleared at once when `signal` cancels the wait (so no timer outlives its wait). */
const sleepReal: TSleep = (ms, signal) => delay(ms, undefined, signal ? { signal } : undefined);

export function resolveOptions(options: TVerifyOptions): TResolvedOptions {
  const mode = options.mode ?? 'highest_accuracy';
  const timeouts = { ...DEFAULT_TIMEOUTS[mode], ...options.timeouts };
  const clock = options.clock ?? systemClock;
  const cache = options.cache ?? new MemoryCache(50_000, clock);
  const heloName = options.heloName ?? os.hostname();
  const servers = (options.dnsServers ?? dns.getServers()).map(parseDnsServer);
  return {
    dns: { servers, timeoutMs: timeouts.dnsMs, cache },
    heloName,
    mailFrom: options.mailFrom ?? `verify@${heloName}`,
    smtpPort: options.smtpPort ?? 25,
    mode,
    timeoutOverrides: { ...options.timeouts },
    scheduleOverride: options.greylistSchedule ?? null,
    timeouts,
    gibberishThreshold: options.gibberishThreshold ?? 'high',
    allow: lowerSet(options.wbList?.allow),
    block: lowerSet(options.wbList?.block),
    cache,
    clock,
    sleep: options.sleep ?? sleepReal,
    dial: options.dial ?? dialTcp,
    perHostConcurrency: Math.max(1, options.perHostConcurrency ?? 3),
    maxBatch: Math.max(1, options.maxRecipientsPerTransaction ?? 20),
    maxTransaction: Math.max(1, options.maxRecipientsPerTransaction ?? TRANSACTION_RECIPIENTS),
    sessionBudget: { ...options.sessionBudget },
    hostBudgets: options.hostBudgets ?? inProcessHostBudgets,
    hostWatch: new HostWatch(clock, options.sleep ?? sleepReal, options.hostPause ?? null),
  };
}

/** A new run for one call: the call's mode picks its timeouts and greylist schedule (the engine's overrides win). */
export function makeRun(o: TResolvedOptions, call: TCallOptions, onParked: TRun['onParked']): TPipelineRun {
  const mode = call.mode ?? o.mode;
  const timeouts = { ...DEFAULT_TIMEOUTS[mode], ...o.timeoutOverrides };
  const start = o.clock.now();
  return {
    transcript: [],
    start,
    deadline: start + timeouts.totalMs,
    timeouts,
    schedule: o.scheduleOverride ?? DEFAULT_GREYLIST_SCHEDULE[mode],
    signal: call.signal,
    onParked,
    greylisting: call.greylisting ?? 'wait',
    pauseWaitMs: call.pauseWaitMs ?? null,
    threshold: call.gibberishThreshold ?? o.gibberishThreshold,
    allow: call.wbList ? lowerSet(call.wbList.allow) : o.allow,
    block: call.wbList ? lowerSet(call.wbList.block) : o.block,
  };
}

/** A background run (a session opened ahead of need): no caller, no cancellation, time to greet and start TLS. */
export function makeWarmRun(o: TResolvedOptions, run: TRun): TRun {
  const now = o.clock.now();
  return { ...run, transcript: [], start: now, deadline: now + run.timeouts.connectMs + 4 * run.timeouts.replyMs, signal: undefined, onParked: undefined };
}

/** The transcript sink of a run: each line stamped with its time since the run started, on the engine's clock. */
export function transcriptSink(clock: TClock, run: TRun): (direction: 'C' | 'S', line: string) => void {
  return (direction, line) => run.transcript.push({ at_ms: Math.max(0, clock.now() - run.start), direction, line });
}
