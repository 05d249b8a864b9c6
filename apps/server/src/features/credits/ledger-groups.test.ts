import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZCreditLedgerResponse, ZCreditTransactionsResponse, type TCreditTransaction } from '@verilead/contracts';
import { createTestApp, TEST_PASSWORD, type TTestApp } from '../../test/test-app';
import { chargeCredits, grantCredits, purchaseCredits } from '../../platform/credits/ledger';
import { inviteMember } from '../auth/service';

/** Issue 28: the ledger one line per job and per day of instant calls, in an order where each balance follows from the one before. */
describe('the credits ledger in lines', () => {
  let t: TTestApp;
  let owner: { token: string; userId: string; orgId: string };
  let stranger: { token: string; userId: string; orgId: string };
  let exec: { token: string; userId: string };
  const LIST = '3f5a8a4e-1111-4b7a-9c3e-000000000001';

  /** Walking from the oldest row up, each row's balance is the one before it plus its amount. */
  function expectChained(newestFirst: TCreditTransaction[]) {
    const rows = [...newestFirst].reverse();
    for (let i = 1; i < rows.length; i += 1) expect(rows[i]!.balance_after, `row ${i}`).toBe(rows[i - 1]!.balance_after + rows[i]!.amount);
  }

  beforeAll(async () => {
    t = await createTestApp();
    owner = await t.createOwner('owner@ledger-groups.test');
    stranger = await t.createOwner('stranger@ledger-groups.test');
    await inviteMember(t.deps, { ...owner, role: 'owner', sessionId: null, via: 'session' }, { email: 'exec@ledger-groups.test', name: 'Exec', role: 'analyst' });
    const setup = await t.mailedToken('exec@ledger-groups.test', '/setup_password');
    await t.call({ method: 'POST', url: '/api/v1/user/password/setup', payload: { token: setup, password: TEST_PASSWORD } });
    const l = await t.call({ method: 'POST', url: '/api/v1/user/login', payload: { email: 'exec@ledger-groups.test', password: TEST_PASSWORD } });
    exec = { token: l.body.data.token, userId: l.body.data.user.id };
    await t.db.transaction((tx) => grantCredits(tx, { orgId: owner.orgId, amount: 1000, reason: 'Top-up' }));
    // A list's chunk charges its rows in one transaction: every row has the same time.
    await t.db.transaction(async (tx) => {
      for (let i = 1; i <= 40; i += 1) {
        await chargeCredits(tx, { orgId: owner.orgId, userId: owner.userId, amount: 1, reason: 'Bulk verification', sourceAgent: 'bulk_verify', objectType: 'verify_list_email', objectId: `${LIST}:${i}` });
      }
    });
    for (let i = 0; i < 3; i += 1) {
      await t.db.transaction((tx) => chargeCredits(tx, { orgId: owner.orgId, userId: exec.userId, amount: 1, reason: 'Instant verification', sourceAgent: 'instant_verify', objectType: 'email', objectId: `e${i}` }));
    }
    await t.db.transaction((tx) => purchaseCredits(tx, { orgId: owner.orgId, userId: owner.userId, amount: 500, reason: 'Purchase INV-000001', objectType: 'payment', objectId: 'p1' }));
    await t.db.transaction(async (tx) => {
      for (let i = 41; i <= 45; i += 1) {
        await chargeCredits(tx, { orgId: owner.orgId, userId: owner.userId, amount: 1, reason: 'Bulk verification', sourceAgent: 'bulk_verify', objectType: 'verify_list_email', objectId: `${LIST}:${i}` });
      }
    });
  });
  afterAll(async () => {
    await t.close();
  });

  it('lists rows written in the same instant in the order written, so the balance column follows from row to row', async () => {
    const res = await t.call({ method: 'GET', url: '/api/v1/user/credits_and_limits/transactions?page=1&limit=100', token: owner.token });
    const rows = ZCreditTransactionsResponse.parse(res.body).data.items;
    expect(rows).toHaveLength(1 + 1 + 40 + 3 + 1 + 5);
    expectChained(rows);
    expect(rows[0]).toMatchObject({ object_id: `${LIST}:45`, balance_after: 100 + 1000 - 40 - 3 + 500 - 5 });
  });

  it('answers one line per job (its total, all its rows) and one per day and source for instant calls, paged on lines', async () => {
    const res = await t.call({ method: 'GET', url: '/api/v1/user/credits_and_limits/ledger?page=1&limit=25', token: owner.token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const lines = ZCreditLedgerResponse.parse(res.body).data;
    // The list's line is as new as its newest row: above the purchase its first rows came before.
    expect(lines.items.map((l) => [l.group, l.kind, l.amount, l.count, l.balance_after])).toEqual([
      ['job', 'charge', -45, 45, 1552],
      ['single', 'purchase', 500, 1, 1557],
      ['day', 'charge', -3, 3, 1057],
      ['single', 'grant', 1000, 1, 1100],
      ['single', 'grant', 100, 1, 100],
    ]);
    expect(lines.total).toBe(5);
    expect(lines.items[0]).toMatchObject({ job_id: LIST, source_agent: 'bulk_verify', reason: 'Bulk verification' });
    expect(lines.items[2]).toMatchObject({ source_agent: 'instant_verify', day: new Date().toISOString().slice(0, 10), user_name: 'Exec' });
    const second = ZCreditLedgerResponse.parse((await t.call({ method: 'GET', url: '/api/v1/user/credits_and_limits/ledger?page=2&limit=25', token: owner.token })).body).data;
    expect(second.items).toEqual([]);

    const job = await t.call({ method: 'GET', url: `/api/v1/user/credits_and_limits/ledger/rows?key=${encodeURIComponent(lines.items[0]!.key)}&limit=50`, token: owner.token });
    const jobRows = ZCreditTransactionsResponse.parse(job.body).data;
    expect(jobRows.total).toBe(45);
    expect(jobRows.items.map((r) => r.object_id)).toEqual(Array.from({ length: 45 }, (_, i) => `${LIST}:${45 - i}`));
    expectChained(jobRows.items.slice(5)); // the first 40, written together
  });

  it('walls the lines off: an executive sees their own, another organisation nothing', async () => {
    const mine = ZCreditLedgerResponse.parse((await t.call({ method: 'GET', url: '/api/v1/user/credits_and_limits/ledger', token: exec.token })).body).data;
    expect(mine.items.map((l) => [l.group, l.count])).toEqual([['day', 3]]);
    const owners = ZCreditLedgerResponse.parse((await t.call({ method: 'GET', url: '/api/v1/user/credits_and_limits/ledger', token: owner.token })).body).data;
    const other = await t.call({ method: 'GET', url: `/api/v1/user/credits_and_limits/ledger/rows?key=${encodeURIComponent(owners.items[0]!.key)}`, token: stranger.token });
    expect(ZCreditTransactionsResponse.parse(other.body).data.total).toBe(0);
    const empty = await t.call({ method: 'GET', url: '/api/v1/user/credits_and_limits/ledger/rows?key=', token: owner.token });
    expect(empty.status).toBe(400);
    expect(empty.body.error.message).toBe('Please choose a ledger line.');
  });
});
