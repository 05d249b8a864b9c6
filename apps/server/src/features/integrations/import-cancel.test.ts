import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditTransactions } from '../../platform/credits/tables';
import { verifyLists } from '../email-verifier/tables';
import { integrationImports } from './tables';
import { connectBody, createIntegrationWorld, topUp, type TIntegrationWorld } from './test-support';

/**
 * An import (a platform list imported, verified and written back on the bulk-list kernel) is cancelled by its user as a
 * verification list is: POST /integration/imports/cancel answers it `cancelled` with the reason, nothing of it goes
 * on (no more pages, no verification charged), and what it did stays.
 */
describe('cancelling an integration import', () => {
  let world: TIntegrationWorld;
  let owner: { token: string; userId: string; orgId: string };
  let accountId: string;
  beforeAll(async () => {
    world = await createIntegrationWorld(40);
    owner = await world.w.t.createOwner('owner@import-cancel.test');
    await topUp(world.w, owner.orgId);
    const connect = await world.w.t.call({ method: 'POST', url: '/api/v1/integration/account/moosend', token: owner.token, payload: connectBody('moosend', world.fakes.moosend!, 'Moosend') });
    expect(connect.status, JSON.stringify(connect.body)).toBe(200);
    accountId = connect.body.data.id as string;
  });
  afterAll(async () => {
    await world?.close();
  });

  const call = (url: string, payload: Record<string, unknown>, token = owner.token) => world.w.t.call({ method: 'POST', url: `/api/v1${url}`, token, payload });
  const importRow = async (id: string) => (await world.w.t.db.db.select().from(integrationImports).where(eq(integrationImports.id, id)))[0]!;
  const charges = async () => (await world.w.t.db.db.select().from(creditTransactions).where(eq(creditTransactions.orgId, owner.orgId))).filter((c) => c.kind === 'charge').length;
  const start = async () => {
    const res = await call('/integration/account/moosend/verify_list', { account_id: accountId, list_id: 'list-a', write_back: { unsubscribe: true, append: true } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data.id as string;
  };

  it('stops an import mid-way through its pages: cancelled with the reason, its pages kept, nothing more read', async () => {
    const id = await start();
    // one page (7 members) read, the next queued
    expect(await world.w.t.deps.queue.runOnce()).toBe(true);
    expect((await importRow(id)).imported).toBe(7);

    const cancelled = await call('/integration/imports/cancel', { import_id: id });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect(cancelled.body.data).toMatchObject({ id, state: 'cancelled', error: 'Cancelled by the user', imported: 7, verify_list_id: null });
    await world.w.t.deps.queue.runUntilIdle({ includeDelayed: true, maxJobs: 50 });
    expect(await importRow(id)).toMatchObject({ state: 'cancelled', error: 'Cancelled by the user', imported: 7 });
    expect(await charges()).toBe(0);

    // once ended it cannot be cancelled again; an unknown import is not found
    const again = await call('/integration/imports/cancel', { import_id: id });
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe('Only an import still running can be cancelled');
    expect((await call('/integration/imports/cancel', { import_id: '00000000-0000-4000-8000-000000000000' })).status).toBe(404);
    const shown = await world.w.t.call({ method: 'GET', url: '/api/v1/integration/imports', token: owner.token });
    expect(shown.body.data.items.find((i: { id: string }) => i.id === id)).toMatchObject({ state: 'cancelled', error: 'Cancelled by the user' });
  });

  it('stops an import while its list is being verified: the verification is cancelled too and nothing more is charged', async () => {
    const id = await start();
    const queue = world.w.t.deps.queue;
    // work job by job until the verifier list's verification has started (its plan not yet split into chunks)
    let listState: string | undefined;
    for (let i = 0; i < 60 && listState !== 'in_progress'; i += 1) {
      expect(await queue.runOnce({ includeDelayed: true })).toBe(true);
      const row = await importRow(id);
      listState = (await world.w.t.db.db.select().from(verifyLists).where(eq(verifyLists.id, row.verifyListId)))[0]?.state;
    }
    expect(listState).toBe('in_progress');
    const before = await charges();

    const cancelled = await call('/integration/imports/cancel', { import_id: id });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect(cancelled.body.data).toMatchObject({ id, state: 'cancelled', error: 'Cancelled by the user', imported: 40, written_back: 0 });
    await queue.runUntilIdle({ includeDelayed: true, maxJobs: 50 });
    const row = await importRow(id);
    expect(row).toMatchObject({ state: 'cancelled', writtenBack: 0 });
    const list = (await world.w.t.db.db.select().from(verifyLists).where(eq(verifyLists.id, row.verifyListId)))[0]!;
    expect(list).toMatchObject({ state: 'cancelled', stoppedReason: 'Cancelled by the user' });
    expect(await charges()).toBe(before);
    expect(world.fakes.moosend!.writes).toHaveLength(0);
  });
});
