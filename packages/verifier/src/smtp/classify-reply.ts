import type { TReasonCode } from '../types';

export type TSmtpReply = {
  code: number;
  /** RFC 3463 enhanced status code such as '5.1.1', when the server sent one. */
  enhanced: string | null;
  /** Text of all lines joined with spaces, codes removed. */
  text: string;
  lines: string[];
};

/**
 * What a reply means for the recipient probed:
 * - accepted: 2xx;
 * - rejected: the mailbox does not take mail (invalid, with the reason);
 * - blocked: a policy / reputation rejection of the verifier itself (unknown: verifier_blocked, never invalid);
 * - denied: a permanent rejection worded per recipient but coded as policy (Microsoft 365's edge blocking
 *   `550 5.4.1 Recipient address rejected: Access denied`, `5.7.1 … Recipient address rejected`, `5.7.1 User
 *   unknown`): either the recipient does not exist or the verifier is blocked. The engine judges it against the
 *   session: the same reply to a known-good recipient (postmaster) means a block, an acceptance means the
 *   recipient does not exist;
 * - greylisted: temporary failure worth retrying on the greylisting schedule;
 * - too_many_recipients: 452 / x.5.3, retry this recipient on a new session;
 * - unavailable: 421 and other temporary failures of the service (fail over / back off);
 * - error: anything unclassifiable (unknown: smtp_error).
 */
export type TReplyClass =
  | { kind: 'accepted' }
  | { kind: 'rejected'; reason: 'mailbox_not_found' | 'mailbox_disabled' | 'mailbox_full' }
  | { kind: 'blocked' }
  | { kind: 'denied' }
  | { kind: 'greylisted' }
  | { kind: 'too_many_recipients' }
  | { kind: 'unavailable' }
  | { kind: 'error' };

// "administrative prohibition": Exim's words for a `deny` in an ACL that gives no message of its own
const POLICY_WORDS = /\b(block(ed|list)?|blacklist(ed)?|spam(haus)?|policy|reputation|rbl|dnsbl|denied|refused|banned|abuse|not allowed to send|client host|your ip|relay|administrative prohibition)/i;
const UNKNOWN_USER_WORDS = /(user unknown|unknown user|no such (user|mailbox|recipient|account)|doesn't have an? [\w.-]+ account|does not exist|doesn't exist|not exist|mailbox (unavailable|not found)|recipient (unknown|not found|rejected|address rejected)|invalid (recipient|mailbox|address)|address rejected|unrouteable|not found|no mailbox)/i;
/** Words that put the refusal on the client (its IP, name or reputation) rather than on the recipient. */
const CLIENT_BLOCK_WORDS = /\b(client host|blocked using|spamhaus|blacklist(ed)?|blocklist(ed)?|reputation|rbl|dnsbl|your ip|banned|relay|sender|helo|reverse dns|ptr)/i;
/** A rejection worded per recipient (an unknown user, or access to this recipient denied). */
const PER_RECIPIENT_WORDS = /(recipient address rejected|access denied|user unknown|unknown user|no such (user|mailbox|recipient)|does not exist|recipient not found|mailbox unavailable)/i;
const DISABLED_WORDS = /(disabled|deactivated|inactive|suspended|no longer active|account (is )?locked)/i;
const FULL_WORDS = /(mailbox (is )?full|over quota|quota exceeded|exceeded storage|insufficient storage)/i;

/** Parse the enhanced status code at the start of a reply text ('5.1.1 User unknown'). */
export function parseEnhancedCode(text: string): string | null {
  const match = /^([245])\.(\d{1,3})\.(\d{1,3})(?=\s|$)/.exec(text.trim());
  return match ? `${match[1]}.${match[2]}.${match[3]}` : null;
}

function classifyEnhanced(enhanced: string): TReplyClass | null {
  const [cls, subject, detail] = enhanced.split('.').map(Number) as [number, number, number];
  if (cls === 2) return { kind: 'accepted' };
  if (cls === 5) {
    if (subject === 1) {
      if (detail === 7 || detail === 8) return { kind: 'blocked' }; // our sender address was refused
      return { kind: 'rejected', reason: 'mailbox_not_found' };
    }
    if (subject === 2) {
      if (detail === 1) return { kind: 'rejected', reason: 'mailbox_disabled' };
      if (detail === 2) return { kind: 'rejected', reason: 'mailbox_full' };
      return null;
    }
    if (subject === 7) return { kind: 'blocked' };
    if (subject === 5 && detail === 3) return { kind: 'too_many_recipients' };
    return null;
  }
  // class 4: temporary
  if (subject === 2 && detail === 2) return { kind: 'rejected', reason: 'mailbox_full' };
  if (subject === 5 && detail === 3) return { kind: 'too_many_recipients' };
  if (subject === 4) return { kind: 'unavailable' };
  if (subject === 7 || subject === 1 || subject === 2 || subject === 3) return { kind: 'greylisted' };
  return null;
}

function classifyBasic(reply: TSmtpReply): TReplyClass {
  const { code, text } = reply;
  if (code >= 200 && code < 300) return { kind: 'accepted' };
  if (code === 421) return { kind: 'unavailable' };
  if (code === 450 || code === 451) return { kind: 'greylisted' };
  if (code === 452) return FULL_WORDS.test(text) && !/recipient/i.test(text) ? { kind: 'unavailable' } : { kind: 'too_many_recipients' };
  if (code >= 400 && code < 500) return { kind: 'unavailable' };
  if (code === 530 || code === 535 || code === 538) return { kind: 'blocked' };
  if (code === 550 || code === 551 || code === 553 || code === 554) {
    if (POLICY_WORDS.test(text)) return { kind: 'blocked' };
    if (DISABLED_WORDS.test(text)) return { kind: 'rejected', reason: 'mailbox_disabled' };
    if (FULL_WORDS.test(text)) return { kind: 'rejected', reason: 'mailbox_full' };
    if (UNKNOWN_USER_WORDS.test(text) || code !== 554) return { kind: 'rejected', reason: 'mailbox_not_found' };
    return { kind: 'error' };
  }
  if (code === 552) return { kind: 'rejected', reason: 'mailbox_full' };
  return { kind: 'error' };
}

/**
 * Classify an SMTP reply to RCPT TO (also used for MAIL FROM and the greeting): by the RFC 3463 enhanced status
 * code first, when present and consistent with the basic code's class, then by the basic code and its text.
 */
export function classifyReply(reply: TSmtpReply): TReplyClass {
  if (reply.code === 421) return { kind: 'unavailable' };
  if (isIdentityRefusal(reply)) return { kind: 'blocked' };
  if (isPerRecipientDenial(reply)) return { kind: 'denied' };
  const enhanced = reply.enhanced;
  if (enhanced && enhanced[0] === String(reply.code)[0]) {
    const byEnhanced = classifyEnhanced(enhanced);
    if (byEnhanced) return byEnhanced;
  }
  return classifyBasic(reply);
}

/**
 * The verifier's own identity refused, for now: Postfix's `450 4.7.1 <name>: Helo command rejected: Host not found`
 * (reject_unknown_helo_hostname), `450 4.1.8 <addr>: Sender address rejected: Domain not found`
 * (reject_unknown_sender_domain), `450 4.7.1 Client host rejected: cannot find your hostname`
 * (reject_unknown_client_hostname), Exim's `451 Could not complete sender verify`. Temporary by default (the DNS
 * failure behind them could pass), but asked again minutes later they answer the same until the operator fixes the
 * HELO name, the sender domain or the reverse DNS: a block of the verifier (unknown: verifier_blocked), not greylisting
 * worth waiting for. Greylisting worded against the client ("Client host rejected: Greylisted") stays greylisting.
 * Permanent ones too, whatever else their text says: Exim's `550-Verification failed for <sender> 550-Unrouteable
 * address 550 Sender verify failed` (`require verify = sender` in its RCPT ACL) would otherwise read as an unknown
 * mailbox, a real mailbox called invalid. Every recipient at that host would get the same answer: the engine stops
 * asking it for a while (HostGate.refuseIdentity).
 */
export function isIdentityRefusal(reply: Pick<TSmtpReply, 'code' | 'text'>): boolean {
  if (reply.code < 400 || reply.code > 599) return false;
  if (/greylist|graylist/i.test(reply.text)) return false;
  return /(helo command rejected|sender address rejected|client host rejected|sender verify)/i.test(reply.text);
}

/**
 * 5.4.1 (Microsoft 365 directory-based edge blocking) and 5.7.x replies worded per recipient, with nothing that
 * blames the client: they may mean "no such recipient" or "you are blocked", which only the session can tell.
 */
function isPerRecipientDenial(reply: TSmtpReply): boolean {
  if (reply.code < 500 || reply.code > 599 || !reply.enhanced) return false;
  if (reply.enhanced !== '5.4.1' && !reply.enhanced.startsWith('5.7.')) return false;
  return PER_RECIPIENT_WORDS.test(reply.text) && !CLIENT_BLOCK_WORDS.test(reply.text);
}

/**
 * Exchange Online's directory-based edge blocking: `550 5.4.1 Recipient address rejected: Access denied` to RCPT, after
 * it accepted MAIL FROM, is its "no such recipient in the directory". (A tenant that blocks the sender says so with
 * 5.7.6xx at the connection or to MAIL FROM; the tenant's postmaster is often no mailbox, so it is no control here.)
 */
export function isDirectoryMiss(reply: Pick<TSmtpReply, 'code' | 'enhanced' | 'text'>): boolean {
  return reply.code >= 550 && reply.code <= 559 && reply.enhanced === '5.4.1' && /recipient address rejected/i.test(reply.text) && !CLIENT_BLOCK_WORDS.test(reply.text);
}

/**
 * A rate limit of the client's recipients or messages (Postfix's anvil `450 4.7.1 Error: too many recipients from
 * <ip>`, `452 4.5.3 Error: too many recipients`, "rate limit exceeded"): the host wants fewer recipients per unit of
 * time from us, not a retry at once.
 */
export function isRateLimitReply(reply: Pick<TSmtpReply, 'code' | 'text'>): boolean {
  return reply.code >= 400 && reply.code < 500 && /(too many (recipients|messages|mails)|rate limit|rate exceeded|throttl)/i.test(reply.text);
}

/** Reason code of an unknown verdict for a non-final class. */
export function getUnknownReason(kind: TReplyClass['kind']): TReasonCode {
  switch (kind) {
    case 'blocked':
    case 'denied':
      return 'verifier_blocked';
    case 'greylisted':
      return 'greylisted';
    case 'too_many_recipients':
    case 'unavailable':
      return 'service_unavailable';
    default:
      return 'smtp_error';
  }
}
