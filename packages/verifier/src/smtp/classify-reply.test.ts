import { describe, expect, it } from 'vitest';
import { classifyReply, getUnknownReason, isDirectoryMiss, parseEnhancedCode, type TReplyClass } from './classify-reply';

function reply(line: string) {
  const code = Number(line.slice(0, 3));
  const text = line.slice(4);
  return { code, enhanced: parseEnhancedCode(text), text, lines: [line] };
}

const TABLE: Array<[string, TReplyClass]> = [
  // enhanced status codes first (RFC 3463)
  ['250 2.1.5 Ok', { kind: 'accepted' }],
  ['251 2.1.5 User not local; will forward', { kind: 'accepted' }],
  ['550 5.1.1 <x@strict.test>: Recipient address rejected: User unknown in virtual mailbox table', { kind: 'rejected', reason: 'mailbox_not_found' }],
  ['550 5.1.0 Address rejected', { kind: 'rejected', reason: 'mailbox_not_found' }],
  ["550-5.1.1 The email account that you tried to reach does not exist.", { kind: 'rejected', reason: 'mailbox_not_found' }],
  ['550 5.2.1 The email account that you tried to reach is disabled.', { kind: 'rejected', reason: 'mailbox_disabled' }],
  ['552 5.2.2 Mailbox full', { kind: 'rejected', reason: 'mailbox_full' }],
  ['452 4.2.2 The email account that you tried to reach is over quota', { kind: 'rejected', reason: 'mailbox_full' }],
  ['550 5.7.1 Service unavailable; client [1.2.3.4] blocked using Spamhaus', { kind: 'blocked' }],
  ['554 5.7.1 <x@y>: Relay access denied', { kind: 'blocked' }],
  ['530 5.7.0 Must issue a STARTTLS command first', { kind: 'blocked' }],
  ['550 5.7.606 Access denied, banned sending IP', { kind: 'blocked' }],
  ['553 5.1.8 Sender address rejected: Domain not found', { kind: 'blocked' }],
  // the verifier's HELO name, sender domain or reverse DNS refused (Postfix's reject_unknown_* at their default 450,
  // Exim's sender verification): a block of the verifier, not greylisting to wait out
  ['450 4.7.1 <verifier.verilead.test>: Helo command rejected: Host not found', { kind: 'blocked' }],
  ['450 4.1.8 <probe@verilead.test>: Sender address rejected: Domain not found', { kind: 'blocked' }],
  ['450 4.7.1 Client host rejected: cannot find your hostname, [1.2.3.4]', { kind: 'blocked' }],
  ['451 Could not complete sender verify', { kind: 'blocked' }],
  // Exim's `require verify = sender`, refused for good: its text names an unroutable address, but it is the sender's
  ['550 Verification failed for <probe@verilead.test> Unrouteable address Sender verify failed', { kind: 'blocked' }],
  ['550 5.7.1 <verifier.verilead.test>: Helo command rejected: Host not found', { kind: 'blocked' }],
  ['450 4.7.1 Client host rejected: Greylisted, see https://example.test/greylisting', { kind: 'greylisted' }],
  ['451 4.7.1 Recipient address rejected: Greylisted, try again in 60 seconds', { kind: 'greylisted' }],
  ['450 4.2.0 Recipient address rejected: Greylisted', { kind: 'greylisted' }],
  ['451 4.3.0 Temporary lookup failure', { kind: 'greylisted' }],
  ['452 4.5.3 Too many recipients', { kind: 'too_many_recipients' }],
  ['452 4.5.3 Your message has too many recipients', { kind: 'too_many_recipients' }],
  ['450 4.4.2 Connection dropped', { kind: 'unavailable' }],
  ['421 4.7.0 Try again later, closing connection', { kind: 'unavailable' }],
  ['421 Service not available', { kind: 'unavailable' }],
  // an enhanced code whose class disagrees with the basic code is ignored
  ['550 2.0.0 weird', { kind: 'rejected', reason: 'mailbox_not_found' }],
  // basic codes and text when no enhanced code is given
  ['550 No such user here', { kind: 'rejected', reason: 'mailbox_not_found' }],
  ['550 User unknown', { kind: 'rejected', reason: 'mailbox_not_found' }],
  ['550 Requested action not taken: mailbox unavailable', { kind: 'rejected', reason: 'mailbox_not_found' }],
  ['550 Your IP is blacklisted, see spamhaus', { kind: 'blocked' }],
  ['554 Rejected by policy', { kind: 'blocked' }],
  ['550 Account disabled', { kind: 'rejected', reason: 'mailbox_disabled' }],
  ['552 Requested mail action aborted: exceeded storage allocation', { kind: 'rejected', reason: 'mailbox_full' }],
  ['551 User not local', { kind: 'rejected', reason: 'mailbox_not_found' }],
  ['450 Please try again later', { kind: 'greylisted' }],
  ['452 Too many recipients', { kind: 'too_many_recipients' }],
  ['454 TLS not available', { kind: 'unavailable' }],
  ['554 Transaction failed', { kind: 'error' }],
  // Yahoo's unknown account, and Exim's `deny` without a message of its own (a policy, never a mailbox verdict)
  ["554 delivery error: dd This user doesn't have a yahoo.com account (nobody@yahoo.com) [0] - mta1001.mail.bf1.yahoo.com", { kind: 'rejected', reason: 'mailbox_not_found' }],
  ['550 Administrative prohibition', { kind: 'blocked' }],
  ['500 Syntax error, command unrecognised', { kind: 'error' }],
  ['503 Bad sequence of commands', { kind: 'error' }],
];

describe('classifyReply', () => {
  it.each(TABLE)('%s', (line, expected) => {
    expect(classifyReply(reply(line))).toEqual(expected);
  });

  it('never turns a 5.7.x policy rejection into a mailbox rejection by itself: worded per recipient, it is left to the session', () => {
    expect(classifyReply(reply('550 5.7.1 User unknown'))).toEqual({ kind: 'denied' });
    expect(classifyReply(reply('550 5.7.1 Client host [1.2.3.4] blocked: User unknown'))).toEqual({ kind: 'blocked' });
  });

  it('5.4.1 "Access denied" (Microsoft 365 edge blocking) and per-recipient 5.7.x texts are denials judged against the session', () => {
    expect(classifyReply(reply('550 5.4.1 Recipient address rejected: Access denied. For more information see https://aka.ms/EXOSmtpErrors [BN8NAM11FT066.eop-nam11.prod.protection.outlook.com]'))).toEqual({ kind: 'denied' });
    expect(classifyReply(reply('550 5.7.1 <x@y.test>: Recipient address rejected: Access denied'))).toEqual({ kind: 'denied' });
    expect(classifyReply(reply('550 5.7.1 No such user here'))).toEqual({ kind: 'denied' });
    expect(getUnknownReason('denied')).toBe('verifier_blocked');
  });

  it("Exchange Online's 5.4.1 Recipient address rejected is a directory miss; 5.7.x denials and sender blocks are not", () => {
    expect(isDirectoryMiss(reply('550 5.4.1 Recipient address rejected: Access denied. For more information see https://aka.ms/EXOSmtpErrors [BN8NAM11FT066.eop-nam11.prod.protection.outlook.com]'))).toBe(true);
    expect(isDirectoryMiss(reply('550 5.7.1 <x@y.test>: Recipient address rejected: Access denied'))).toBe(false);
    expect(isDirectoryMiss(reply('550 5.7.606 Access denied, banned sending IP [203.0.113.9]'))).toBe(false);
    expect(isDirectoryMiss(reply('550 5.4.1 Recipient address rejected: Access denied, client host blocked'))).toBe(false);
    expect(isDirectoryMiss(reply('450 4.4.1 Recipient address rejected: try later'))).toBe(false);
  });
});

describe('parseEnhancedCode', () => {
  it('reads x.y.z at the start of the text only', () => {
    expect(parseEnhancedCode('5.1.1 User unknown')).toBe('5.1.1');
    expect(parseEnhancedCode('4.7.606 Access denied')).toBe('4.7.606');
    expect(parseEnhancedCode('User unknown 5.1.1')).toBeNull();
    expect(parseEnhancedCode('3.1.1 nope')).toBeNull();
  });
});

describe('getUnknownReason', () => {
  it('maps non-final classes to unknown reasons', () => {
    expect(getUnknownReason('blocked')).toBe('verifier_blocked');
    expect(getUnknownReason('greylisted')).toBe('greylisted');
    expect(getUnknownReason('too_many_recipients')).toBe('service_unavailable');
    expect(getUnknownReason('unavailable')).toBe('service_unavailable');
    expect(getUnknownReason('error')).toBe('smtp_error');
  });
});
