import { MemoryCache, verifyEmail, verifyMany, type TVerificationResult, type TVerifyOptions } from '@verilead/verifier';
import type { TConfig } from '../../config';

/** Per-call choices that come from the user's settings. */
export type TVerifyPreferences = Pick<TVerifyOptions, 'mode' | 'gibberishThreshold' | 'wbList'>;

export type TVerifier = {
  /** Engine options built from config (DNS servers, HELO name, MAIL FROM, SMTP port, shared cache). */
  options: TVerifyOptions;
  verify(address: string, prefs?: TVerifyPreferences): Promise<TVerificationResult>;
  verifyMany(addresses: Iterable<string> | AsyncIterable<string>, prefs?: TVerifyPreferences & { concurrency?: number }): AsyncGenerator<TVerificationResult>;
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

/** The process's verifier for this configuration (one DNS and catch-all cache shared by every call). */
export function getVerifier(config: TConfig): TVerifier {
  const existing = verifiers.get(config);
  if (existing) return existing;
  const options: TVerifyOptions = { ...buildVerifierOptions(config), cache: new MemoryCache(50_000) };
  const verifier: TVerifier = {
    options,
    verify: (address, prefs = {}) => verifyEmail(address, { ...options, ...prefs }),
    verifyMany: (addresses, prefs = {}) => verifyMany(addresses, { ...options, ...prefs }),
  };
  verifiers.set(config, verifier);
  return verifier;
}
