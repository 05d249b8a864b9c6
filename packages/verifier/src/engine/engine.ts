import dns from 'node:dns';
import os from 'node:os';
import { randomBytes } from 'node:crypto';
import { parseAddress } from '../syntax/parse-address';
import { checkDisposable, checkFreeProvider, checkRoleAccount } from '../checks/lists';
import { checkGibberish } from '../checks/gibberish';
import { suggestTypo, KNOWN_PROVIDER_DOMAINS } from '../checks/typo';
import { detectProvider } from '../checks/provider';
import { parseDnsServer } from '../dns/dns-client';
import { resolveMailRouting, type TDnsContext, type TMailHost } from '../dns/resolve-mail-hosts';
import { classifyReply, type TReplyClass, type TSmtpReply } from '../smtp/classify-reply';
import { SmtpFailure, SmtpSession, dialTcp } from '../smtp/smtp-session';
import { HostGate } from './host-gate';
import { MemoryCache } from './memory-cache';
import { computeVerdict, REASON_TEXTS } from './verdict';
import type {
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
const MAX_SESSION_USES = 20;
const MAX_NEW_SESSION_RETRIES = 3;

type TResolvedOptions = {
  dns: TDnsContext;
  heloName: string;
  mailFrom: string;
  smtpPort: number;
  timeouts: TTimeouts;
  schedule: number[];
  gibberishThreshold: TGibberishThreshold;
  allow: Set<string>;
  block: Set<string>;
  cache: TVerifierCache;
  clock: TClock;
  sleep: TSleep;
  dial: TDial;
  perHostConcurrency: number;
};

type TOutcome = { status: TVerificationStatus; reason: TReasonCode; text?: string };

/** One SMTP attempt over the MX hosts (with failover). */
type TAttempt =
  | { type: 'answer'; rcpt: TReplyClass; probe: TReplyClass | null; host: TMailHost; replyText: string }
  | { type: 'retry'; why: 'greylisted' | 'service_unavailable' | 'new_session'; host: TMailHost | null; replyText: string }
  | { type: 'failed'; reason: TReasonCode; host: TMailHost | null; text: string };

type TRun = {
  transcript: TTranscriptLine[];
  start: number;
  deadline: number;
};

const sleepReal: TSleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function resolveOptions(options: TVerifyOptions): TResolvedOptions {
  const mode = options.mode ?? 'highest_accuracy';
  const timeouts = { ...DEFAULT_TIMEOUTS[mode], ...options.timeouts };
  const clock = options.clock ?? { now: () => Date.now() };
  const cache = options.cache ?? new MemoryCache(50_000, clock);
  const heloName = options.heloName ?? os.hostname();
  const servers = (options.dnsServers ?? dns.getServers()).map(parseDnsServer);
  const lower = (list: string[] | undefined): Set<string> => new Set((list ?? []).map((e) => e.trim().toLowerCase()));
  return {
    dns: { servers, timeoutMs: timeouts.dnsMs, cache },
    heloName,
    mailFrom: options.mailFrom ?? `verify@${heloName}`,
    smtpPort: options.smtpPort ?? 25,
    timeouts,
    schedule: options.greylistSchedule ?? DEFAULT_GREYLIST_SCHEDULE[mode],
    gibberishThreshold: options.gibberishThreshold ?? 'high',
    allow: lower(options.wbList?.allow),
    block: lower(options.wbList?.block),
    cache,
    clock,
    sleep: options.sleep ?? sleepReal,
    dial: options.dial ?? dialTcp,
    perHostConcurrency: Math.max(1, options.perHostConcurrency ?? 3),
  };
}

function makeRandomLocal(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  const bytes = randomBytes(14);
  let out = '';
  for (const b of bytes) out += alphabet[b % alphabet.length];
  return `zq${out}`;
}

/**
 * The verification engine. One instance shares caches, per-host gates and idle SMTP sessions between
 * verifications; `verifyEmail` uses a short-lived one, `verifyMany` one for the whole stream.
 */
export class VerifierEngine {
  readonly options: TResolvedOptions;
  private readonly gates = new Map<string, HostGate>();

  constructor(options: TVerifyOptions) {
    this.options = resolveOptions(options);
  }

  /** Verifications currently waiting for a slot at a mail host (they hold no SMTP session). */
  parked = 0;
  /** Called whenever `parked` changes (verifyMany uses it to pull more input while others wait on a slow host). */
  onParkedChange: (() => void) | null = null;

  private setParked(delta: number): void {
    this.parked += delta;
    this.onParkedChange?.();
  }

  private getGate(key: string): HostGate {
    let gate = this.gates.get(key);
    if (!gate) {
      gate = new HostGate(this.options.perHostConcurrency, this.options.sleep);
      this.gates.set(key, gate);
    }
    return gate;
  }

  async close(): Promise<void> {
    await Promise.all([...this.gates.values()].map((g) => g.closeAll()));
  }

  /** Verify one address; never throws (unexpected failures become unknown / smtp_error). */
  async verify(email: string): Promise<TVerificationResult> {
    const { clock } = this.options;
    const start = clock.now();
    const run: TRun = { transcript: [], start, deadline: start + this.options.timeouts.totalMs };
    const parsed = parseAddress(email);
    const local = parsed.local;
    const domain = parsed.ok ? parsed.domain : parsed.domain.toLowerCase();
    const flags = {
      disposable: domain ? checkDisposable(domain) : false,
      free: domain ? checkFreeProvider(domain) : false,
      role: local ? checkRoleAccount(local) : false,
      gibberish: local ? checkGibberish(local, this.options.gibberishThreshold) : false,
    };
    let outcome: TOutcome;
    let mxHost: string | null = null;
    let greylistCount = 0;
    let suggestion: string | null = null;
    try {
      if (!parsed.ok) {
        outcome = { status: 'invalid', reason: 'invalid_syntax', text: `Invalid syntax: ${parsed.error}.` };
      } else {
        const listed = this.checkUserList(parsed.address, parsed.domain);
        if (listed) outcome = listed;
        else {
          const routing = await resolveMailRouting(this.options.dns, parsed.domain);
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

  private checkUserList(address: string, domain: string): TOutcome | null {
    const { allow, block } = this.options;
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

  /** SMTP stage: attempts with MX failover, greylisting retries on the schedule, new sessions after 452. */
  private async probe(
    run: TRun,
    hosts: TMailHost[],
    address: string,
    domain: string,
    smtputf8: boolean,
  ): Promise<{ outcome: TOutcome; greylistCount: number; mxHost: string | null }> {
    const { clock, sleep, schedule } = this.options;
    const randomAddress = `${makeRandomLocal()}@${domain}`;
    let greylistCount = 0;
    let scheduleIndex = 0;
    let newSessionRetries = 0;
    for (;;) {
      const knownCatchAll = await this.getCatchAll(domain);
      const attempt = await this.attempt(run, hosts, address, knownCatchAll === null ? randomAddress : null, smtputf8);
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
      if (why === 'greylisted') greylistCount++;
      const delay = schedule[scheduleIndex++];
      const reason: TReasonCode = why === 'greylisted' ? 'greylisted' : 'service_unavailable';
      const lastText = attempt.replyText;
      if (delay === undefined || clock.now() + delay > run.deadline) {
        // An accepted recipient whose catch-all probe never got a final answer is still a confirmed mailbox.
        if (attempt.type === 'answer' && attempt.rcpt.kind === 'accepted') return { outcome: { status: 'valid', reason: 'valid_mailbox' }, greylistCount, mxHost };
        return { outcome: { status: 'unknown', reason, text: `${REASON_TEXTS[reason]} Last reply: ${lastText}` }, greylistCount, mxHost };
      }
      await sleep(delay);
    }
  }

  /** Final outcome from an answered attempt, or null when it must be retried (temporary replies). */
  private async judge(attempt: Extract<TAttempt, { type: 'answer' }>, domain: string, knownCatchAll: boolean | null): Promise<TOutcome | null> {
    const { rcpt, probe, replyText } = attempt;
    const withReply = (reason: TReasonCode): string => `${REASON_TEXTS[reason]} Server reply: ${replyText}`;
    switch (rcpt.kind) {
      case 'rejected':
        return { status: 'invalid', reason: rcpt.reason, text: withReply(rcpt.reason) };
      case 'blocked':
        return { status: 'unknown', reason: 'verifier_blocked', text: withReply('verifier_blocked') };
      case 'error':
        return { status: 'unknown', reason: 'smtp_error', text: withReply('smtp_error') };
      case 'accepted': {
        if (knownCatchAll !== null) return knownCatchAll ? { status: 'catch_all', reason: 'accept_all' } : { status: 'valid', reason: 'valid_mailbox' };
        if (!probe) return { status: 'valid', reason: 'valid_mailbox' };
        if (probe.kind === 'accepted') {
          await this.options.cache.set(`smtp:catchall:${domain}`, true, CATCH_ALL_TTL_MS);
          return { status: 'catch_all', reason: 'accept_all' };
        }
        if (probe.kind === 'rejected' || probe.kind === 'blocked' || probe.kind === 'error') {
          await this.options.cache.set(`smtp:catchall:${domain}`, false, CATCH_ALL_TTL_MS);
          return { status: 'valid', reason: 'valid_mailbox' };
        }
        return null; // the probe was deferred: retry to learn whether the domain accepts all
      }
      default:
        return null;
    }
  }

  private async openSession(run: TRun, host: TMailHost, address: string): Promise<SmtpSession> {
    const { timeouts, heloName, dial, smtpPort } = this.options;
    const sink = this.makeSink(run);
    const { session, greeting } = await SmtpSession.open({
      address,
      port: smtpPort,
      serverName: host.exchange,
      heloName,
      dial,
      connectMs: timeouts.connectMs,
      replyMs: timeouts.replyMs,
      deadline: Date.now() + Math.max(1, run.deadline - this.options.clock.now()),
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
      return session;
    } catch (error) {
      session.close();
      throw error;
    }
  }

  private makeSink(run: TRun): (direction: 'C' | 'S', line: string) => void {
    return (direction, line) => run.transcript.push({ at_ms: Math.max(0, this.options.clock.now() - run.start), direction, line });
  }

  /** One pass over the MX hosts in preference order until one gives an answer. */
  private async attempt(run: TRun, hosts: TMailHost[], address: string, randomAddress: string | null, smtputf8: boolean): Promise<TAttempt> {
    let last: TAttempt = { type: 'failed', reason: 'connection_failed', host: hosts[0] ?? null, text: REASON_TEXTS.connection_failed };
    for (const host of hosts) {
      for (const ip of host.addresses.slice(0, 2)) {
        if (this.options.clock.now() >= run.deadline) return { type: 'failed', reason: 'smtp_timeout', host, text: 'The total time allowed for this verification ran out.' };
        const result = await this.attemptHost(run, host, ip, address, randomAddress, smtputf8);
        // Fail over to the next address / MX host on refused or timed-out connections and on 421-style unavailability.
        const failover =
          (result.type === 'failed' && (result.reason === 'smtp_timeout' || result.reason === 'connection_failed')) ||
          (result.type === 'retry' && result.why === 'service_unavailable');
        if (!failover) return result;
        last = result;
      }
    }
    return last;
  }

  private async attemptHost(run: TRun, host: TMailHost, ip: string, address: string, randomAddress: string | null, smtputf8: boolean): Promise<TAttempt> {
    const key = `${ip}:${this.options.smtpPort}`;
    const gate = this.getGate(key);
    if (gate.isDown(Date.now())) {
      return { type: 'failed', reason: gate.downReason, host, text: `${REASON_TEXTS[gate.downReason]} (${host.exchange} failed repeatedly and is paused.)` };
    }
    this.setParked(+1);
    try {
      await gate.acquire();
    } finally {
      this.setParked(-1);
    }
    if (gate.isDown(Date.now())) {
      gate.release();
      return { type: 'failed', reason: gate.downReason, host, text: `${REASON_TEXTS[gate.downReason]} (${host.exchange} failed repeatedly and is paused.)` };
    }
    let session: SmtpSession | null = null;
    let reused = false;
    try {
      for (let tries = 0; tries < 2; tries++) {
        session = gate.takeIdle();
        reused = session !== null;
        if (session) session.sink = this.makeSink(run);
        else {
          try {
            session = await this.openSession(run, host, ip);
          } catch (error) {
            return this.describeOpenFailure(gate, host, error);
          }
        }
        try {
          const result = await this.transact(session, gate, host, address, randomAddress, smtputf8);
          if (result.type === 'answer') gate.reward();
          else if (result.type === 'retry' && (result.why !== 'greylisted' || isLoadDeferral(result.replyText))) gate.penalize();
          return result;
        } catch (error) {
          session.close();
          session = null;
          // A reused session may have been closed by the server while idle: try once more on a fresh one.
          if (reused && error instanceof SmtpFailure && error.kind === 'connection_lost') continue;
          if (error instanceof SmtpFailure) {
            const reason: TReasonCode = error.kind === 'timeout' ? 'smtp_timeout' : 'connection_failed';
            if (error.kind === 'timeout' && !error.clipped) gate.recordConnectFailure('smtp_timeout', Date.now());
            return { type: 'failed', reason, host, text: `${REASON_TEXTS[reason]} ${error.message}.` };
          }
          throw error;
        }
      }
      return { type: 'failed', reason: 'connection_failed', host, text: REASON_TEXTS.connection_failed };
    } finally {
      if (session && !session.closed) {
        session.uses++;
        session.sink = undefined;
        if (session.uses < MAX_SESSION_USES && session.recipients + 2 <= gate.maxRecipients) gate.putIdle(session);
        else void session.quit();
      }
      gate.release();
    }
  }

  private describeOpenFailure(gate: HostGate, host: TMailHost, error: unknown): TAttempt {
    if (error instanceof GreetingRefused) {
      const cls = classifyReply(error.reply);
      const text = error.reply.lines.join(' ');
      if (cls.kind === 'blocked') return { type: 'failed', reason: 'verifier_blocked', host, text: `${REASON_TEXTS.verifier_blocked} Server reply: ${text}` };
      if (error.reply.code >= 400 && error.reply.code < 500) {
        gate.penalize();
        return { type: 'retry', why: 'service_unavailable', host, replyText: text };
      }
      return { type: 'failed', reason: 'smtp_error', host, text: `${REASON_TEXTS.smtp_error} Server reply: ${text}` };
    }
    if (error instanceof SmtpFailure) {
      const reason: TReasonCode = error.kind === 'timeout' ? 'smtp_timeout' : 'connection_failed';
      if (!error.clipped) gate.recordConnectFailure(reason === 'smtp_timeout' ? 'smtp_timeout' : 'connection_failed', Date.now());
      return { type: 'failed', reason, host, text: `${REASON_TEXTS[reason]} ${error.message}.` };
    }
    throw error;
  }

  /** MAIL FROM, RCPT TO the address (and the random address), RSET. Throws SmtpFailure on transport problems. */
  private async transact(session: SmtpSession, gate: HostGate, host: TMailHost, address: string, randomAddress: string | null, smtputf8: boolean): Promise<TAttempt> {
    if (smtputf8 && !session.extensions.has('SMTPUTF8')) {
      return { type: 'failed', reason: 'smtp_error', host, text: 'The address has a UTF-8 local part but the mail server does not support SMTPUTF8 (RFC 6531).' };
    }
    const mail = await session.command(`MAIL FROM:<${this.options.mailFrom}>${smtputf8 ? ' SMTPUTF8' : ''}`);
    const mailClass = classifyReply(mail);
    if (mailClass.kind !== 'accepted') {
      session.close();
      const text = mail.lines.join(' ');
      if (mailClass.kind === 'greylisted') return { type: 'retry', why: 'greylisted', host, replyText: text };
      if (mailClass.kind === 'unavailable' || mailClass.kind === 'too_many_recipients') return { type: 'retry', why: 'service_unavailable', host, replyText: text };
      if (mailClass.kind === 'blocked') return { type: 'failed', reason: 'verifier_blocked', host, text: `${REASON_TEXTS.verifier_blocked} Server reply: ${text}` };
      return { type: 'failed', reason: 'smtp_error', host, text: `${REASON_TEXTS.smtp_error} Server reply to MAIL FROM: ${text}` };
    }
    const rcptReply = await this.sendRcpt(session, address);
    const rcpt = classifyReply(rcptReply);
    if (rcpt.kind === 'too_many_recipients') return this.endForNewSession(session, gate, host, rcptReply);
    if (rcpt.kind === 'unavailable') {
      session.close();
      return { type: 'retry', why: 'service_unavailable', host, replyText: rcptReply.lines.join(' ') };
    }
    let probe: TReplyClass | null = null;
    if (randomAddress && (rcpt.kind === 'accepted' || rcpt.kind === 'greylisted')) {
      const probeReply = await this.sendRcpt(session, randomAddress);
      probe = classifyReply(probeReply);
      if (probe.kind === 'too_many_recipients') return this.endForNewSession(session, gate, host, probeReply);
    }
    const rset = await session.command('RSET');
    if (rset.code !== 250) session.close();
    if (rcpt.kind === 'greylisted') return { type: 'retry', why: 'greylisted', host, replyText: rcptReply.lines.join(' ') };
    return { type: 'answer', rcpt, probe, host, replyText: rcptReply.lines.join(' ') };
  }

  private async sendRcpt(session: SmtpSession, recipient: string): Promise<TSmtpReply> {
    session.recipients++;
    return session.command(`RCPT TO:<${recipient}>`);
  }

  private endForNewSession(session: SmtpSession, gate: HostGate, host: TMailHost, reply: TSmtpReply): TAttempt {
    gate.maxRecipients = Math.max(1, Math.min(gate.maxRecipients, session.recipients - 1));
    session.close();
    return { type: 'retry', why: 'new_session', host, replyText: reply.lines.join(' ') };
  }
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
