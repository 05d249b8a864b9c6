import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantCredits } from '../../platform/credits/ledger';
import { createWorldApp, type TWorldApp } from '../email-verifier/test-support';

/** The spec's 402 flow end to end: an owner caps a member's day, the member's next verification beyond it is refused. */
describe('member daily limit through the product', () => {
  let w: TWorldApp;
  beforeAll(async () => {
    w = await createWorldApp();
  });
  afterAll(async () => {
    await w?.close();
  });

  it('refuses the charge beyond the remaining daily limit with 402 and required_credits', async () => {
    const owner = await w.t.createOwner('owner@limits.test');
    await w.t.db.transaction((tx) => grantCredits(tx, { orgId: owner.orgId, amount: 1000, reason: 'Test top-up' }));
    const add = await w.t.call({ method: 'POST', url: '/api/v1/admin/member/add', token: owner.token, payload: { email: 'exec@limits.test', role: 'analyst' } });
    const memberId = add.body.data.member.member_id as string;
    const setup = await w.t.mailedToken('exec@limits.test', '/setup_password');
    await w.t.call({ method: 'POST', url: '/api/v1/user/password/setup', payload: { token: setup, password: 'Exec-Pass-42' } });
    const token = (await w.t.call({ method: 'POST', url: '/api/v1/user/login', payload: { email: 'exec@limits.test', password: 'Exec-Pass-42' } })).body.data.token as string;

    const edit = await w.t.call({ method: 'POST', url: '/api/v1/admin/member/edit', token: owner.token, payload: { member_id: memberId, daily_remaining: 1 } });
    expect(edit.body.data.message).toBe('Member updated successfully');
    const first = await w.t.call({ method: 'POST', url: '/api/v1/email_verify/instant', token, payload: { email: 'alice@strict.test' } });
    expect(first.status).toBe(200);
    const second = await w.t.call({ method: 'POST', url: '/api/v1/email_verify/instant', token, payload: { email: 'john.smith@strict.test' } });
    expect(second.status).toBe(402);
    // a member over their own limit is told so (the organisation still has credits): never "you have exhausted your credits"
    expect(second.body.error.code).toBe('daily_limit_exceeded');
    expect(second.body.error.message).toBe('Your daily credit limit is reached. It resets at the start of the next day.');
    expect(second.body.error.additional_info).toMatchObject({ required_credits: 1, limit_type: 'daily', limit: 1, remaining: 0 });
    // the same for a list and a finder search
    const finder = await w.t.call({ method: 'POST', url: '/api/v1/email_finder/instant', token, payload: { name: 'John Smith', domain: 'strict.test' } });
    expect(finder.status).toBe(402);
    expect(finder.body.error.code).toBe('daily_limit_exceeded');
    const limits = await w.t.call({ method: 'GET', url: '/api/v1/user/credits_and_limits', token });
    expect(limits.body.data.limits.daily).toEqual({ limit: 1, used: 1, remaining: 0 });
    // the owner is not capped
    expect((await w.t.call({ method: 'POST', url: '/api/v1/email_verify/instant', token: owner.token, payload: { email: 'john.smith@strict.test' } })).status).toBe(200);
  });
});
