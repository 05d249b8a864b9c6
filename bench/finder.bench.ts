// Bulk email finder benchmark: a mail world with makePeopleCorpus(N, 42), a test server (PGlite, finder jobs registered),
// N people uploaded as a mapped CSV through the API, found through the find_emails job, then read back.
// Prints people/s end to end, SMTP candidate probes per found address, and accuracy against the corpus.
// The mail world is the REALISTIC one (every host greets after 100–500 ms and answers each command after 10–50 ms; see
// packages/mailworld/README.md); BENCH_WORLD=fast for the old instant world.
// Run: npx tsx bench/finder.bench.ts [count] [concurrency]   (default 10000 24)
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from '../apps/server/src/platform/db/database';
import { makePeopleCorpus, startMailWorld } from '@verilead/mailworld';
import { grantCredits } from '../apps/server/src/platform/credits/ledger';
import { createFinderTestApp } from '../apps/server/src/features/email-finder/test-support';

const COUNT = Number(process.argv[2] ?? 10_000);
const CONCURRENCY = Number(process.argv[3] ?? 24);
const REALISTIC = (process.env.BENCH_WORLD ?? 'realistic') !== 'fast';

async function main() {
  const { people, corpus } = makePeopleCorpus(COUNT, 42);
  const world = await startMailWorld({ corpus, preset: REALISTIC ? 'realistic' : 'fast' });
  const storageDir = await mkdtemp(join(tmpdir(), 'vl-ef-bench-'));
  const t = await createFinderTestApp({
    dnsServers: world.dnsServers,
    verifierSmtpPort: world.smtpPort,
    verifierConnectTimeoutMs: 2_000,
    // realistic: greetings come after up to 500 ms; room for a loaded machine
    verifierReplyTimeoutMs: REALISTIC ? 5_000 : 2_000,
    verifierGreylistScheduleMs: [world.greylistDelayMs + 250],
    storageDir,
  }, { concurrency: CONCURRENCY });
  try {
    const owner = await t.createOwner('bench@ef.test');
    await t.db.transaction((tx) => grantCredits(tx, { orgId: owner.orgId, amount: COUNT * 2, reason: 'Bench credits' }));
    const csv = ['first,last,domain', ...people.map((p) => `"${p.first_name}","${p.last_name}",${p.domain}`)].join('\n');
    const boundary = '----efbench';
    const fields = { first_name_column: '0', last_name_column: '1', domain_column: '2' };
    const body = Buffer.concat([
      ...Object.entries(fields).map(([k, v]) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)),
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="people.csv"\r\nContent-Type: text/csv\r\n\r\n`),
      Buffer.from(csv),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const started = performance.now();
    const up = await t.call({ method: 'POST', url: '/api/v1/email_finder/bulk_upload', token: owner.token, payload: body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
    if (up.status !== 200) throw new Error(JSON.stringify(up.body));
    const listId = up.body.data.id as string;
    // the file is read by a job: the list can be searched once it is
    await t.deps.queue.runUntilIdle();
    const uploaded = performance.now();
    const find = await t.call({ method: 'POST', url: '/api/v1/email_finder/list/find_emails', token: owner.token, payload: { list_id: listId } });
    if (find.status !== 200) throw new Error(JSON.stringify(find.body));
    await t.deps.queue.runUntilIdle({ includeDelayed: true });
    const done = performance.now();
    const res = (await t.db.db.execute(sql`select result from finder_list_rows where list_id = ${listId} order by row_number`)) as unknown as {
      rows: { result: { email: string | null; status: string; catch_all: boolean; candidates_tried: number; reason: { code: string } } | null }[];
    };
    let found = 0;
    let probes = 0;
    let strictTotal = 0;
    let strictRight = 0;
    let catchAllMarked = 0;
    const reasons = new Map<string, number>();
    res.rows.forEach((row, i) => {
      const p = people[i]!;
      const r = row.result;
      probes += r?.candidates_tried ?? 0;
      const key = `${p.scenario}:${r?.reason.code ?? 'none'}`;
      reasons.set(key, (reasons.get(key) ?? 0) + 1);
      if (r?.status === 'found') found += 1;
      if (p.scenario === 'catch_all') {
        if (r?.catch_all) catchAllMarked += 1;
      } else {
        strictTotal += 1;
        if (r?.email === p.email) strictRight += 1;
      }
    });
    const seconds = (done - started) / 1000;
    console.log(`email-finder bench: ${people.length.toLocaleString('en-US')} people (makePeopleCorpus(${COUNT}, 42)), ${CONCURRENCY} people at once, ${world.preset} mail world`);
    console.log(`  upload + parse: ${((uploaded - started) / 1000).toFixed(1)} s; find: ${((done - uploaded) / 1000).toFixed(1)} s`);
    console.log(`  people/s end to end: ${(people.length / seconds).toFixed(1)}`);
    console.log(`  SMTP candidate probes: ${probes} total, ${(probes / Math.max(1, found)).toFixed(2)} per found address`);
    console.log(`  found: ${found}; strict + greylisting domains right: ${strictRight}/${strictTotal} (${((strictRight / Math.max(1, strictTotal)) * 100).toFixed(1)} %); catch-all marked: ${catchAllMarked}/${people.length - strictTotal}`);
    console.log(`  outcomes by scenario: ${[...reasons].sort().map(([k, n]) => `${k}=${n}`).join(', ')}`);
  } finally {
    await t.close();
    await world.stop();
    await rm(storageDir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
