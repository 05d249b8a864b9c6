// The work of each of the prospect bench's 20 searches, measured in pages and rows rather than milliseconds (which a
// loaded machine distorts): every statement a search issues (title lookup, page, count, facets) is run under
// `EXPLAIN (ANALYZE, BUFFERS)`, one at a time, and summed per search: shared buffers touched (hit + read; an
// index-only scan also counts a hit each time it moves between the two visibility-map pages of a 1,000,000-people
// table), table pages visited (bitmap heap blocks, of directory_companies too; heap fetches; rows fetched by plain
// index scans; pages of sequential scans), directory rows examined, and the fastest of three executions (planning included;
// per-node timing off, so the milliseconds still depend on the machine's load).
// Run on a database the bench kept (BENCH_KEEP_DB=1), without migrating it:
//   DATABASE_URL=postgres://…/postgres BENCH_REUSE_DB=<name> npx tsx bench/prospect-explain.ts [--json out.json] [--plans] [search numbers…]
import { writeFile } from 'node:fs/promises';
import pg from 'pg';
import { openPostgres, type TDb } from '../apps/server/src/platform/db/database';
import { createSqlSearchEngine } from '../apps/server/src/features/prospects/search';
import { SEARCHES } from './prospect-searches';

type TQuery = Parameters<TDb['execute']>[0];
type TPlanNode = Record<string, unknown> & { Plans?: TPlanNode[] };
type TStatementWork = { kind: string; buffers: number; read: number; heapPages: number; rows: number; ms: number; plan?: string };

const args = process.argv.slice(2);
const jsonOut = args.includes('--json') ? args[args.indexOf('--json') + 1] : undefined;
const showPlans = args.includes('--plans');
const only = args.filter((a, i) => /^\d+$/.test(a) && args[i - 1] !== '--json').map(Number);

function kindOf(text: string): string {
  if (text.includes('from directory_titles t where') && text.startsWith('select t.title')) return 'titles';
  if (text.startsWith('select c.id::text as id from directory_companies')) return 'companies';
  if (text.startsWith('select n.id::text as id from directory_people')) return 'names';
  if (text.includes('directory_facet_rollups')) return text.includes("facet = '_total'") ? 'count (roll-ups)' : 'facets (roll-ups)';
  if (text.includes('with s as materialized')) return 'facets';
  if (text.startsWith('select count(*)')) return 'count';
  if (text.includes('join (select p.id')) return 'page';
  return 'other';
}

/** Table pages and directory rows a plan node and its children visited. */
function walk(node: TPlanNode, acc: { heapPages: number; rows: number }) {
  const loops = Number(node['Actual Loops'] ?? 1);
  const type = String(node['Node Type']);
  if (node['Relation Name'] === 'directory_people' || node['Index Name']?.toString().startsWith('directory_people')) {
    if (type !== 'Bitmap Index Scan') {
      acc.rows += (Number(node['Actual Rows'] ?? 0) + Number(node['Rows Removed by Filter'] ?? 0) + Number(node['Rows Removed by Index Recheck'] ?? 0)) * loops;
    }
  }
  if (type === 'Bitmap Heap Scan') acc.heapPages += Number(node['Exact Heap Blocks'] ?? 0) + Number(node['Lossy Heap Blocks'] ?? 0);
  if (type === 'Index Only Scan') acc.heapPages += Number(node['Heap Fetches'] ?? 0);
  if (type === 'Index Scan' && node['Relation Name'] === 'directory_people') acc.heapPages += Number(node['Actual Rows'] ?? 0) * loops;
  if (type === 'Seq Scan' && node['Relation Name'] === 'directory_people') acc.heapPages += Number(node['Shared Hit Blocks'] ?? 0) + Number(node['Shared Read Blocks'] ?? 0);
  for (const child of node.Plans ?? []) walk(child, acc);
}

async function explain(client: pg.PoolClient, text: string, params: unknown[]): Promise<Omit<TStatementWork, 'kind'>> {
  let best = Infinity;
  let root: TPlanNode | undefined;
  for (let i = 0; i < 3; i += 1) {
    const res = await client.query<{ 'QUERY PLAN': [{ Plan: TPlanNode; 'Execution Time': number; 'Planning Time': number }] }>(`explain (analyze, buffers, timing off, format json) ${text}`, params);
    const out = res.rows[0]!['QUERY PLAN'][0];
    best = Math.min(best, out['Execution Time'] + out['Planning Time']);
    root ??= out.Plan;
  }
  const acc = { heapPages: 0, rows: 0 };
  walk(root!, acc);
  let plan: string | undefined;
  if (showPlans) {
    const res = await client.query<{ 'QUERY PLAN': string }>(`explain (analyze, buffers, costs off, timing off) ${text}`, params);
    plan = res.rows.map((r) => r['QUERY PLAN']).join('\n');
  }
  return {
    buffers: Number(root!['Shared Hit Blocks'] ?? 0) + Number(root!['Shared Read Blocks'] ?? 0),
    read: Number(root!['Shared Read Blocks'] ?? 0),
    heapPages: acc.heapPages,
    rows: acc.rows,
    ms: best,
    plan,
  };
}

async function main() {
  const base = process.env.DATABASE_URL;
  const name = process.env.BENCH_REUSE_DB;
  if (!base || !name) throw new Error('Set DATABASE_URL (PostgreSQL) and BENCH_REUSE_DB (a database the bench kept).');
  const url = new URL(base);
  url.pathname = `/${name}`;
  const pool = new pg.Pool({ connectionString: url.toString(), max: 1 });
  const database = openPostgres(url.toString(), 2);
  const db = database.db;
  // Drizzle's own rendering of a query into text and parameters, as its driver sends them.
  const dialect = (db as unknown as { dialect: { sqlToQuery(q: TQuery): { sql: string; params: unknown[] } } }).dialect;
  const statements: { text: string; params: unknown[] }[] = [];
  const recording = {
    execute: (query: TQuery) => {
      const q = dialect.sqlToQuery(query);
      statements.push({ text: q.sql, params: q.params });
      return db.execute(query);
    },
  } as unknown as TDb;
  const engine = createSqlSearchEngine(recording);
  const client = await pool.connect();
  const report: { search: number; filters: unknown; statements: TStatementWork[] }[] = [];
  try {
    for (const [i, filters] of SEARCHES.entries()) {
      if (only.length && !only.includes(i + 1)) continue;
      statements.length = 0;
      await engine.searchPeople(filters, { sort: 'relevance', offset: 0, limit: 25 });
      await engine.facets(filters);
      const work: TStatementWork[] = [];
      for (const s of statements) work.push({ kind: kindOf(s.text), ...(await explain(client, s.text, s.params)) });
      report.push({ search: i + 1, filters, statements: work });
      const sum = (k: 'buffers' | 'heapPages' | 'rows' | 'ms') => work.reduce((n, w) => n + w[k], 0);
      console.log(
        `#${String(i + 1).padStart(2)} ${JSON.stringify(filters)}\n     total: ${sum('buffers')} buffers, ${sum('heapPages')} table pages, ${sum('rows')} rows, ${sum('ms').toFixed(1)} ms`,
      );
      for (const w of work) {
        console.log(`     ${w.kind.padEnd(18)} ${String(w.buffers).padStart(7)} buffers (${w.read} read) ${String(w.heapPages).padStart(6)} table pages ${String(w.rows).padStart(7)} rows ${w.ms.toFixed(1).padStart(7)} ms`);
        if (w.plan) console.log(w.plan.replace(/^/gm, '       | '));
      }
    }
  } finally {
    client.release();
    await pool.end();
    await database.close();
  }
  if (jsonOut) await writeFile(jsonOut, JSON.stringify(report, null, 2));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
