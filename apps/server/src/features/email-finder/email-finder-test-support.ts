import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import type { TSourceAgent } from '@verilead/contracts';
import { makePeopleCorpus, startMailWorld, type TMailWorld, type TPerson } from '@verilead/mailworld';
import { grantCredits } from '../../platform/credits/ledger';
import { creditTransactions } from '../../platform/credits/tables';
import type { TJobQueue } from '../../platform/jobs/jobs';
import type { TTestApp } from '../../test/test-app';
import { testJobsConfig } from '../../test/test-queue';
import { createFinderTestApp } from './test-support';

// What the email finder API tests (email-finder-instant.test.ts, email-finder-lists.test.ts) share.

export type TFinderUser = { token: string; userId: string; orgId: string };

export function buildMultipart(fileName: string, content: Buffer | string, fields: Record<string, string> = {}) {
  const boundary = `----ef${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: application/octet-stream\r\n\r\n`));
  parts.push(typeof content === 'string' ? Buffer.from(content) : content);
  parts.push(Buffer.from(`\r\n--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** The email finder API tests' world (email-finder-*.test.ts): 80 people in a mail world, the app, an owner with 1,000 credits more and a stranger. */
export type TFinderApiWorld = { world: TMailWorld; people: TPerson[]; t: TTestApp; jobs: TJobQueue; owner: TFinderUser; stranger: TFinderUser; close: () => Promise<void> };

export async function startFinderApiWorld(): Promise<TFinderApiWorld> {
  const pc = makePeopleCorpus(80, 21);
  const people = pc.people;
  let world: TMailWorld | undefined;
  let storageDir: string | undefined;
  let t: TTestApp | undefined;
  const close = async () => {
    await t?.close();
    await world?.stop();
    if (storageDir) await rm(storageDir, { recursive: true, force: true });
  };
  try {
    world = await startMailWorld({ corpus: pc.corpus, greylistDelayMs: 100, tarpitDelayMs: 3_000 });
    storageDir = await mkdtemp(join(tmpdir(), 'vl-ef-'));
    t = await createFinderTestApp(
      // Chunks of 10 people (a quarter of 40): every list below is searched in several chunk jobs.
      { dnsServers: world.dnsServers, verifierSmtpPort: world.smtpPort, verifierConnectTimeoutMs: 2_500, verifierReplyTimeoutMs: 2_500, verifierGreylistScheduleMs: [150], storageDir, jobs: { ...testJobsConfig(), chunkSize: 40 } },
      { concurrency: 4 },
    );
    const jobs = t.deps.queue;
    const owner = await t.createOwner('owner@ef.test');
    const stranger = await t.createOwner('stranger@ef.test');
    await t.db.transaction((tx) => grantCredits(tx, { orgId: owner.orgId, amount: 1_000, reason: 'Test top-up' }));
    return { world, people, t, jobs, owner, stranger, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** The calls the email finder API tests make again and again, on the world `w()` answers (set once it started). */
export function finderApiCalls(w: () => TFinderApiWorld) {
  const charges = (orgId: string, agent: TSourceAgent) =>
    w()
      .t.db.db.select()
      .from(creditTransactions)
      .where(and(eq(creditTransactions.orgId, orgId), eq(creditTransactions.kind, 'charge'), eq(creditTransactions.sourceAgent, agent)));
  /** Uploads a list; when accepted, the worker reads the file (the analysis job) and the answer holds the read list. */
  const upload = async (user: TFinderUser, name: string, content: Buffer | string, fields: Record<string, string>) => {
    const { t } = w();
    const mp = buildMultipart(name, content, fields);
    const res = await t.call({ method: 'POST', url: '/api/v1/email_finder/bulk_upload', token: user.token, payload: mp.payload, headers: mp.headers });
    if (res.status !== 200) return res;
    expect(res.body.data).toMatchObject({ activity: 'analyse', counts: { rows: 0 } });
    await t.deps.queue.runUntilIdle();
    const read = await t.call({ method: 'POST', url: '/api/v1/email_finder/list', token: user.token, payload: { list_id: res.body.data.id } });
    return { ...res, body: { ...res.body, data: read.body.data.items[0] } };
  };
  /** A finder file request: queued to the downloads job, prepared by the worker, then read back through the shared status. */
  const prepared = async (requested: Awaited<ReturnType<TTestApp['call']>>) => {
    const { t, owner } = w();
    expect(requested.status).toBe(200);
    expect(requested.body.data).toMatchObject({ state: 'queued', download_url: null });
    await t.deps.queue.runUntilIdle();
    const status = await t.call({ method: 'GET', url: `/api/v1/download/result/status?queue_id=${requested.body.data.queue_id}`, token: owner.token });
    expect(status.body.data.download_url).toMatch(/^\/api\/v1\/public\/download_email_finder_history\?download_token=/);
    return status;
  };
  const instant = (user: TFinderUser, payload: Record<string, unknown>) => w().t.call({ method: 'POST', url: '/api/v1/email_finder/instant', token: user.token, payload });
  const strictPeople = () => w().people.filter((p) => p.scenario === 'strict' && p.middle_name === null && /^[A-Za-z]+$/.test(p.first_name + p.last_name));
  return { charges, upload, prepared, instant, strictPeople };
}
