// Prospect directory benchmark: writes a generated directory (BENCH_PEOPLE people, default 1,000,000, at
// BENCH_COMPANIES companies, default 100,000) as an NDJSON file, imports it with the operator import (rows/s, peak
// RSS), then times 20 typical filtered people searches, each with its facets (search/meta) as the screen asks for
// both at once: p50 and p95 (goal p95 ≤ 100 ms). Set DATABASE_URL for PostgreSQL (a fresh vl_test_* database,
// dropped afterwards); without it the embedded PGlite is used.
// Run: npx tsx bench/prospect.bench.ts
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import type { TProspectFilters } from '@verilead/contracts';
import { loadConfig } from '../apps/server/src/config';
import { openPostgres } from '../apps/server/src/platform/db/database';
import { createTestDb, type TTestDb } from '../apps/server/src/test/test-db';
import { importDirectory, openImportFile } from '../apps/server/src/features/prospects/directory-import';
import { settleDirectory } from '../apps/server/src/features/prospects/directory-store';
import { generateCompanies, generatePeople } from '../apps/server/src/features/prospects/generator';
import { createSqlSearchEngine } from '../apps/server/src/features/prospects/search';
import { SEARCHES } from './prospect-searches';

const PEOPLE = Number(process.env.BENCH_PEOPLE ?? 1_000_000);
const COMPANIES = Number(process.env.BENCH_COMPANIES ?? 100_000);
const SEED = 2026;


function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function writeDirectory(path: string) {
  const out = createWriteStream(path);
  const write = async (line: string) => {
    if (!out.write(`${line}\n`)) await once(out, 'drain');
  };
  const companies = generateCompanies(COMPANIES, SEED);
  for (const { mail_domain: _d, mail_pattern: _p, weight: _w, ...c } of companies) await write(JSON.stringify({ record: 'company', ...c }));
  for (const { mailbox_exists: _m, ...p } of generatePeople(PEOPLE, companies, SEED)) await write(JSON.stringify({ record: 'person', ...p }));
  out.end();
  await once(out, 'finish');
}

/**
 * BENCH_REUSE_DB=<name> (PostgreSQL only): time the searches on a database an earlier run kept (after migrating
 * it), without generating or importing again. BENCH_KEEP_DB=1 keeps the run's database and prints its name.
 */
async function openDb(): Promise<{ db: TTestDb; reused: boolean }> {
  const reuse = process.env.BENCH_REUSE_DB;
  const { databaseUrl } = loadConfig(process.env, { appSecret: 'bench' });
  if (reuse && databaseUrl) {
    const url = new URL(databaseUrl);
    url.pathname = `/${reuse}`;
    const database = openPostgres(url.toString(), 20);
    let t = performance.now();
    await database.migrate();
    console.log(`migrated ${reuse} in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    t = performance.now();
    await settleDirectory(database);
    console.log(`vacuum (analyze) in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    return { db: { ...database, name: reuse, dispose: () => database.close() }, reused: true };
  }
  const db = await createTestDb();
  if (process.env.BENCH_KEEP_DB && databaseUrl) {
    console.log(`keeping database ${db.name}`);
    return { db: { ...db, dispose: () => db.close() }, reused: false };
  }
  return { db, reused: false };
}

async function main() {
  const dir = await mkdtemp(join(tmpdir(), 'vl-prospect-bench-'));
  const file = join(dir, 'directory.ndjson');
  const { db, reused } = await openDb();
  try {
    if (!reused) await generateAndImport(db, file);
    await timeSearches(db);
  } finally {
    await db.dispose();
    await rm(dir, { recursive: true, force: true });
  }
}

async function generateAndImport(db: TTestDb, file: string) {
  {
    let t = performance.now();
    await writeDirectory(file);
    console.log(`generated ${COMPANIES.toLocaleString('en-US')} companies and ${PEOPLE.toLocaleString('en-US')} people as NDJSON in ${((performance.now() - t) / 1000).toFixed(1)} s`);

    const input = openImportFile(file);
    t = performance.now();
    const report = await importDirectory(db, input.stream, 'ndjson');
    const seconds = (performance.now() - t) / 1000;
    const rows = report.companies + report.people;
    console.log(
      `import (${db.engine}): ${rows.toLocaleString('en-US')} rows in ${seconds.toFixed(1)} s = ${Math.round(rows / seconds).toLocaleString('en-US')} rows/s, ` +
        `bad rows ${report.bad.length}, peak RSS ${Math.round(process.resourceUsage().maxRSS / 1024)} MB`,
    );
  }
}

async function timeSearches(db: TTestDb) {
  {
    const engine = createSqlSearchEngine(db.db);
    const timeOne = async (filters: TProspectFilters) => {
      const started = performance.now();
      const [page, meta] = await Promise.all([engine.searchPeople(filters, { sort: 'relevance', offset: 0, limit: 25 }), engine.facets(filters)]);
      return { ms: performance.now() - started, total: `${page.total}${page.capped ? '+' : ''}`, facets: `${meta.total}${meta.sampled ? ' sampled' : ''}` };
    };
    for (const f of SEARCHES.slice(0, 3)) await timeOne(f); // warm-up
    const times: number[] = [];
    for (const f of SEARCHES) {
      const r = await timeOne(f);
      times.push(r.ms);
      console.log(`  ${r.ms.toFixed(1).padStart(7)} ms  ${r.total.padStart(7)} people  facets over ${r.facets.padEnd(13)} ${JSON.stringify(f)}`);
    }
    const sorted = [...times].sort((a, b) => a - b);
    console.log(`search + facets (${db.engine}, ${PEOPLE.toLocaleString('en-US')} people): p50 ${percentile(sorted, 50).toFixed(1)} ms, p95 ${percentile(sorted, 95).toFixed(1)} ms (goal p95 ≤ 100 ms)`);
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
