import { MemoryCache, VerifierEngine, type TVerificationResult, type TVerifyOptions } from '@verilead/verifier';
import type { TConfig } from '../../config';

/** Per-call choices that come from the user's settings. */
export type TVerifyPreferences = Pick<TVerifyOptions, 'mode' | 'gibberishThreshold' | 'wbList'>;

export type TVerifier = {
  /** Engine options built from config (DNS servers, HELO name, MAIL FROM, SMTP port, shared cache). */
  options: TVerifyOptions;
  /** The process's one engine: every instant check, bulk job and finder search goes through it. */
  engine: VerifierEngine;
  verify(address: string, prefs?: TVerifyPreferences & { signal?: AbortSignal }): Promise<TVerificationResult>;
  verifyMany(
    addresses: Iterable<string> | AsyncIterable<string>,
    prefs?: TVerifyPreferences & { concurrency?: number; signal?: AbortSignal },
  ): AsyncGenerator<TVerificationResult>;
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

const verifiers = new WeakMap<TConfig, TVerifier>();

/**
 * The process's verifier for this configuration (the composition root builds it once): one engine, so the
 * per-mail-host session limits and back-off, the warm SMTP sessions and the DNS and catch-all caches hold for the
 * whole process; the user's mode, gibberish threshold and allow/block list go with each call.
 */
export function getVerifier(config: TConfig): TVerifier {
  const existing = verifiers.get(config);
  if (existing) return existing;
  const options: TVerifyOptions = { ...buildVerifierOptions(config), cache: new MemoryCache(50_000) };
  const engine = new VerifierEngine(options);
  const verifier: TVerifier = {
    options,
    engine,
    verify: (address, prefs = {}) => engine.verify(address, prefs),
    verifyMany: (addresses, prefs = {}) => engine.verifyMany(addresses, prefs),
  };
  verifiers.set(config, verifier);
  return verifier;
}
