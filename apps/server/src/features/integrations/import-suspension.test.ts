import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperatorLink } from '../ops-console/operator-auth';
import { listImports } from './import-views';
import { integrationImports } from './tables';
import { connectBody, createIntegrationWorld, runImport, topUp, type TIntegrationWorld } from './test-support';

/**
 * An import (a source chain on the bulk-list kernel) of an organisation an operator suspends waits where it is: no
 * further page is read from the platform, the import shows why it waits, and once restored it goes on and completes.
 */
describe('an integration import of a suspended organisation', () => {
  let world: TIntegrationWorld;
  let opToken: string;
  beforeAll(async () => {
    world = await createIntegrationWorld(40);
    const link = await createOperatorLink(world.w.t.deps, { email: 'ops@import-suspension.test', invitedBy: null });
    const set = await world.w.t.call({ method: 'POST', url: '/api/v1/ops/session/set_password', payload: { token: new URL(link.url).searchParams.get('token')!, password: 'Operator-Pass-1' } });
    opToken = set.body.data.token as string;
  });
  afterAll(async () => {
    await world?.close();
  });

  it('waits with its cursor while suspended, says why, and completes once restored', async () => {
    const owner = await world.w.t.createOwner('owner@import-suspension.test');
    await topUp(world.w, owner.orgId);
    const connect = await world.w.t.call({ method: 'POST', url: '/api/v1/integration/account/moosend', token: owner.token, payload: connectBody('moosend', world.fakes.moosend!, 'Moosend') });
    const start = await world.w.t.call({
      method: 'POST',
      url: '/api/v1/integration/account/moosend/verify_list',
      token: owner.token,
      payload: { account_id: connect.body.data.id, list_id: 'list-a', write_back: { unsubscribe: false, append: true } },
    });
    expect(start.status, JSON.stringify(start.body)).toBe(200);
    const id = start.body.data.id as string;
    const queue = world.w.t.deps.queue;
    expect(await queue.runOnce()).toBe(true);
    const row = async () => (await world.w.t.db.db.select().from(integrationImports).where(eq(integrationImports.id, id)))[0]!;
    expect((await row()).imported).toBe(7);

    const ops = (action: string) => world.w.t.call({ method: 'POST', url: `/api/v1/ops/orgs/${owner.orgId}/${action}`, token: opToken, payload: {} });
    expect((await ops('suspend')).status).toBe(200);
    await queue.runUntilIdle({ includeDelayed: true, maxJobs: 20 });
    expect(await row()).toMatchObject({ state: 'importing', imported: 7, pagesDone: 1 });
    const ctx = { userId: owner.userId, orgId: owner.orgId, role: 'owner' as const, sessionId: null, via: 'session' as const };
    expect((await listImports(world.w.t.db.db, ctx)).items[0]).toMatchObject({ id, state: 'importing', paused_reason: expect.stringContaining('the organisation is suspended') });

    expect((await ops('restore')).status).toBe(200);
    expect(await runImport(world, id)).toMatchObject({ state: 'completed', imported: 40, writtenBack: 40 });
    expect((await listImports(world.w.t.db.db, ctx)).items[0]).toMatchObject({ id, state: 'completed', paused_reason: null });
  });
});
