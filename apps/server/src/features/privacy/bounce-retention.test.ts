import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZBounceReportPreviewResponse, ZBounceReportsResponse } from '@verilead/contracts';
import { refundCredits } from '../../platform/credits/ledger';
import { selectRows } from '../../platform/db/database';
import { buildMultipart, createWorldApp, type TWorldApp } from '../email-verifier/test-support';
import { applyDataRetention } from './retention';

type TOwner = { token: string; userId: string; orgId: string };
const DAY_MS = 86_400_000;

/**
 * Data retention of bounces: an uploaded report's file (its recipients) goes after the organisation's file retention,
 * the report staying with its figures; bounces' addresses go after its result retention, a settled credit-back claim
 * keeping its bounce (without the address) for the report's credited figures, a pending claim keeping its address
 * for its re-check. Retention runs at the injected time (`now`), never the wall clock.
 */
describe('data retention of bounces', () => {
  let w: TWorldApp;
  let a: TOwner;
  let b: TOwner;
  const reportOf: Record<string, string> = {};
  let unapplied = '';

  const call = (o: TOwner, method: 'GET' | 'POST' | 'PUT', url: string, payload?: Record<string, unknown>) =>
    w.t.call({ method, url: `/api/v1${url}`, token: o.token, ...(payload ? { payload } : {}) });
  const retain = (days: number) => applyDataRetention(w.t.db, w.t.deps.storage, new Date(Date.now() + days * DAY_MS));
  const upload = async (o: TOwner, name: string, rows: string[]) => {
    const mp = buildMultipart(name, ['email,created,reason,status', ...rows].join('\n'));
    const res = await w.t.call({ method: 'POST', url: '/api/v1/bounces/reports/upload', token: o.token, payload: mp.payload, headers: mp.headers });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return ZBounceReportPreviewResponse.parse(res.body).data;
  };
  const uploadAndApply = async (o: TOwner, name: string, rows: string[]) => {
    const preview = await upload(o, name, rows);
    const applied = await call(o, 'POST', '/bounces/reports/apply', { report_id: preview.report_id, mapping: preview.mapping });
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    return preview.report_id;
  };
  const reportRow = async (id: string) =>
    (await selectRows<{ storage_key: string; hard: number; file_removed: boolean }>(w.t.db.db, sql`select storage_key, hard, file_deleted_at is not null as file_removed from bounce_reports where id = ${id}`))[0]!;
  const bouncesOf = (orgId: string) =>
    selectRows<{ email: string | null; domain: string; reason: string | null; code: string | null; report_id: string | null }>(
      w.t.db.db,
      sql`select email, domain, reason, code, report_id from bounces where org_id = ${orgId} order by email nulls first`,
    );
  const claimsOf = (orgId: string) =>
    selectRows<{ verdict_ref: string; email: string | null; state: string; ledger_reason: string | null; credits: number }>(
      w.t.db.db,
      sql`select verdict_ref, email, state, ledger_reason, credits from bounce_credit_backs where org_id = ${orgId} order by verdict_ref`,
    );
  /** A claim as the guarantee makes it, on the organisation's bounce of `email`. */
  const claim = async (o: TOwner, email: string, state: 'pending' | 'credited') => {
    await w.t.db.db.execute(
      sql`insert into bounce_credit_backs (org_id, verdict_ref, email, bounce_id, credits, state, ledger_reason)
          select org_id, ${`instant:${email}`}, email, id, 1, ${state}, ${`Bounce credit-back: ${email} hard-bounced`} from bounces where org_id = ${o.orgId} and email = ${email}`,
    );
    // a credited claim has its ledger entry, naming the address as the guarantee writes it
    if (state === 'credited') {
      const bounceId = (await selectRows<{ id: string }>(w.t.db.db, sql`select id from bounces where org_id = ${o.orgId} and email = ${email}`))[0]!.id;
      await refundCredits(w.t.db.db, {
        orgId: o.orgId,
        amount: 1,
        reason: `Bounce credit-back: ${email} hard-bounced on 2026-11-20 (CSV report: 550 5.1.1 <${email}>: Recipient address rejected), valid verdict of 2026-11-19`,
        sourceAgent: 'bounce_credit_back',
        objectType: 'bounce',
        objectId: bounceId,
      });
    }
  };
  const ledgerReasons = async (orgId: string) =>
    (await selectRows<{ reason: string }>(w.t.db.db, sql`select reason from credit_transactions where org_id = ${orgId} and object_type = 'bounce' order by created_at`)).map((r) => r.reason);

  beforeAll(async () => {
    // The app's clock a day after the bounces this test dates (2026-11-20): the guarantee counts its days to it.
    w = await createWorldApp(undefined, {}, { clock: () => new Date('2026-11-21T12:00:00Z') });
    a = await w.t.createOwner('owner-a@bounce-retention.test', 'Owner A');
    b = await w.t.createOwner('owner-b@bounce-retention.test', 'Owner B');
    // A keeps files 7 days and results 30 days; B keeps the defaults (30 and 90).
    expect((await call(a, 'PUT', '/user_preferences/data_retention', { file_retention_days: 7, result_retention_days: 30 })).status).toBe(200);
    const rows = [
      'settled@corp.test,2026-11-20 09:00:00,550 5.1.1 <settled@corp.test>: Recipient address rejected,5.1.1',
      'pending@corp.test,2026-11-20 09:00:00,550 5.1.1 User unknown,5.1.1',
      'plain@corp.test,2026-11-20 09:00:00,550 5.1.1 User unknown,5.1.1',
    ];
    reportOf[a.orgId] = await uploadAndApply(a, 'a-bounces.csv', rows);
    reportOf[b.orgId] = await uploadAndApply(b, 'b-bounces.csv', ['kept@corp.test,2026-11-20 09:00:00,550 5.1.1 User unknown,5.1.1']);
    unapplied = (await upload(a, 'a-later.csv', ['later@corp.test,2026-11-20 09:00:00,550 5.1.1 User unknown,5.1.1'])).report_id;
    await claim(a, 'settled@corp.test', 'credited');
    await claim(a, 'pending@corp.test', 'pending');
  });
  afterAll(async () => {
    await w?.close();
  });

  it("removes bounce report files after the file retention, keeping the report and its figures; an unapplied one is refused with the reason", async () => {
    const storage = w.t.deps.storage;
    const ra = await reportRow(reportOf[a.orgId]!);
    const rb = await reportRow(reportOf[b.orgId]!);
    expect(ra.hard).toBe(3);
    expect(await storage.stat(ra.storage_key)).not.toBeNull();

    // Six days on: A keeps files 7 days, nothing goes.
    expect(await retain(6)).toMatchObject({ bounceReportFiles: 0, bounces: 0 });
    expect(await storage.stat(ra.storage_key)).not.toBeNull();

    // Eight days on: A's two report files are gone, the reports kept with their figures; B's (30 days) stays.
    expect(await retain(8)).toMatchObject({ bounceReportFiles: 2, bounces: 0 });
    expect(await storage.stat(ra.storage_key)).toBeNull();
    expect(await storage.stat((await reportRow(unapplied)).storage_key)).toBeNull();
    expect(await reportRow(reportOf[a.orgId]!)).toMatchObject({ hard: 3, file_removed: true });
    expect(await storage.stat(rb.storage_key)).not.toBeNull();
    expect((await reportRow(reportOf[b.orgId]!)).file_removed).toBe(false);
    const list = ZBounceReportsResponse.parse((await call(a, 'GET', '/bounces/reports')).body).data;
    expect(list.items.find((r) => r.id === reportOf[a.orgId])).toMatchObject({ state: 'applied', rows: 3, hard: 3 });
    const late = await call(a, 'POST', '/bounces/reports/apply', { report_id: unapplied, mapping: { email_column: 0, type_column: null, code_column: 3, reason_column: 2, date_column: 1 } });
    expect(late.status).toBe(409);
    expect(late.body.error.message).toBe("The uploaded file was deleted under your organisation's data retention: upload it again");
    // The addresses are still within the result retention.
    expect((await bouncesOf(a.orgId)).map((r) => r.email)).toEqual(['pending@corp.test', 'plain@corp.test', 'settled@corp.test']);
  });

  it("erases bounces' addresses after the result retention: a settled claim keeps its bounce without them, a pending one is left for its re-check", async () => {
    const figures = async () => ZBounceReportsResponse.parse((await call(a, 'GET', '/bounces/reports')).body).data.items.find((r) => r.id === reportOf[a.orgId]);
    const before = await figures();
    expect(before).toMatchObject({ hard: 3, credited: 1, credits_returned: 1, credit_backs_pending: 1 });

    expect(await retain(29)).toMatchObject({ bounces: 0 });
    const result = await retain(31);
    expect(result.bounces).toBe(2);
    // plain (no claim) deleted; settled kept without its address and reply text (domain, code and report kept); pending untouched.
    expect(await bouncesOf(a.orgId)).toEqual([
      { email: null, domain: 'corp.test', reason: null, code: '5.1.1', report_id: reportOf[a.orgId] },
      { email: 'pending@corp.test', domain: 'corp.test', reason: '550 5.1.1 User unknown', code: '5.1.1', report_id: reportOf[a.orgId] },
    ]);
    expect(await claimsOf(a.orgId)).toEqual([
      { verdict_ref: 'instant:pending@corp.test', email: 'pending@corp.test', state: 'pending', ledger_reason: 'Bounce credit-back: pending@corp.test hard-bounced', credits: 1 },
      { verdict_ref: 'instant:settled@corp.test', email: null, state: 'credited', ledger_reason: null, credits: 1 },
    ]);
    expect(JSON.stringify(await selectRows(w.t.db.db, sql`select * from bounces where org_id = ${a.orgId}`))).not.toContain('settled@');
    // its ledger entry stays (the credit is not undone), without the address
    expect(await ledgerReasons(a.orgId)).toEqual([
      'Bounce credit-back: (address erased) hard-bounced on 2026-11-20 (CSV report: 550 5.1.1 <(address erased)>: Recipient address rejected), valid verdict of 2026-11-19',
    ]);
    // The report's figures are unchanged; B (90 days) keeps its bounce.
    expect(await figures()).toEqual(before);
    expect((await bouncesOf(b.orgId)).map((r) => r.email)).toEqual(['kept@corp.test']);

    // Once the pending claim is settled, the next run erases it too; running again changes nothing.
    await w.t.db.db.execute(sql`update bounce_credit_backs set state = 'declined' where org_id = ${a.orgId} and state = 'pending'`);
    expect(await retain(31)).toMatchObject({ bounces: 1 });
    expect((await claimsOf(a.orgId)).map((c) => c.email)).toEqual([null, null]);
    expect(await retain(31)).toMatchObject({ bounces: 0, bounceReportFiles: 0 });
  });
});
