import { describe, expect, it } from 'vitest';
import { computeVerdict, type TVerdictInput } from './verdict';

const base: TVerdictInput = { status: 'valid', reason: 'valid_mailbox', disposable: false, free: false, role: false, gibberish: false, greylistCount: 0, provider: null };

describe('computeVerdict', () => {
  it('a clean valid mailbox is safe with a high score', () => {
    const v = computeVerdict(base);
    expect(v.safe_to_send).toBe('yes');
    expect(v.deliverability_score).toBe(0.95);
    expect(v.ai_verdict).toMatch(/^Deliverable/);
  });
  it('role and gibberish make a valid mailbox risky and lower the score', () => {
    const role = computeVerdict({ ...base, role: true });
    expect(role.safe_to_send).toBe('risky');
    expect(role.deliverability_score).toBe(0.76);
    const gib = computeVerdict({ ...base, gibberish: true });
    expect(gib.safe_to_send).toBe('risky');
    expect(gib.deliverability_score).toBeLessThan(role.deliverability_score);
  });
  it('disposable is never safe', () => {
    const v = computeVerdict({ ...base, status: 'catch_all', reason: 'accept_all', disposable: true });
    expect(v.safe_to_send).toBe('no');
    expect(v.deliverability_score).toBe(0.12);
  });
  it('free accounts and greylisting history lower the score slightly but stay safe', () => {
    const v = computeVerdict({ ...base, free: true, greylistCount: 2 });
    expect(v.safe_to_send).toBe('yes');
    expect(v.deliverability_score).toBe(Math.round(0.95 * 0.97 * 0.95 * 100) / 100);
  });
  it('invalid is never safe; a full mailbox keeps a small score', () => {
    expect(computeVerdict({ ...base, status: 'invalid', reason: 'mailbox_not_found' })).toMatchObject({ safe_to_send: 'no', deliverability_score: 0 });
    expect(computeVerdict({ ...base, status: 'invalid', reason: 'mailbox_full' })).toMatchObject({ safe_to_send: 'no', deliverability_score: 0.05 });
  });
  it('catch-all and unknown are risky', () => {
    const ca = computeVerdict({ ...base, status: 'catch_all', reason: 'accept_all', provider: 'Microsoft' });
    expect(ca.safe_to_send).toBe('risky');
    expect(ca.ai_verdict).toContain('Microsoft');
    expect(computeVerdict({ ...base, status: 'unknown', reason: 'greylisted' }).safe_to_send).toBe('risky');
  });
  it('user list entries decide alone', () => {
    expect(computeVerdict({ ...base, reason: 'allowed_by_user_list', disposable: true, role: true })).toMatchObject({ safe_to_send: 'yes', deliverability_score: 0.9 });
    expect(computeVerdict({ ...base, status: 'invalid', reason: 'blocked_by_user_list' }).safe_to_send).toBe('no');
  });
});
