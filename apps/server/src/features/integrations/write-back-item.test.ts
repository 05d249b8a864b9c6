import { describe, expect, it } from 'vitest';
import { toWriteBackItem } from './write-back';

const member = { remoteId: 'c1', email: 'ada@example.test' };
const row = (result: Record<string, unknown>, status = 'valid') => ({ seq: 1, email: member.email, status, syntax_error: false, result }) as never;

describe('the write-back item of a verified member', () => {
  it("writes safe to send as yes only for a result whose safe_to_send is 'yes', and the reason's code", () => {
    const safe = toWriteBackItem(member, row({ status: 'valid', safe_to_send: 'yes', reason: { code: 'accepted_email', text: 'Accepted' } }));
    expect(safe).toEqual({ member: { id: 'c1', email: member.email }, status: 'valid', safeToSend: true, reason: 'accepted_email', undeliverable: false });
    const risky = toWriteBackItem(member, row({ status: 'catch_all', safe_to_send: 'risky', reason: { code: 'catch_all', text: 'Catch-all' } }, 'catch_all'));
    expect(risky).toMatchObject({ safeToSend: false, reason: 'catch_all', undeliverable: false });
    const invalid = toWriteBackItem(member, row({ status: 'invalid', safe_to_send: 'no', reason: { code: 'rejected_email', text: 'Rejected' } }, 'invalid'));
    expect(invalid).toMatchObject({ safeToSend: false, reason: 'rejected_email', undeliverable: true });
  });
});
