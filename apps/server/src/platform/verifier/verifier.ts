import {
  DEFAULT_GREYLIST_SCHEDULE,
  MemoryCache,
  PausedHosts,
  VerifierEngine,
  type TCallOptions,
  type TVerificationMode,
  type TVerificationResult,
  type TVerifierCache,
  type TVerifyOptions,
} from '@verilead/verifier';
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { TConfig } from '../../config';
import { createRedisClient } from '../cache/redis';
import { countVerification, watchMailHosts } from '../observability/process-metrics';
import { RedisVerifierCache } from './redis-cache';
import { RedisHostBudgets } from './redis-host-budgets';
import { shareIdenticalChecks } from './shared-checks';

/** Per-call choices that come from the user's settings. */
export type TVerifyPreferences = Pick<TVerifyOptions, 'mode' | 'gibberishThreshold' | 'wbList'> & Pick<TCallOptions, 'greylisting' | 'pauseWaitMs'>;

export type TVerifier = {
  /** Engine options built from config (DNS servers, HELO name, MAIL FROM, SMTP port, shared cache). */
  options: TVerifyOptions;
  /** The process's one engine: every instant check, bulk job and finder search goes through it. */
  engine: VerifierEngine;
  /** The mail hosts an operator paused, as this process last read them (host-sync.ts): the engine holds their new work. */
  pausedHosts: PausedHosts;
  /** This process's name in the operator's view of the mail hosts (host name, pid and a random part). */
  processId: string;
  verify(address: string, prefs?: TVerifyPreferences & { signal?: AbortSignal }): Promise<TVerificationResult>;
  verifyMany(
    addresses: Iterable<string> | AsyncIterable<string>,
    prefs?: TVerifyPreferences & { concurrency?: number; signal?: AbortSignal },
  ): AsyncGenerator<TVerificationResult>;
  /** The delays (ms) between greylist attempts in this mode: VERIFIER_GREYLIST_SCHEDULE_MS, else the mode's default. */
  greylistSchedule(mode: TVerificationMode): number[];
  /** Close the engine's idle SMTP sessions and the Redis connection of its cache, if any. */
  close(): Promise<void>;
};

/** Engine options from configuration: DNS_SERVERS, VERIFIER_HELO_NAME, VERIFIER_MAIL_FROM, VERIFIER_SMTP_PORT and timeouts. */
export function buildVerifierOptions(config: TConfig): TVerifyOptions {
  const timeouts: TVerifyOptions['timeouts'] = {};
  if (config.verifierConnectTimeoutMs) timeouts.connectMs = config.verifierConnectTimeoutMs;
  if (config.verifierReplyTimeoutMs) timeouts.replyMs = config.verifierReplyTimeoutMs;
  return {
    ...(config.dnsServers.length > 0 ? { dnsServers: config.dnsServers } : {}),
    heloName: config.verifierHeloName,
    mailFrom: config.verifierMailFrom,
    smtpPort: config.verifierSmtpPort,
    ...(Object.keys(timeouts).length > 0 ? { timeouts } : {}),
    ...(config.verifierGreylistScheduleMs ? { greylistSchedule: config.verifierGreylistScheduleMs } : {}),
  };
}

/**
 * What the start-up log of a `--role worker` process says when REDIS_URL is not set (null otherwise): without Redis
 * each process keeps its own per-mail-host connection budget, so several workers together open that many connections
 * to one mail host times the number of workers, past what the host allows (it answers 421, tarpits or blocks the
 * egress address). One worker alone is fine; several need REDIS_URL so they count each host's connections together.
 */
export function describeUnsharedHostBudgets(role: string, config: Pick<TConfig, 'redisUrl'>): string | null {
  if (role !== 'worker' || config.redisUrl) return null;
  return (
    'REDIS_URL is not set: this worker counts each mail host\'s SMTP connections alone, so several worker processes ' +
    'together open more connections to one mail host than it allows (421 replies, tarpits, the sending address blocked) ' +
    'and do not share DNS and catch-all caches. Set REDIS_URL (the same Redis for every worker and API process) when ' +
    'more than one worker runs; a single worker needs nothing.'
  );
}

/**
 * A verifier for this configuration. The composition root builds the process's one (runtime.ts) and hands it over in
 * the dependency record: one engine, so the per-mail-host session limits and back-off, the warm SMTP sessions and the
 * DNS and catch-all caches hold for the whole process; the user's mode, gibberish threshold and allow/block list go
 * with each call.
 */
export function createVerifier(config: TConfig): TVerifier {
  // DNS answers and catch-all verdicts: shared by every process through Redis when REDIS_URL is set
  const redis = config.redisUrl ? createRedisClient(config.redisUrl, { connectTimeout: 1000, maxRetriesPerRequest: 1, lazyConnect: true }) : null;
  redis?.on('error', () => undefined); // a Redis outage only costs cache hits (see RedisVerifierCache)
  const namespace = config.dnsServers.join(',') || 'system';
  const cache: TVerifierCache = redis ? new RedisVerifierCache(redis, namespace) : new MemoryCache(50_000);
  // each mail host's connections and lessons: counted across the processes (of one egress address) through Redis too
  const hostBudgets = redis ? new RedisHostBudgets(redis, namespace) : undefined;
  const pausedHosts = new PausedHosts();
  const options: TVerifyOptions = { ...buildVerifierOptions(config), cache, hostPause: pausedHosts, ...(hostBudgets ? { hostBudgets } : {}) };
  const engine = new VerifierEngine(options);
  watchMailHosts(engine, hostBudgets);
  const verifier: TVerifier = {
    options,
    engine,
    pausedHosts,
    processId: `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`,
    // Concurrent calls for the same address and options share one verification (shared-checks.ts).
    // Every finished verification is counted for /metrics (verilead_verifications_total).
    verify: shareIdenticalChecks(async (address: string, prefs: TVerifyPreferences & { signal?: AbortSignal } = {}) => {
      const result = await engine.verify(address, prefs);
      countVerification(result);
      return result;
    }),
    verifyMany: async function* (addresses, prefs = {}) {
      for await (const result of engine.verifyMany(addresses, prefs)) {
        countVerification(result);
        yield result;
      }
    },
    greylistSchedule: (mode) => [...(options.greylistSchedule ?? DEFAULT_GREYLIST_SCHEDULE[mode])],
    close: async () => {
      await engine.close();
      hostBudgets?.close();
      redis?.disconnect();
    },
  };
  return verifier;
}
