// Bulk verification benchmark: starts a mail world with makeCorpus(N, 7), a fresh server (embedded PGlite in a fresh
// data dir) pointed at it, uploads the N addresses through the API, verifies the list through the queue and worker,
// and prints addresses/s end to end and accuracy against the world's truth (from the standard CSV export).
// Run: npx tsx bench/bulk-verify.bench.ts [count]   (default 100000: about 15-20 minutes on 2 cores)
import { join } from 'node:path';
import { makeCorpus, startMailWorld } from '@verilead/mailworld';
import { openPglite } from '../apps/server/src/platform/db/database';
import { grantCredits } from '../apps/server/src/platform/credits/ledger';
import { seedDemoIfEmpty } from '../apps/server/src/seed';
import { api, login, readPeakRssMiB, startServer } from './ingest.bench';

const COUNT = Number(process.argv[2] ?? 100_000);

async function main() {
  const corpus = makeCorpus(COUNT, 7);
  const world = await startMailWorld({ corpus });
  console.log(`bulk-verify bench: ${COUNT.toLocaleString('en-US')} mail-world addresses (makeCorpus(${COUNT}, 7))`);
  const env = {
    DNS_SERVERS: world.dnsServers.join(','),
    VERIFIER_SMTP_PORT: String(world.smtpPort),
    VERIFIER_CONNECT_TIMEOUT_MS: '2000',
    VERIFIER_REPLY_TIMEOUT_MS: '2000',
    VERIFIER_GREYLIST_SCHEDULE_MS: String(world.greylistDelayMs + 250),
  };
  // Seed the fresh database with enough credits before the server opens it (PGlite is one process).
  const { mkdtempSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const dataDir = mkdtempSync(join(tmpdir(), 'vl-bench-verify-'));
  const db = await openPglite(join(dataDir, 'pglite'));
  await db.migrate();
  const { seedDemoIfEmpty: seed } = { seedDemoIfEmpty };
  await seed(db);
  const orgs = (await db.db.execute("select id from organisations order by created_at limit 1" as never)) as unknown as { rows: { id: string }[] };
  await db.transaction((tx) => grantCredits(tx, { orgId: orgs.rows[0]!.id, amount: COUNT * 2, reason: 'Bench credits' }));
  await db.close();

  const { child, base } = await startServer({ ...env, DATA_DIR: dataDir });
  try {
    const token = await login(base);
    const form = new FormData();
    form.append('file', new Blob([corpus.map((c) => c.email).join('\n')]), 'corpus.txt');
    const t0 = performance.now();
    const up = await fetch(`${base}/email_verify/bulk_upload`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
    const listId = ((await up.json()) as { data: { id: string } }).data.id;
    let p: any; // eslint-disable-line @typescript-eslint/no-explicit-any
    for (;;) {
      p = (await api(base, token, 'GET', `/email_verify/bulk/progress_status?list_id=${listId}`)).data;
      if (p.analysis.state !== 'pending' && p.analysis.state !== 'processing') break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const tReady = performance.now();
    const start = await api(base, token, 'POST', '/email_verify/list/verify', { list_id: listId });
    if (start.status !== 'success') throw new Error(`verify failed: ${JSON.stringify(start)}`);
    let lastLog = 0;
    for (;;) {
      p = (await api(base, token, 'GET', `/email_verify/bulk/progress_status?list_id=${listId}`)).data;
      if (p.state !== 'in_progress') break;
      if (performance.now() - lastLog > 15_000) {
        lastLog = performance.now();
        console.log(`  ${p.verified}/${p.total} verified`);
      }
      await new Promise((r) => setTimeout(r, 500));
    }
    const t1 = performance.now();
    const ex = await api(base, token, 'POST', '/email_verify/list/export', { list_id: listId, format: 'standard', file_type: 'csv' });
    let d: any; // eslint-disable-line @typescript-eslint/no-explicit-any
    for (;;) {
      d = (await api(base, token, 'GET', `/download/result/status?queue_id=${ex.data.queue_id}`)).data;
      if (d.state !== 'queued' && d.state !== 'processing') break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const csv = await (await fetch(`${base.replace(/\/api\/v1$/, '')}${d.download_url}`)).text();
    let right = 0;
    let judged = 0;
    const misses = new Map<string, number>();
    for (const line of csv.replace(/^\uFEFF/, '').split('\r\n').slice(1)) {
      if (!line) continue;
      const [email, status, reason] = line.split(',');
      const truth = world.truth.get((email ?? '').replace(/^'/, '').toLowerCase());
      if (!truth) continue;
      judged += 1;
      if (truth.status === status) right += 1;
      else misses.set(`${truth.status} -> ${status}/${reason}`, (misses.get(`${truth.status} -> ${status}/${reason}`) ?? 0) + 1);
    }
    const secs = (t1 - tReady) / 1000;
    console.log(`state ${p.state}; ${p.verified} unique addresses verified; stats ${JSON.stringify({ valid: p.stats.valid, invalid: p.stats.invalid, catch_all: p.stats.catch_all, unknown: p.stats.unknown, billable: p.stats.billable })}`);
    console.log(`upload + analyse: ${((tReady - t0) / 1000).toFixed(1)} s; verification: ${secs.toFixed(1)} s = ${(p.verified / secs).toFixed(0)} addresses/s end to end`);
    console.log(`accuracy vs the mail world's truth: ${((right / Math.max(1, judged)) * 100).toFixed(2)} % (${right}/${judged})`);
    console.log(`server peak RSS: ${readPeakRssMiB(child.pid!)} MiB`);
    if (misses.size > 0) console.log(`misses: ${[...misses].sort((a, b) => b[1] - a[1]).slice(0, 8).map(([k, n]) => `${k} ×${n}`).join('; ')}`);
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 1000));
    await world.stop();
    const { rmSync } = await import('node:fs');
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
