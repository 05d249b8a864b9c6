import dns from 'node:dns';
import { setMaxListeners } from 'node:events';
import os from 'node:os';
import { setTimeout as delay } from 'node:timers/promises';
import { randomBytes } from 'node:crypto';
import { parseAddress } from '../syntax/parse-address';
import { checkDisposable, checkFreeProvider, checkRoleAccount } from '../checks/lists';
import { checkGibberish } from '../checks/gibberish';
import { suggestTypo, KNOWN_PROVIDER_DOMAINS } from '../checks/typo';
import { detectProvider } from '../checks/provider';
import { parseDnsServer } from '../dns/dns-client';
import { resolveMailRouting, type TDnsContext, type TMailHost, type TMailRouting } from '../dns/resolve-mail-hosts';
import { classifyReply, isDirectoryMiss, isRateLimitReply, type TReplyClass, type TSmtpReply } from '../smtp/classify-reply';
import { SmtpFailure, SmtpSession, dialTcp } from '../smtp/smtp-session';
import { batchTranscriptSink } from './batch-transcript';
import { HostGate } from './host-gate';
import { MemoryCache } from './memory-cache';
import { computeVerdict, REASON_TEXTS } from './verdict';
import type {
  TCallOptions,
  TClock,
  TDial,
  TGibberishThreshold,
  TReasonCode,
  TSleep,
  TTimeouts,
  TTranscriptLine,
  TVerificationMode,
  TVerificationResult,
  TVerificationStatus,
  TVerifierCache,
  TVerifyOptions,
  TStreamOptions,
} from '../types';

export const DEFAULT_GREYLIST_SCHEDULE: Record<TVerificationMode, number[]> = {
  highest_accuracy: [60_000, 180_000, 420_000],
  fastest_turnaround: [15_000],
};
export const DEFAULT_TIMEOUTS: Record<TVerificationMode, TTimeouts> = {
  highest_accuracy: { dnsMs: 5_000, connectMs: 10_000, replyMs: 30_000, totalMs: 900_000 },
  fastest_turnaround: { dnsMs: 3_000, connectMs: 5_000, replyMs: 10_000, totalMs: 60_000 },
};
const CATCH_ALL_TTL_MS = 6 * 3_600_000;
/** How long a host's per-recipient 5.4.1 / 5.7.x denials, once proven so, are trusted without a control recipient. */
const DENIAL_TTL_MS = 3_600_000;
/**
 * A session retires after this many transactions: well under the 100 RSETs after which Postfix starts counting each
 * one as an error (smtpd_junk_command_limit). Retiring it after a number of refused recipients too (Postfix slows down
 * after 10 errors and hangs up at 20) was measured and left out: batches of unknown mailboxes then retired sessions
 * after one transaction, and the realistic corpus's median verification took twice as long.
 */
const MAX_SESSION_USES = 50;
/**
 * A session due to retire waits (up to this many transactions, still under Postfix's 100) while another session of
 * its host is being opened or closed: sessions opened together reach their 50th transaction together under load,
 * and retiring them at once left the host's calls waiting for new greetings (a retirement at a time leaves the
 * others serving, and the successor is opened in the freed slot).
 */
const LAST_SESSION_USE = 80;
/**
 * Halfway to its retirement a session has its successor opened beside it, when the host has a free slot: the call
 * after the retirement finds a greeted session waiting instead of paying the host's greeting delay (a warm
 * transaction takes a few ms, a greeting up to 500 ms, so the successor needs a head start of many transactions).
 */
const PREWARM_AT_USES = MAX_SESSION_USES / 2;
const MAX_NEW_SESSION_RETRIES = 3;
/** Why a queued request stops waiting for a slot: another request's transaction took it (a plain value, no stack). */
const TAKEN_IN_BATCH = { taken: true };
/** Back-off before trying a host again that answered 421 to a new connection (too many connections, busy). */
const BUSY_RETRY_MS = [500, 1_000, 2_000, 4_000, 8_000];

type TResolvedOptions = {
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
  clock: TClock;
  sleep: TSleep;
  dial: TDial;
  perHostConcurrency: number;
  /** most recipients asked in one transaction (a host's 452 lowers its own) */
  maxBatch: number;
  sessionBudget: { errors?: number; nonMail?: number };
};

type TOutcome = { status: TVerificationStatus; reason: TReasonCode; text?: string };

/** One SMTP attempt over the MX hosts (with failover). */
type TAttempt =
  | {
      type: 'answer';
      rcpt: TReplyClass;
      /** Exchange Online's 5.4.1 "Access denied" to RCPT after an accepted MAIL FROM (isDirectoryMiss) */
      directoryMiss: boolean;
      probe: TReplyClass | null;
      control: TReplyClass | null;
      /** the domain was already known to deny per recipient when the transaction ran (no control was needed) */
      knownPerRecipient: boolean;
      host: TMailHost;
      replyText: string;
    }
  | { type: 'retry'; why: 'greylisted' | 'service_unavailable' | 'new_session' | 'busy'; host: TMailHost | null; replyText: string }
  | { type: 'failed'; reason: TReasonCode; host: TMailHost | null; text: string };

/** One recipient waiting at a mail host address for a transaction (its own, or one that another request leads). */
type TRcptRequest = {
  run: TRun;
  host: TMailHost;
  address: string;
  domain: string;
  randomAddress: string | null;
  smtputf8: boolean;
  /** taken into another request's transaction: stop waiting for a slot, the answer comes through `result` */
  taken: boolean;
  stopWaiting: AbortController;
  settle(attempt: TAttempt): void;
  result: Promise<TAttempt>;
};

type TRun = {
  transcript: TTranscriptLine[];
  start: number;
  /** clock time by which the verification must end; pushed back by the time it waited for our own host slots */
  deadline: number;
  timeouts: TTimeouts;
  schedule: number[];
  signal: AbortSignal | undefined;
  onParked: ((delta: number) => void) | undefined;
  greylisting: 'wait' | 'defer' | 'last';
};

const lowerSet = (list: string[] | undefined): Set<string> => new Set((list ?? []).map((e) => e.trim().toLowerCase()));

/** The default sleep: a real timer, cleared at once when `signal` cancels the wait (so no timer outlives its wait). */
const sleepReal: TSleep = (ms, signal) => delay(ms, undefined, signal ? { signal } : undefined);

function resolveOptions(options: TVerifyOptions): TResolvedOptions {
  const mode = options.mode ?? 'highest_accuracy';
  const timeouts = { ...DEFAULT_TIMEOUTS[mode], ...options.timeouts };
  const clock = options.clock ?? { now: () => Date.now() };
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
    sessionBudget: { ...options.sessionBudget },
  };
}

function makeRandomLocal(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  const bytes = randomBytes(14);
  let out = '';
  for (const b of bytes) out += alphabet[b % alphabet.length];
  return `zq${out}`;
}

/** What a cancelled call rejects with: the signal's reason, as given (an AbortError DOMException when none was). */
function abortReason(signal: AbortSignal): unknown {
  return signal.reason;
}

/** Stops the run's own work once its call is cancelled (nothing more is asked of any host on its behalf). */
function throwIfCancelled(run: TRun): void {
  if (run.signal?.aborted) throw abortReason(run.signal);
}

const isCancelled = (r: TRcptRequest): boolean => r.run.signal?.aborted === true;

/**
 * The verification engine. Build one per process and share it: it holds the DNS and catch-all caches, the
 * per-mail-host session limits and back-off (so the limits that protect the sending IP hold for the whole
 * process) and the pool of warm SMTP sessions. Per-call choices (mode, gibberish threshold, allow/block list,
 * cancellation) are passed to `verify` / `verifyMany`.
 */
export class VerifierEngine {
  readonly options: TResolvedOptions;
  private readonly gates = new Map<string, HostGate>();
  /** Recipients waiting for a session slot, per mail host address. */
  private readonly pending = new Map<string, TRcptRequest[]>();
  /** Lookups in flight per domain: concurrent addresses of one domain share one DNS resolution. */
  private readonly routing = new Map<string, Promise<TMailRouting>>();
  /** Catch-all probe addresses being chosen per domain: concurrent addresses of one domain share one. */
  private readonly probeChoices = new Map<string, Promise<string>>();

  constructor(options: TVerifyOptions) {
    this.options = resolveOptions(options);
  }

  private getGate(key: string): HostGate {
    let gate = this.gates.get(key);
    if (!gate) {
      gate = new HostGate(this.options.perHostConcurrency, this.options.sleep, this.options.clock, this.options.sessionBudget);
      this.gates.set(key, gate);
    }
    return gate;
  }

  /** The gate of a mail host address (ip or name, port): its current limit, back-off and sessions. */
  inspectHost(address: string): Pick<HostGate, 'limit' | 'capacity' | 'ceiling' | 'active' | 'established' | 'opening' | 'delayMs' | 'maxRecipients' | 'maxBatch' | 'rateLimited' | 'budget'> | null {
    return this.gates.get(`${address}:${this.options.smtpPort}`) ?? null;
  }

  async close(): Promise<void> {
    this.closing = true;
    await Promise.all([...this.gates.values()].map((g) => g.closeAll()));
  }

  private closing = false;

  /**
   * Opens a session for the pool in the background, in a free slot of the host (never beyond its slots, its learned
   * ceiling or its back-off): the successor of a session about to retire. A refusal teaches the gate as any other.
   */
  private prewarm(run: TRun, gate: HostGate, host: TMailHost, ip: string): void {
    if (this.closing || gate.isDown(this.options.clock.now()) || !gate.tryAcquire()) return;
    this.openInBackground(run, gate, host, ip, { spare: true });
  }

  /**
   * Opens a session in the slot the caller holds, in the background, and releases the slot once the session is
   * greeted (and put in the pool: a spare waits under the others) or failed (the failure teaches the gate as any other).
   */
  private openInBackground(run: TRun, gate: HostGate, host: TMailHost, ip: string, opts: { spare?: boolean } = {}): void {
    const now = this.options.clock.now();
    const warm: TRun = { ...run, transcript: [], start: now, deadline: now + run.timeouts.connectMs + 4 * run.timeouts.replyMs, signal: undefined, onParked: undefined };
    void this.openSession(warm, gate, host, ip)
      .then(
        (session) => (this.closing ? void session.quit() : gate.putIdle(session, opts)),
        (error: unknown) => {
          try {
            this.describeOpenFailure(gate, host, error);
          } catch {
            /* an unexpected failure only loses the warm session */
          }
        },
      )
      .finally(() => gate.release());
  }

  /** Wait through the injected sleep; a cancelled call stops waiting at once (an injected sleep may ignore the signal). */
  private async wait(run: TRun, ms: number): Promise<void> {
    const { signal } = run;
    if (!signal) return this.options.sleep(ms);
    if (signal.aborted) throw abortReason(signal);
    let onAbort: (() => void) | null = null;
    try {
      await Promise.race([
        this.options.sleep(ms, signal),
        new Promise<never>((_, reject) => {
          onAbort = () => reject(abortReason(signal));
          signal.addEventListener('abort', onAbort, { once: true });
        }),
      ]);
    } catch (error) {
      throw signal.aborted ? abortReason(signal) : error;
    } finally {
      if (onAbort) signal.removeEventListener('abort', onAbort);
    }
  }

  private makeRun(call: TCallOptions): TRun & { threshold: TGibberishThreshold; allow: Set<string>; block: Set<string> } {
    const o = this.options;
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
      onParked: undefined,
      greylisting: call.greylisting ?? 'wait',
      threshold: call.gibberishThreshold ?? o.gibberishThreshold,
      allow: call.wbList ? lowerSet(call.wbList.allow) : o.allow,
      block: call.wbList ? lowerSet(call.wbList.block) : o.block,
    };
  }

  /**
   * Verify one address. Never throws for the address's sake (unexpected failures become unknown / smtp_error);
   * rejects only when `call.signal` cancels it, since a cancellation is not a verdict.
   */
  async verify(email: string, call: TCallOptions = {}): Promise<TVerificationResult> {
    return this.verifyIn(email, call, undefined);
  }

  /**
   * `verify`, telling a stream when the address waits for a host slot (it then holds no concurrency).
   *
   * A cancelled call rejects at once with the signal's reason, whatever its verification is doing. An SMTP exchange
   * already under way for it (greeting, EHLO, STARTTLS, a transaction that may carry other calls' recipients) is not
   * cut: it goes on in the background to its end, so the session's replies are all read before the session is
   * reused (or the session fails and is closed), the other recipients of the transaction get their answers, and
   * nothing more is asked for the cancelled call. Its answer, if one comes, is dropped.
   */
  private verifyIn(email: string, call: TCallOptions, onParked: ((delta: number) => void) | undefined): Promise<TVerificationResult> {
    const { signal } = call;
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    const work = this.runVerification(email, call, onParked);
    if (!signal) return work;
    return new Promise<TVerificationResult>((resolve, reject) => {
      const onAbort = (): void => reject(abortReason(signal));
      signal.addEventListener('abort', onAbort, { once: true });
      // after a cancellation the work's own outcome (a verdict, or its rejection) settles nothing
      work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
    });
  }

  private async runVerification(email: string, call: TCallOptions, onParked: ((delta: number) => void) | undefined): Promise<TVerificationResult> {
    const { clock } = this.options;
    const run = this.makeRun(call);
    run.onParked = onParked;
    const { start } = run;
    const parsed = parseAddress(email);
    const local = parsed.local;
    const domain = parsed.ok ? parsed.domain : parsed.domain.toLowerCase();
    const flags = {
      disposable: domain ? checkDisposable(domain) : false,
      free: domain ? checkFreeProvider(domain) : false,
      role: local ? checkRoleAccount(local) : false,
      gibberish: local ? checkGibberish(local, run.threshold) : false,
    };
    let outcome: TOutcome;
    let mxHost: string | null = null;
    let greylistCount = 0;
    let suggestion: string | null = null;
    try {
      if (run.signal?.aborted) throw abortReason(run.signal);
      if (!parsed.ok) {
        outcome = { status: 'invalid', reason: 'invalid_syntax', text: `Invalid syntax: ${parsed.error}.` };
      } else {
        const listed = this.checkUserList(parsed.address, parsed.domain, run.allow, run.block);
        if (listed) outcome = listed;
        else {
          const routing = await this.resolveRouting(parsed.domain);
          if (routing.kind === 'mx') {
            mxHost = routing.hosts[0]?.exchange ?? null;
            const smtp = await this.probe(run, routing.hosts, parsed.address, parsed.domain, parsed.smtputf8);
            outcome = smtp.outcome;
            greylistCount = smtp.greylistCount;
            mxHost = smtp.mxHost ?? mxHost;
          } else {
            if (routing.kind === 'nxdomain') outcome = { status: 'invalid', reason: 'domain_not_found' };
            else if (routing.kind === 'null_mx') outcome = { status: 'invalid', reason: 'null_mx' };
            else if (routing.kind === 'no_mail') outcome = { status: 'invalid', reason: 'no_mail_server' };
            else outcome = { status: 'unknown', reason: 'dns_error', text: `${REASON_TEXTS.dns_error} ${routing.detail}.` };
            if (routing.kind !== 'dns_error') suggestion = await this.findSuggestion(parsed.local, parsed.domain);
          }
        }
      }
    } catch (error) {
      if (run.signal?.aborted) throw abortReason(run.signal);
      outcome = { status: 'unknown', reason: 'smtp_error', text: `Verification failed unexpectedly: ${(error as Error).message}` };
    }
    // A domain that cannot receive mail (no such domain, null MX, no mail server) is no mailbox provider: not a free account.
    if (outcome.reason === 'domain_not_found' || outcome.reason === 'null_mx' || outcome.reason === 'no_mail_server') flags.free = false;
    const provider = detectProvider(mxHost);
    const verdict = computeVerdict({
      status: outcome.status,
      reason: outcome.reason,
      disposable: flags.disposable,
      free: flags.free,
      role: flags.role,
      gibberish: flags.gibberish,
      greylistCount,
      provider,
    });
    const end = clock.now();
    return {
      email,
      status: outcome.status,
      reason: { code: outcome.reason, text: outcome.text ?? REASON_TEXTS[outcome.reason] },
      safe_to_send: verdict.safe_to_send,
      suggested_email_address: suggestion,
      disposable: flags.disposable,
      free_account: flags.free,
      role_account: flags.role,
      gibberish: flags.gibberish,
      mx_record: mxHost,
      smtp_provider: provider,
      verified_on: new Date(end).toISOString(),
      ai_verdict: verdict.ai_verdict,
      greylist_count: greylistCount,
      account: local,
      domain,
      time_taken: Math.max(0, end - start),
      deliverability_score: verdict.deliverability_score,
      transcript: run.transcript,
    };
  }

  /**
   * Verify a stream of addresses on this engine, yielding each result as soon as it is ready (order not kept;
   * `email` is the input). The input is read lazily: at most `concurrency` addresses are worked on (up to 4 × that
   * while some wait for a slot at a busy mail host; waiting for our own slot is never a timeout) and finished results
   * wait for the consumer before more input is read, so memory stays flat however long the stream is. Several
   * streams and single calls may share the engine at once; the per-host limits hold for all of them together.
   * A cancelled `signal` stops reading input and ends the stream at once: the verifications in flight are
   * cancelled (see `verifyIn`) and not yielded, nor is any result not yet taken by the consumer.
   */
  async *verifyMany(addresses: Iterable<string> | AsyncIterable<string>, stream: TStreamOptions = {}): AsyncGenerator<TVerificationResult> {
    const { concurrency: wanted, signal: outer, ...rest } = stream;
    const concurrency = Math.max(1, wanted ?? 50);
    // The stream's own signal, followed by its verifications (each listens to it while in flight: as many
    // listeners as addresses in flight, so no listener limit); it follows the caller's signal.
    const cancel = outer ? new AbortController() : null;
    if (cancel) setMaxListeners(0, cancel.signal);
    const signal = cancel?.signal;
    const follow = (): void => cancel?.abort(outer?.reason);
    if (outer?.aborted) follow();
    else outer?.addEventListener('abort', follow, { once: true });
    const call: TCallOptions = { ...rest, signal };
    const iterator: AsyncIterator<string> | Iterator<string> =
      Symbol.asyncIterator in addresses ? (addresses as AsyncIterable<string>)[Symbol.asyncIterator]() : (addresses as Iterable<string>)[Symbol.iterator]();
    const finished: TVerificationResult[] = [];
    let inFlight = 0;
    let parked = 0;
    let exhausted = false;
    let wake: (() => void) | null = null;
    const maxInFlight = concurrency * 4;
    const cancelled = (): boolean => signal?.aborted === true;
    const hasRoom = (): boolean => !exhausted && !cancelled() && inFlight - parked + finished.length < concurrency && inFlight < maxInFlight;
    const notify = (): void => {
      const w = wake;
      wake = null;
      w?.();
    };
    const onParked = (delta: number): void => {
      parked += delta;
      if (hasRoom()) notify();
    };
    const onAbort = (): void => notify();
    signal?.addEventListener('abort', onAbort);
    const pump = async (): Promise<void> => {
      while (hasRoom()) {
        const next = await iterator.next();
        if (next.done) {
          exhausted = true;
          break;
        }
        inFlight++;
        this.verifyIn(next.value, call, onParked).then(
          (result) => {
            inFlight--;
            if (!cancelled()) finished.push(result);
            notify();
          },
          () => {
            inFlight--;
            notify();
          },
        );
      }
    };
    try {
      await pump();
      while (inFlight > 0 || finished.length > 0 || hasRoom()) {
        if (finished.length === 0 && !hasRoom()) await new Promise<void>((resolve) => (wake = resolve));
        while (finished.length > 0 && !cancelled()) {
          yield finished.shift() as TVerificationResult;
          await pump();
        }
        if (cancelled()) finished.length = 0;
        await pump();
      }
    } finally {
      signal?.removeEventListener('abort', onAbort);
      outer?.removeEventListener('abort', follow);
      if (!exhausted) await iterator.return?.();
    }
  }

  private resolveRouting(domain: string): Promise<TMailRouting> {
    const pending = this.routing.get(domain);
    if (pending) return pending;
    const lookup = resolveMailRouting(this.options.dns, domain).finally(() => this.routing.delete(domain));
    this.routing.set(domain, lookup);
    return lookup;
  }

  private checkUserList(address: string, domain: string, allow: Set<string>, block: Set<string>): TOutcome | null {
    const lower = address.toLowerCase();
    if (block.has(lower)) return { status: 'invalid', reason: 'blocked_by_user_list' };
    if (allow.has(lower)) return { status: 'valid', reason: 'allowed_by_user_list' };
    if (block.has(domain)) return { status: 'invalid', reason: 'blocked_by_user_list' };
    if (allow.has(domain)) return { status: 'valid', reason: 'allowed_by_user_list' };
    return null;
  }

  /** A typo fix, offered only when the original domain has no mail and the candidate is a known provider or has MX. */
  private async findSuggestion(local: string, domain: string): Promise<string | null> {
    const candidate = suggestTypo(domain);
    if (!candidate) return null;
    if ((KNOWN_PROVIDER_DOMAINS as readonly string[]).includes(candidate)) return `${local}@${candidate}`;
    const routing = await resolveMailRouting(this.options.dns, candidate);
    return routing.kind === 'mx' && !routing.implicit ? `${local}@${candidate}` : null;
  }

  private async getCatchAll(domain: string): Promise<boolean | null> {
    const value = await this.options.cache.get(`smtp:catchall:${domain}`);
    return typeof value === 'boolean' ? value : null;
  }

  /**
   * The random address that probes a domain for catch-all: one per domain for a few hours (shared through the
   * cache), so a greylisting host that saw it on a first attempt lets it through on a re-check made by a later call.
   * Concurrent addresses of a domain wait for one choice: each making its own would leave in the cache an address
   * the host never saw, and the re-check would meet the greylist again.
   */
  private probeAddress(domain: string): Promise<string> {
    const pending = this.probeChoices.get(domain);
    if (pending) return pending;
    const choice = this.chooseProbeAddress(domain).finally(() => this.probeChoices.delete(domain));
    this.probeChoices.set(domain, choice);
    return choice;
  }

  private async chooseProbeAddress(domain: string): Promise<string> {
    const key = `smtp:probe:${domain}`;
    const known = await this.options.cache.get(key);
    if (typeof known === 'string') return known;
    const address = `${makeRandomLocal()}@${domain}`;
    await this.options.cache.set(key, address, CATCH_ALL_TTL_MS);
    return address;
  }

  /** True once this domain's hosts were seen to deny unknown recipients while accepting real ones (5.4.1 edge blocking). */
  private async isPerRecipientDenier(domain: string): Promise<boolean> {
    return (await this.options.cache.get(`smtp:denial:${domain}`)) === 'per_recipient';
  }

  /** SMTP stage: attempts with MX failover, greylisting retries on the schedule, new sessions after 452 / postscreen. */
  private async probe(
    run: TRun,
    hosts: TMailHost[],
    address: string,
    domain: string,
    smtputf8: boolean,
  ): Promise<{ outcome: TOutcome; greylistCount: number; mxHost: string | null }> {
    const { clock } = this.options;
    const { schedule } = run;
    const randomAddress = await this.probeAddress(domain);
    let greylistCount = 0;
    let scheduleIndex = 0;
    let newSessionRetries = 0;
    let busyRetries = 0;
    for (;;) {
      throwIfCancelled(run);
      const knownCatchAll = await this.getCatchAll(domain);
      const attempt = await this.attempt(run, hosts, address, domain, knownCatchAll === null ? randomAddress : null, smtputf8);
      const mxHost = attempt.host?.exchange ?? null;
      if (attempt.type === 'failed') return { outcome: { status: 'unknown', reason: attempt.reason, text: attempt.text }, greylistCount, mxHost };
      if (attempt.type === 'answer') {
        const outcome = await this.judge(attempt, domain, knownCatchAll);
        if (outcome) return { outcome, greylistCount, mxHost };
      }
      // Retry needed.
      const why = attempt.type === 'retry' ? attempt.why : 'greylisted';
      if (why === 'new_session' && newSessionRetries < MAX_NEW_SESSION_RETRIES) {
        newSessionRetries++;
        continue;
      }
      const busyDelay = BUSY_RETRY_MS[busyRetries];
      if (why === 'busy' && busyDelay !== undefined && clock.now() + busyDelay <= run.deadline) {
        // The host turned a new connection away (421: too many connections / busy): come back after a back-off.
        busyRetries++;
        await this.wait(run, busyDelay);
        continue;
      }
      if (why === 'greylisted') greylistCount++;
      if (why === 'greylisted' && run.greylisting !== 'wait') {
        // the caller re-checks later (defer) or this was its last re-check (last): no wait inside the call
        const final = run.greylisting === 'last' && attempt.type === 'answer' && attempt.rcpt.kind === 'accepted';
        if (final) return { outcome: { status: 'valid', reason: 'valid_mailbox' }, greylistCount, mxHost };
        const text = run.greylisting === 'defer' ? `${REASON_TEXTS.greylisted} A re-check is due later. Last reply: ${attempt.replyText}` : `${REASON_TEXTS.greylisted} Last reply: ${attempt.replyText}`;
        return { outcome: { status: 'unknown', reason: 'greylisted', text }, greylistCount, mxHost };
      }
      const delay = schedule[scheduleIndex++];
      const reason: TReasonCode = why === 'greylisted' ? 'greylisted' : 'service_unavailable';
      const lastText = attempt.replyText;
      if (delay === undefined || clock.now() + delay > run.deadline) {
        // An accepted recipient whose catch-all probe never got a final answer is still a confirmed mailbox.
        if (attempt.type === 'answer' && attempt.rcpt.kind === 'accepted') return { outcome: { status: 'valid', reason: 'valid_mailbox' }, greylistCount, mxHost };
        return { outcome: { status: 'unknown', reason, text: `${REASON_TEXTS[reason]} Last reply: ${lastText}` }, greylistCount, mxHost };
      }
      await this.wait(run, delay);
    }
  }

  /** Final outcome from an answered attempt, or null when it must be retried (temporary replies). */
  private async judge(attempt: Extract<TAttempt, { type: 'answer' }>, domain: string, knownCatchAll: boolean | null): Promise<TOutcome | null> {
    const { rcpt, probe, control, replyText } = attempt;
    const { cache } = this.options;
    const withReply = (reason: TReasonCode): string => `${REASON_TEXTS[reason]} Server reply: ${replyText}`;
    switch (rcpt.kind) {
      case 'rejected':
        return { status: 'invalid', reason: rcpt.reason, text: withReply(rcpt.reason) };
      case 'blocked':
        return { status: 'unknown', reason: 'verifier_blocked', text: withReply('verifier_blocked') };
      case 'denied': {
        // Judged against the session: a known-good recipient accepted on the same host means this denial is per
        // recipient (no such mailbox); the same denial for the known-good one too means the verifier is blocked.
        const perRecipient = 'A known-good recipient was accepted in the same session, so this rejection is about the recipient.';
        if (attempt.directoryMiss) {
          return {
            status: 'invalid',
            reason: 'mailbox_not_found',
            text: `${withReply('mailbox_not_found')} Exchange Online answers 5.4.1 "Access denied" to RCPT, after accepting the sender, for a recipient not in the organisation's directory (a blocked sender is refused with 5.7.6xx at the connection or MAIL FROM).`,
          };
        }
        if (attempt.knownPerRecipient) return { status: 'invalid', reason: 'mailbox_not_found', text: `${withReply('mailbox_not_found')} ${perRecipient}` };
        if (control?.kind === 'accepted') {
          await cache.set(`smtp:denial:${domain}`, 'per_recipient', DENIAL_TTL_MS);
          return { status: 'invalid', reason: 'mailbox_not_found', text: `${withReply('mailbox_not_found')} ${perRecipient}` };
        }
        if (control && (control.kind === 'greylisted' || control.kind === 'unavailable' || control.kind === 'too_many_recipients')) return null;
        return {
          status: 'unknown',
          reason: 'verifier_blocked',
          text: `${withReply('verifier_blocked')} The host gave the same refusal to a recipient that must exist (postmaster), so it refuses the verifier, not the mailbox.`,
        };
      }
      case 'error':
        return { status: 'unknown', reason: 'smtp_error', text: withReply('smtp_error') };
      case 'accepted': {
        if (knownCatchAll !== null) return knownCatchAll ? { status: 'catch_all', reason: 'accept_all' } : { status: 'valid', reason: 'valid_mailbox' };
        if (!probe) {
          // no probe in the transaction: the domain's status was learned meanwhile (or it needs none)
          return (await this.getCatchAll(domain)) === true ? { status: 'catch_all', reason: 'accept_all' } : { status: 'valid', reason: 'valid_mailbox' };
        }
        if (probe.kind === 'accepted') {
          await cache.set(`smtp:catchall:${domain}`, true, CATCH_ALL_TTL_MS);
          return { status: 'catch_all', reason: 'accept_all' };
        }
        if (probe.kind === 'rejected' || probe.kind === 'blocked' || probe.kind === 'denied' || probe.kind === 'error') {
          await cache.set(`smtp:catchall:${domain}`, false, CATCH_ALL_TTL_MS);
          // a host that accepts this recipient and denies the random one denies per recipient
          if (probe.kind === 'denied') await cache.set(`smtp:denial:${domain}`, 'per_recipient', DENIAL_TTL_MS);
          return { status: 'valid', reason: 'valid_mailbox' };
        }
        return null; // the probe was deferred: retry to learn whether the domain accepts all
      }
      default:
        return null;
    }
  }

  /** Open a session to the host (greeting, EHLO, STARTTLS when offered); the gate counts it while it opens and lives. */
  private async openSession(run: TRun, gate: HostGate, host: TMailHost, address: string): Promise<SmtpSession> {
    const { heloName, dial, smtpPort } = this.options;
    const { timeouts } = run;
    const sink = this.makeSink(run);
    gate.opening++;
    try {
      const { session, greeting } = await SmtpSession.open({
        address,
        port: smtpPort,
        serverName: host.exchange,
        heloName,
        dial,
        connectMs: timeouts.connectMs,
        replyMs: timeouts.replyMs,
        deadline: this.realDeadline(run),
        sink,
      });
      try {
        if (greeting.code !== 220) throw new GreetingRefused(greeting);
        let hello = await session.greet();
        if (hello.code !== 250) throw new GreetingRefused(hello);
        if (session.extensions.has('STARTTLS')) {
          const tlsReply = await session.startTls();
          if (tlsReply.code === 220) {
            hello = await session.greet();
            if (hello.code !== 250) throw new GreetingRefused(hello);
          }
        }
        gate.noteEstablished(session);
        return session;
      } catch (error) {
        session.close();
        throw error;
      }
    } finally {
      gate.opening--;
    }
  }

  /** The run's deadline on the real (epoch) clock the socket timers use. */
  private realDeadline(run: TRun): number {
    return Date.now() + Math.max(1, run.deadline - this.options.clock.now());
  }

  private makeSink(run: TRun): (direction: 'C' | 'S', line: string) => void {
    return (direction, line) => run.transcript.push({ at_ms: Math.max(0, this.options.clock.now() - run.start), direction, line });
  }

  /** One pass over the MX hosts in preference order until one gives an answer. */
  private async attempt(run: TRun, hosts: TMailHost[], address: string, domain: string, randomAddress: string | null, smtputf8: boolean): Promise<TAttempt> {
    let last: TAttempt = { type: 'failed', reason: 'connection_failed', host: hosts[0] ?? null, text: REASON_TEXTS.connection_failed };
    for (const host of hosts) {
      for (const ip of host.addresses.slice(0, 2)) {
        throwIfCancelled(run);
        if (this.options.clock.now() >= run.deadline) return { type: 'failed', reason: 'smtp_timeout', host, text: 'The total time allowed for this verification ran out.' };
        const result = await this.attemptHost(run, host, ip, address, domain, randomAddress, smtputf8);
        // Fail over to the next address / MX host on refused or timed-out connections and on 421-style unavailability.
        const failover =
          (result.type === 'failed' && (result.reason === 'smtp_timeout' || result.reason === 'connection_failed')) ||
          (result.type === 'retry' && (result.why === 'service_unavailable' || result.why === 'busy'));
        if (!failover) return result;
        last = result;
      }
    }
    return last;
  }

  /**
   * Wait for a slot at the host, until the call is cancelled or `stopWaiting` (the request was answered in another's
   * transaction). The wait is ours, not the host's: the run's deadline moves back by as much.
   */
  private async acquireSlot(run: TRun, gate: HostGate, stopWaiting: AbortSignal): Promise<void> {
    const { clock } = this.options;
    const before = clock.now();
    run.onParked?.(+1);
    try {
      await gate.acquire(run.signal, stopWaiting);
    } finally {
      run.onParked?.(-1);
      run.deadline += clock.now() - before;
    }
  }

  private pendingAt(key: string): TRcptRequest[] {
    let queue = this.pending.get(key);
    if (!queue) {
      queue = [];
      this.pending.set(key, queue);
    }
    return queue;
  }

  /**
   * Ask one mail host address about one recipient. The request waits in the host's queue for a session slot;
   * whoever gets a slot takes the requests waiting behind it too (up to the host's batch size) into one SMTP
   * transaction, so under load a slow host is asked about many recipients per round trip.
   */
  private async attemptHost(run: TRun, host: TMailHost, ip: string, address: string, domain: string, randomAddress: string | null, smtputf8: boolean): Promise<TAttempt> {
    const key = `${ip}:${this.options.smtpPort}`;
    const gate = this.getGate(key);
    const now = () => this.options.clock.now();
    const downAnswer = (): TAttempt => ({ type: 'failed', reason: gate.downReason, host, text: `${REASON_TEXTS[gate.downReason]} (${host.exchange} failed repeatedly and is paused.)` });
    if (gate.isDown(now())) return downAnswer();
    let settle: (attempt: TAttempt) => void = () => {};
    const result = new Promise<TAttempt>((resolve) => (settle = resolve));
    const request: TRcptRequest = { run, host, address, domain, randomAddress, smtputf8, taken: false, stopWaiting: new AbortController(), settle, result };
    const queue = this.pendingAt(key);
    queue.push(request);
    const dequeue = (r: TRcptRequest): void => {
      const index = queue.indexOf(r);
      if (index >= 0) queue.splice(index, 1);
    };
    for (;;) {
      try {
        await this.acquireSlot(run, gate, request.stopWaiting.signal);
      } catch (error) {
        if (request.taken) return result; // answered in another session's transaction
        dequeue(request);
        throw error;
      }
      if (request.taken) {
        gate.release();
        return result;
      }
      // No greeted session to take, while others of ours at this host are busy (a session retired, or the load grew):
      // the new session is opened in the background in this slot, and this request waits again, in the queue. A
      // busy session is free again after one transaction (milliseconds); a greeting can take 500 ms.
      if (gate.idleCount === 0 && gate.established > 0 && !this.closing && !gate.isDown(now())) {
        this.openInBackground(run, gate, host, ip);
        continue;
      }
      break;
    }
    dequeue(request);
    if (gate.isDown(now())) {
      gate.release();
      return downAnswer();
    }
    const batch = [request];
    const pickBatch = (session: SmtpSession | null): TRcptRequest[] => {
      // a host's learned per-session limit leaves room for the batch's random probe
      // and, on a session, as many as it may still see refused (session-budget.ts: every recipient may be unknown)
      const probeRoom = randomAddress ? 1 : 0;
      const room = session
        ? Math.min(this.options.maxBatch, gate.maxBatch, gate.maxRecipients - session.recipients - probeRoom, gate.budget.recipientRoom(session) - probeRoom)
        : Math.min(this.options.maxBatch, gate.maxBatch);
      for (const other of [...queue]) {
        if (batch.length >= room) break;
        // a cancelled request leaves the queue by itself (its wait for a slot ends)
        if (other.taken || isCancelled(other) || other.smtputf8 !== smtputf8 || other.host.exchange !== host.exchange) continue;
        other.taken = true;
        dequeue(other);
        other.stopWaiting.abort(TAKEN_IN_BATCH);
        batch.push(other);
      }
      return batch;
    };
    try {
      const answers = await this.serveBatch(run, gate, host, ip, pickBatch);
      for (const r of batch) r.settle(answers.get(r) ?? { type: 'retry', why: 'new_session', host, replyText: 'no reply in the batch' });
    } catch (error) {
      for (const r of batch) if (r !== request) r.settle({ type: 'failed', reason: 'smtp_error', host, text: `Verification failed unexpectedly: ${(error as Error).message}` });
      throw error;
    }
    return result;
  }

  /** Holds a slot: takes (or opens) a session, runs one transaction for the batch, returns the session to the pool. */
  private async serveBatch(run: TRun, gate: HostGate, host: TMailHost, ip: string, pickBatch: (session: SmtpSession | null) => TRcptRequest[]): Promise<Map<TRcptRequest, TAttempt>> {
    const now = () => this.options.clock.now();
    const all = (batch: TRcptRequest[], attempt: TAttempt) => new Map(batch.map((r) => [r, attempt] as const));
    let session: SmtpSession | null = null;
    let batch: TRcptRequest[] = [];
    try {
      for (let tries = 0; tries < 2; tries++) {
        session = gate.takeIdle();
        const reused = session !== null;
        if (session) session.setDeadline(this.realDeadline(run));
        else {
          try {
            session = await this.openSession(run, gate, host, ip);
          } catch (error) {
            return all(batch.length > 0 ? batch : pickBatch(null), this.describeOpenFailure(gate, host, error));
          }
        }
        batch = pickBatch(session);
        // each request's transcript: the transaction's own lines and its own recipients only (batch-transcript.ts)
        session.sink = batchTranscriptSink(batch.map((r) => ({ address: r.address, domain: r.domain, sink: this.makeSink(r.run) })));
        try {
          const limitedBefore = gate.rateLimited;
          const answers = await this.transactBatch(session, gate, host, batch);
          const attempts = [...answers.values()];
          // a rate-limit reply has slowed the host down already (transactBatch): no reward for the answers beside it
          if (gate.rateLimited > limitedBefore) {
            /* slowed down */
          } else if (attempts.some((a) => a.type === 'retry' && a.why !== 'new_session' && (a.why !== 'greylisted' || isLoadDeferral(a.replyText)))) gate.penalize();
          else if (attempts.some((a) => a.type === 'answer')) gate.reward();
          return answers;
        } catch (error) {
          session.close();
          session = null;
          // A reused session may have been closed by the server while idle: try once more on a fresh one. (Not a cut to
          // learn from: a host closes idle sessions on its own clock; its cuts come with a 421, handled in transactBatch.)
          if (reused && error instanceof SmtpFailure && error.kind === 'connection_lost') continue;
          if (error instanceof SmtpFailure) {
            const reason: TReasonCode = error.kind === 'timeout' ? 'smtp_timeout' : 'connection_failed';
            if (error.kind === 'timeout' && !error.clipped) gate.recordConnectFailure('smtp_timeout', now());
            return all(batch, { type: 'failed', reason, host, text: `${REASON_TEXTS[reason]} ${error.message}.` });
          }
          throw error;
        }
      }
      return all(batch, { type: 'failed', reason: 'connection_failed', host, text: REASON_TEXTS.connection_failed });
    } finally {
      let retired = false;
      if (session && !session.closed) {
        session.uses++;
        session.sink = undefined;
        const due = session.retiring || gate.budget.isSpent(session) || (session.uses >= MAX_SESSION_USES && (session.uses >= LAST_SESSION_USE || !gate.renewing));
        if (!due && session.recipients < gate.maxRecipients) {
          gate.putIdle(session);
          // its successor is opened beside it halfway to its retirement (by uses, or by either budget)
          if (!session.prewarmed && (session.uses >= PREWARM_AT_USES || gate.budget.isHalfSpent(session))) {
            session.prewarmed = true;
            this.prewarm(run, gate, host, ip);
          }
        } else {
          // retired: the slot is held until the host has seen the QUIT, so it never counts one connection too many
          await gate.quitInSlot(session);
          retired = true;
        }
      }
      gate.release();
      // a retired session's successor is opened at once in the freed slot (unless a session waits idle): while it
      // is greeted, the host's other sessions serve on, past their own retirement if need be (LAST_SESSION_USE)
      if (retired && gate.idleCount === 0) this.prewarm(run, gate, host, ip);
    }
  }

  private describeOpenFailure(gate: HostGate, host: TMailHost, error: unknown): TAttempt {
    if (error instanceof GreetingRefused) {
      const cls = classifyReply(error.reply);
      const text = error.reply.lines.join(' ');
      if (cls.kind === 'blocked') return { type: 'failed', reason: 'verifier_blocked', host, text: `${REASON_TEXTS.verifier_blocked} Server reply: ${text}` };
      if (error.reply.code >= 400 && error.reply.code < 500) {
        // one session too many (others of ours were open): the host's ceiling is learned and caps the slots;
        // refused with none open: the host is busy, so back off
        if (!gate.learnCeiling()) gate.penalize();
        return { type: 'retry', why: 'busy', host, replyText: text };
      }
      return { type: 'failed', reason: 'smtp_error', host, text: `${REASON_TEXTS.smtp_error} Server reply: ${text}` };
    }
    if (error instanceof SmtpFailure) {
      const reason: TReasonCode = error.kind === 'timeout' ? 'smtp_timeout' : 'connection_failed';
      if (!error.clipped) {
        gate.recordConnectFailure(reason === 'smtp_timeout' ? 'smtp_timeout' : 'connection_failed', this.options.clock.now());
        if (error.kind === 'refused') gate.penalize();
      }
      return { type: 'failed', reason, host, text: `${REASON_TEXTS[reason]} ${error.message}.` };
    }
    throw error;
  }

  /**
   * One transaction for a batch of recipients of one host: MAIL FROM, then RCPT TO for each address (and one
   * random address per domain whose catch-all status is not known yet), pipelined when the host offers
   * PIPELINING; then RCPT TO postmaster (a known-good control) for domains whose address got a per-recipient
   * denial; then RSET. Each recipient is classified on its own reply. A 452 "too many recipients" lowers the
   * host's batch size and sends the recipients it refused to a new session. Throws SmtpFailure when the
   * connection fails before MAIL FROM is answered.
   */
  private async transactBatch(session: SmtpSession, gate: HostGate, host: TMailHost, batch: TRcptRequest[]): Promise<Map<TRcptRequest, TAttempt>> {
    const out = new Map<TRcptRequest, TAttempt>();
    const live = batch.filter((r) => {
      if (isCancelled(r)) {
        // cancelled before its recipient was sent (e.g. while the session was being opened): nothing is asked for
        // it, and its call has already rejected, so this answer is never read
        out.set(r, { type: 'failed', reason: 'smtp_error', host, text: 'The verification was cancelled.' });
        return false;
      }
      if (!r.smtputf8 || session.extensions.has('SMTPUTF8')) return true;
      out.set(r, { type: 'failed', reason: 'smtp_error', host, text: 'The address has a UTF-8 local part but the mail server does not support SMTPUTF8 (RFC 6531): no compliant sender can deliver to it there, and it cannot be checked.' });
      return false;
    });
    if (live.length === 0) return out;
    const forAll = (attempt: TAttempt): Map<TRcptRequest, TAttempt> => {
      for (const r of live) out.set(r, attempt);
      return out;
    };
    const lines = [`MAIL FROM:<${this.options.mailFrom}>${live.some((r) => r.smtputf8) ? ' SMTPUTF8' : ''}`];
    const slots: Array<{ req: TRcptRequest } | { probe: string }> = [];
    // a domain whose catch-all status was learned since these requests were made needs no probe (one refusal fewer)
    const probed = new Set<string>();
    for (const r of live) if (r.randomAddress && !probed.has(r.domain) && (await this.getCatchAll(r.domain)) !== null) probed.add(r.domain);
    for (const r of live) {
      lines.push(`RCPT TO:<${r.address}>`);
      slots.push({ req: r });
      if (r.randomAddress && !probed.has(r.domain)) {
        probed.add(r.domain);
        lines.push(`RCPT TO:<${r.randomAddress}>`);
        slots.push({ probe: r.domain });
      }
    }
    const recipientsBefore = session.recipients;
    session.recipients += slots.length;
    // without PIPELINING the commands go one at a time: a refused MAIL FROM, a 421 or postscreen's "service
    // unavailable" on a new session stops the rest (nothing more is asked of a session that serves no more)
    // (a session opened in the background and not used yet is as new to the host as one opened for this batch)
    const fresh = session.uses === 0;
    let sent = 0;
    const stopAt = (reply: TSmtpReply): boolean => (sent++ === 0 && reply.code >= 300) || ends(reply, fresh);
    const { replies, failure } = await session.pipeline(lines, stopAt);
    const mail = replies[0];
    if (!mail) throw failure ?? new SmtpFailure('protocol', 'no reply to MAIL FROM');
    const mailClass = classifyReply(mail);
    if (mailClass.kind !== 'accepted') {
      session.retiring = true;
      if (mail.code === 421) gate.budget.learnCut({ errors: session.errors - 1, nonMail: session.nonMail });
      const text = mail.lines.join(' ');
      if (mailClass.kind === 'greylisted') return forAll({ type: 'retry', why: 'greylisted', host, replyText: text });
      if (mailClass.kind === 'unavailable' || mailClass.kind === 'too_many_recipients') return forAll({ type: 'retry', why: 'service_unavailable', host, replyText: text });
      if (mailClass.kind === 'blocked' || mailClass.kind === 'denied') return forAll({ type: 'failed', reason: 'verifier_blocked', host, text: `${REASON_TEXTS.verifier_blocked} Server reply: ${text}` });
      return forAll({ type: 'failed', reason: 'smtp_error', host, text: `${REASON_TEXTS.smtp_error} Server reply to MAIL FROM: ${text}` });
    }
    const rcptReplies = new Map<TRcptRequest, TSmtpReply>();
    const probeReplies = new Map<string, TSmtpReply>();
    let accepted = 0;
    let tooMany = false;
    slots.forEach((slot, i) => {
      const reply = replies[i + 1];
      if (!reply) return;
      if (classifyReply(reply).kind === 'too_many_recipients') {
        if (!tooMany) {
          // the host takes `accepted` recipients per transaction (and per session, counted from its start)
          gate.maxBatch = Math.max(1, Math.min(gate.maxBatch, accepted));
          gate.maxRecipients = Math.max(1, Math.min(gate.maxRecipients, recipientsBefore + accepted));
        }
        tooMany = true;
      } else accepted++;
      if ('req' in slot) rcptReplies.set(slot.req, reply);
      else probeReplies.set(slot.probe, reply);
    });
    const freshTurnedAway = fresh && [...rcptReplies.values()].some((r) => r.code >= 400 && r.code < 500 && r.enhanced?.startsWith('4.3.'));
    // a 421 in mid-session: the host cut the session (Postfix's `too many errors`, Exim's nonmail limit…): it teaches
    // the host's budget, and the recipients are asked again at once on a new session
    const cut = replies.some((r) => r.code === 421);
    // a rate-limit reply slows this host's recipients down at once: smaller batches (what it took before refusing),
    // fewer sessions and a pause before each (the gate's back-off), learned for the host
    const limited = replies.slice(1).some((r) => isRateLimitReply(r));
    if (limited) {
      gate.maxBatch = Math.max(1, Math.min(gate.maxBatch, Math.max(1, Math.floor(accepted / 2))));
      gate.penalize();
      gate.rateLimited++;
    }
    if (cut) gate.budget.learnCut({ errors: session.errors - 1, nonMail: session.nonMail });
    if (failure) session.close();
    else if (freshTurnedAway || tooMany || cut || [...rcptReplies.values()].some((r) => classifyReply(r).kind === 'unavailable')) session.retiring = true;
    // controls: postmaster for each domain whose address got a per-recipient denial not yet judged for the domain
    const controlReplies = new Map<string, TSmtpReply>();
    const knownDeniers = new Set<string>();
    for (const r of live) if (!knownDeniers.has(r.domain) && (await this.isPerRecipientDenier(r.domain))) knownDeniers.add(r.domain);
    if (!session.closed && !session.retiring) {
      const domains: string[] = [];
      for (const r of live) {
        const reply = rcptReplies.get(r);
        if (reply && classifyReply(reply).kind === 'denied' && !isDirectoryMiss(reply) && !domains.includes(r.domain) && !knownDeniers.has(r.domain)) domains.push(r.domain);
      }
      if (domains.length > 0) {
        session.recipients += domains.length;
        const controls = await session.pipeline(domains.map((d) => `RCPT TO:<postmaster@${d}>`));
        domains.forEach((d, i) => {
          const reply = controls.replies[i];
          if (reply) controlReplies.set(d, reply);
        });
        if (controls.failure) session.close();
      }
      // a session whose budget is spent retires with QUIT, without an RSET first (one non-mail command fewer)
      if (gate.budget.isSpent(session)) session.retiring = true;
      if (!session.closed && !session.retiring) {
        const rset = await session.pipeline(['RSET']);
        // RSET refused (Postfix's 421 `too many errors`, Exim's `554 Too many nonmail commands`): a per-session limit
        const rsetCode = rset.replies[0]?.code ?? 0;
        if (rsetCode >= 400) gate.budget.learnCut({ errors: session.errors - 1, nonMail: session.nonMail });
        if (rset.replies[0]?.code !== 250) session.close();
      }
    }
    for (const r of live) {
      const reply = rcptReplies.get(r);
      const probeReply = r.randomAddress ? probeReplies.get(r.domain) : undefined;
      if (!reply) {
        out.set(r, { type: 'retry', why: 'new_session', host, replyText: failure?.message ?? 'the session ended before this recipient was answered' });
        continue;
      }
      const text = reply.lines.join(' ');
      const rcpt = classifyReply(reply);
      const probe = probeReply ? classifyReply(probeReply) : null;
      if (freshTurnedAway) {
        // postscreen-style: a new client's first connection is turned away ("service currently unavailable");
        // the next connection is let through, so retry at once on a new session rather than on the greylist schedule
        out.set(r, { type: 'retry', why: 'new_session', host, replyText: text });
      } else if (cut && rcpt.kind === 'unavailable') {
        out.set(r, { type: 'retry', why: 'new_session', host, replyText: text });
      } else if (rcpt.kind === 'too_many_recipients' || (rcpt.kind === 'accepted' && probe?.kind === 'too_many_recipients')) {
        out.set(r, { type: 'retry', why: 'new_session', host, replyText: text });
      } else if (rcpt.kind === 'unavailable') {
        out.set(r, { type: 'retry', why: 'service_unavailable', host, replyText: text });
      } else if (rcpt.kind === 'greylisted') {
        out.set(r, { type: 'retry', why: 'greylisted', host, replyText: text });
      } else {
        const controlReply = controlReplies.get(r.domain);
        const control = rcpt.kind === 'denied' && controlReply ? classifyReply(controlReply) : null;
        out.set(r, { type: 'answer', rcpt, directoryMiss: isDirectoryMiss(reply), probe: r.randomAddress && rcpt.kind === 'accepted' ? probe : null, control, knownPerRecipient: knownDeniers.has(r.domain), host, replyText: text });
      }
    }
    return out;
  }
}

/** A reply after which a session serves no more: 421, or a 4.3.x "service unavailable" on a new session (postscreen). */
function ends(reply: TSmtpReply, fresh: boolean): boolean {
  return reply.code === 421 || (fresh && reply.code >= 400 && reply.code < 500 && reply.enhanced?.startsWith('4.3.') === true);
}

/**
 * A 4xx deferral that signals load rather than per-recipient greylisting: no enhanced code, or x.3.x (mail system)
 * / x.4.x (network). Greylisting (4.7.x, 4.2.x, 4.1.x) is per (client, sender, recipient) triplet, so it does not
 * slow the whole host down.
 */
function isLoadDeferral(replyText: string): boolean {
  const match = /^\d{3}[ -]4\.(\d{1,3})\./.exec(replyText);
  return !match || match[1] === '3' || match[1] === '4';
}

class GreetingRefused extends Error {
  constructor(readonly reply: TSmtpReply) {
    super(`server refused the session: ${reply.lines.join(' ')}`);
    this.name = 'GreetingRefused';
  }
}
