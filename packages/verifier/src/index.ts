// Public surface of @verilead/verifier: the email verification engine. Imports nothing of ours.
export { verifyEmail, verifyMany } from './verify';
export { VerifierEngine, DEFAULT_GREYLIST_SCHEDULE, DEFAULT_TIMEOUTS } from './engine/engine';
export type { THostView } from './engine/engine';
export { MemoryCache } from './engine/memory-cache';
export { checkProbeIdentity, describeUnpublicName } from './engine/probe-identity';
export { ERROR_BUDGET, NONMAIL_BUDGET } from './engine/session-budget';
export { computeVerdict, REASON_TEXTS, FLAG_FACTORS } from './engine/verdict';
export { parseAddress, type TParseResult, type TParsedAddress, type TParseFailure } from './syntax/parse-address';
export { checkDisposable, checkFreeProvider, checkRoleAccount } from './checks/lists';
export { scoreGibberish, checkGibberish, GIBBERISH_THRESHOLDS } from './checks/gibberish';
export { suggestTypo, measureEditDistance, KNOWN_PROVIDER_DOMAINS } from './checks/typo';
export { detectProvider } from './checks/provider';
export { normaliseForDedupe } from './checks/normalise';
export { classifyReply, parseEnhancedCode, type TSmtpReply, type TReplyClass } from './smtp/classify-reply';
export { queryDns, parseDnsServer } from './dns/dns-client';
export { resolveMailRouting, type TMailRouting, type TMailHost } from './dns/resolve-mail-hosts';
export * from './types';
