import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyLists } from '../email-verifier/tables';
import { directoryPeople, prospectListLeads, prospectLists, prospectReveals } from '../prospects/tables';
import { createIntegrationWorld, runImport, topUp, type TIntegrationWorld } from './test-support';

const LEADS = 17;

describe('the `leads` source: a prospect list imported, verified and its verdicts stored on the reveals', () => {
  let world: TIntegrationWorld;
  let owner: { token: string; orgId: string; userId: string };
  let other: { token: string; orgId: string; userId: string };
  let listId: string;
  let otherListId: string;

  /** A prospect list of `n` directory people; every one but each fifth has a revealed e-mail in `orgId`. */
  async function prospectList(who: { orgId: string; userId: string }, name: string, n: number, tag: string) {
    const db = world.w.t.db.db;
    const people = await db
      .insert(directoryPeople)
      .values(
        Array.from({ length: n }, (_, i) => ({
          externalId: `${tag}-${i}`,
          firstName: `Lead${i}`,
          lastName: tag,
          fullName: `Lead${i} ${tag}`,
          title: 'Buyer',
          seniority: 'manager',
          department: 'sales',
          country: 'US',
        })),
      )
      .returning({ id: directoryPeople.id });
    const [list] = await db.insert(prospectLists).values({ orgId: who.orgId, userId: who.userId, name, leadCount: n }).returning({ id: prospectLists.id });
    await db.insert(prospectListLeads).values(people.map((p) => ({ listId: list!.id, personId: p.id })));
    const revealed = people.filter((_, i) => i % 5 !== 4);
    await db.insert(prospectReveals).values(
      revealed.map((p, i) => ({ orgId: who.orgId, personId: p.id, field: 'email', value: i % 3 === 0 ? `missing${i}.${tag}@strict.test` : `lead${i}.${tag}@acceptall.test`, userId: who.userId })),
    );
    return { id: list!.id, revealed: revealed.length };
  }

  beforeAll(async () => {
    world = await createIntegrationWorld(0);
    owner = await world.w.t.createOwner('leads@integrations.test');
    other = await world.w.t.createOwner('leads-other@integrations.test');
    await topUp(world.w, owner.orgId);
    listId = (await prospectList(owner, 'Conference leads', LEADS, 'own')).id;
    otherListId = (await prospectList(other, 'Their leads', 4, 'theirs')).id;
  });
  afterAll(async () => {
    await world?.close();
  });
  const call = (method: 'GET' | 'POST', url: string, token: string, payload?: Record<string, unknown>) => world.w.t.call({ method, url: `/api/v1${url}`, token, ...(payload ? { payload } : {}) });

  it("lists the organisation's prospect lists with their revealed e-mails (never another organisation's)", async () => {
    const res = await call('GET', '/integration/leads/lists', owner.token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.items).toEqual([{ id: listId, name: 'Conference leads', lead_count: LEADS, email_count: 14 }]);
  });

  it("another organisation's prospect list is a 404; a malformed id a 400", async () => {
    const res = await call('POST', '/integration/leads/verify_list', owner.token, { list_id: otherListId });
    expect(res.status).toBe(404);
    expect((await call('POST', '/integration/leads/verify_list', owner.token, { list_id: 'nope' })).status).toBe(400);
  });

  it('imports the revealed e-mails through the chunked import job as a verifier list with source `leads`, verifies them and stores each verdict on its reveal', async () => {
    const start = await call('POST', '/integration/leads/verify_list', owner.token, { list_id: listId });
    expect(start.status, JSON.stringify(start.body)).toBe(200);
    expect(start.body.data).toMatchObject({ integration: 'leads', remote_list_name: 'Conference leads', total: 14, state: 'importing' });
    const row = await runImport(world, start.body.data.id);
    expect(row.error).toBeNull();
    expect(row.state).toBe('completed');
    expect(row.imported).toBe(14);
    // Pages of 7 (the test world's page size): two full pages and an empty last one.
    expect(row.pagesDone).toBe(3);
    const list = (await world.w.t.db.db.select().from(verifyLists).where(eq(verifyLists.id, row.verifyListId)))[0]!;
    expect(list.source).toBe('leads');
    expect(list.orgId).toBe(owner.orgId);
    expect(list.uniqueCount).toBe(14);
    expect(list.state).toBe('verified');
    const reveals = await world.w.t.db.db.select().from(prospectReveals).where(and(eq(prospectReveals.orgId, owner.orgId), eq(prospectReveals.field, 'email')));
    for (const r of reveals) expect(r.status, r.value).toBe(r.value.startsWith('missing') ? 'invalid' : 'catch_all');
    const imports = await call('GET', '/integration/imports', owner.token);
    expect(imports.body.data.items[0]).toMatchObject({ integration: 'leads', state: 'completed' });
    // The other organisation's reveals are untouched.
    const theirs = await world.w.t.db.db.select().from(prospectReveals).where(eq(prospectReveals.orgId, other.orgId));
    expect(theirs.every((r) => r.status === null)).toBe(true);
  });
});
