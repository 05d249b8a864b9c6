import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZProgressStatusResponse, ZVerifyListsResponse } from '@verilead/contracts';
import { makeCorpus } from '@verilead/mailworld';
import { grantCredits } from '../../platform/credits/ledger';
import { creditTransactions } from '../../platform/credits/tables';
import { buildMultipart, createWorldApp, type TWorldApp } from './test-support';
import { verifyListEmails } from './tables';
import { GREYLIST_RECHECK_JOB } from './store-results';

// Greylisting in bulk lists: greylisted addresses wait for re-checks on the greylist schedule (config
// verifierGreylistScheduleMs, short here) while the rest of the list is stored, shown and charged; the list is
// verified only when none waits. The world's greylist.test answers 451 for 4 s per triplet, so the first re-check
// (after 300 ms) is greylisted again and the second (the schedule's last, 4 s later) gets the verdict; greylist5.test
// keeps greylisting for 5 minutes, so its addresses end as unknown / greylisted, free.
const SCHEDULE = [300, 4_000];

describe('greylisted addresses of a bulk list', () => {
  let w: TWorldApp;
  let owner: { token: string; userId: string; orgId: string };
  const corpus = makeCorpus(80, 5);

  beforeAll(async () => {
    w = await createWorldApp(corpus, { verifierGreylistScheduleMs: SCHEDULE }, {}, { greylistDelayMs: 4_000 });
    owner = await w.t.createOwner('greylist@ev.test');
    await w.t.db.transaction((tx) => grantCredits(tx, { orgId: owner.orgId, amount: 1_000, reason: 'Test top-up' }));
  });
  afterAll(async () => {
    await w?.close();
  });

  const uploadAndStart = async (name: string, emails: string[]) => {
    const mp = buildMultipart(name, ['email', ...emails].join('\n'));
    const up = await w.t.call({ method: 'POST', url: '/api/v1/email_verify/bulk_upload', token: owner.token, payload: mp.payload, headers: mp.headers });
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    const listId = up.body.data.id as string;
    await w.t.deps.queue.runUntilIdle();
    const start = await w.t.call({ method: 'POST', url: '/api/v1/email_verify/list/verify', token: owner.token, payload: { list_id: listId } });
    expect(start.status, JSON.stringify(start.body)).toBe(200);
    return listId;
  };
  const readList = async (listId: string) => {
    const res = await w.t.call({ method: 'POST', url: '/api/v1/email_verify/list', token: owner.token, payload: { list_id: listId } });
    return ZVerifyListsResponse.parse(res.body).data.items[0]!;
  };
  const readProgress = async (listId: string) => {
    const res = await w.t.call({ method: 'GET', url: `/api/v1/email_verify/bulk/progress_status?list_id=${listId}`, token: owner.token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return ZProgressStatusResponse.parse(res.body).data;
  };
  const chargesOf = async (listId: string) =>
    (await w.t.db.db.select().from(creditTransactions).where(and(eq(creditTransactions.orgId, owner.orgId), eq(creditTransactions.sourceAgent, 'bulk_verify')))).filter((c) =>
      String(c.objectId).startsWith(`${listId}:`),
    );

  it('stores the rest of the list at once, shows the waiting addresses and their re-check time, then re-checks them on the schedule', async () => {
    // quick hosts only, so the first re-check comes well within greylist.test's 4 s
    const others = corpus.filter((e) => (e.tags[0] === 'strict' || e.tags[0] === 'acceptall') && !e.tags.includes('syntax')).map((e) => e.email);
    const greylisted = ['carol@greylist.test', 'ghost@greylist.test', 'gina@greylist5.test'];
    const listId = await uploadAndStart('greylist.csv', [...others.slice(0, 40), ...greylisted]);
    const unique = (await readList(listId)).counts.unique;

    // The chunk jobs finish without waiting for the greylist: everything else has its result, the three wait.
    const startedAt = Date.now();
    await w.t.deps.queue.runUntilIdle();
    const waiting = await readList(listId);
    expect(waiting.state).toBe('in_progress');
    expect(waiting.greylist.waiting).toBe(3);
    expect(waiting.counts.verified).toBe(unique - 3);
    const nextAt = Date.parse(waiting.greylist.next_recheck_at ?? '');
    expect(nextAt).toBeGreaterThan(startedAt);
    // due after the schedule's first delay (or its second, when the first re-check already ran meanwhile)
    expect(nextAt).toBeLessThanOrEqual(Date.now() + Math.max(...SCHEDULE));
    const progress = await readProgress(listId);
    expect(progress.greylist).toEqual(waiting.greylist);
    expect(progress.verified).toBe(unique - 3);
    // the waiting rows have no result and cost nothing yet; the stored ones were charged once each
    const rows = await w.t.db.db.select().from(verifyListEmails).where(eq(verifyListEmails.listId, listId));
    const waitingRows = rows.filter((r) => r.recheckAt !== null);
    expect(waitingRows.map((r) => r.email).sort()).toEqual([...greylisted].sort());
    expect(waitingRows.every((r) => r.status === null && r.result === null)).toBe(true);
    expect((await chargesOf(listId)).length).toBe(waiting.stats.billable);
    expect(await w.t.deps.queue.pending(GREYLIST_RECHECK_JOB)).toBe(1);

    // The re-check jobs (taken when due): the first re-check meets the greylist again, the last gets the verdicts.
    await w.t.deps.queue.runUntilIdle({ includeDelayed: true });
    const done = await readList(listId);
    expect(done.state).toBe('verified');
    expect(done.greylist).toEqual({ waiting: 0, next_recheck_at: null });
    expect(done.counts.verified).toBe(unique);
    const final = await w.t.db.db.select().from(verifyListEmails).where(eq(verifyListEmails.listId, listId));
    const verdict = (email: string) => {
      const r = final.find((x) => x.email === email)!;
      const result = r.result as { status: string; reason: { code: string }; greylist_count: number };
      return { status: result.status, reason: result.reason.code, greylist_count: result.greylist_count, rechecks: r.greylistRechecks };
    };
    expect(verdict('carol@greylist.test')).toEqual({ status: 'valid', reason: 'valid_mailbox', greylist_count: 2, rechecks: 1 });
    expect(verdict('ghost@greylist.test')).toEqual({ status: 'invalid', reason: 'mailbox_not_found', greylist_count: 2, rechecks: 1 });
    expect(verdict('gina@greylist5.test')).toEqual({ status: 'unknown', reason: 'greylisted', greylist_count: 3, rechecks: 1 });
    // billing: exactly once per billable row, the re-checked ones included (carol and ghost), gina free
    const charges = await chargesOf(listId);
    expect(charges.length).toBe(done.stats.billable);
    expect(new Set(charges.map((c) => c.objectId)).size).toBe(charges.length);
    const rowOf = (email: string) => final.find((x) => x.email === email)!.rowNumber;
    expect(charges.filter((c) => c.objectId === `${listId}:${rowOf('carol@greylist.test')}`)).toHaveLength(1);
    expect(charges.filter((c) => c.objectId === `${listId}:${rowOf('gina@greylist5.test')}`)).toHaveLength(0);
    expect(await w.t.deps.queue.pending(GREYLIST_RECHECK_JOB)).toBe(0);
  });

  it('cancelling a list with addresses waiting cancels its re-checks: they are never verified nor charged', async () => {
    const listId = await uploadAndStart('greylist-cancel.csv', ['alice@strict.test', 'dora@greylist.test', 'nobody@greylist5.test']);
    await w.t.deps.queue.runUntilIdle();
    expect((await readList(listId)).greylist.waiting).toBe(2);
    expect(await w.t.deps.queue.pending(GREYLIST_RECHECK_JOB)).toBe(1);
    const cancel = await w.t.call({ method: 'POST', url: '/api/v1/email_verify/list/cancel', token: owner.token, payload: { list_id: listId } });
    expect(cancel.status, JSON.stringify(cancel.body)).toBe(200);
    expect(await w.t.deps.queue.pending(GREYLIST_RECHECK_JOB)).toBe(0);
    await w.t.deps.queue.runUntilIdle({ includeDelayed: true });
    const after = await readList(listId);
    expect(after.state).toBe('cancelled');
    expect(after.greylist).toEqual({ waiting: 0, next_recheck_at: null });
    const rows = await w.t.db.db.select().from(verifyListEmails).where(eq(verifyListEmails.listId, listId));
    expect(rows.filter((r) => r.status !== null).map((r) => r.email)).toEqual(['alice@strict.test']);
    expect((await chargesOf(listId)).length).toBe(1);
  });
});
