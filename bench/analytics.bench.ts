// Analytics benchmark: one organisation with 20 members and a year of 1,000,000 ledger rows on PostgreSQL
// (a fresh vl_bench_<random> database, dropped after), then every report of the insights area is asked for
// with long presets, for the whole organisation and for one member, and the p95 of each is printed.
// The rows are a realistic mix: 700,000 bulk charges in bursts (140 lists of 5,000 rows, each charged over
// 20 minutes) and 300,000 single charges (instant verifier and finder, prospect, form guard, reverse lookup)
// spread over the year. The roll-up table is filled the way migration 0010 fills it from an existing ledger
// (the trigger keeps it current afterwards).
// Run: npx tsx bench/analytics.bench.ts   (BENCH_ROWS=1000000, BENCH_RUNS=30, BENCH_PG_URL to override)
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import pg from 'pg';
import type { TCallerContext } from '../apps/server/src/platform/tenancy/context';
import { openPostgres, sql } from '../apps/server/src/platform/db/database';
import {
  getDashboard,
  getFinderUsage,
  getFormGuardUsage,
  getOverviewUsage,
  getPerformanceStats,
  getProspectUsage,
  getUsageGraph,
  getVerifierUsage,
} from '../apps/server/src/features/analytics/service';
import { rebuildUsageRollups } from '../apps/server/src/features/analytics/queries';
import { resolveDateRange, ZDashboardQuery, ZGraphRequest, ZPerformanceStatsRequest, ZReportRequest, type TDatePreset } from '@verilead/contracts';

const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const MEMBERS = 20;

function percentile(times: number[], q: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(sorted.length * q) - 1))]!;
}

async function main() {
  const name = `vl_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  const database = openPostgres(url.toString(), 4);
  try {
    await database.migrate();
    const db = database.db;
    const started = Date.now();
    const org = (await db.execute(sql`insert into organisations (name) values ('Bench Org') returning id`)) as unknown as { rows: { id: string }[] };
    const orgId = org.rows[0]!.id;
    const userIds: string[] = [];
    for (let i = 0; i < MEMBERS; i += 1) {
      const u = (await db.execute(sql`insert into users (email, name, timezone) values (${`member${i}@bench.test`}, ${`Member ${i}`}, 'Asia/Kolkata') returning id`)) as unknown as {
        rows: { id: string }[];
      };
      const id = u.rows[0]!.id;
      userIds.push(id);
      await db.execute(sql`insert into memberships (org_id, user_id, role) values (${orgId}, ${id}, ${i === 0 ? 'owner' : i < 3 ? 'admin' : 'analyst'})`);
    }
    const bulkRows = Math.round(ROWS * 0.7);
    const lists = Math.max(1, Math.round(bulkRows / 5000));
    const users = sql.raw(`array['${userIds.join("','")}']::uuid[]`);
    await db.execute(sql`alter table credit_transactions disable trigger credit_transactions_usage_rollup`);
    // Bulk lists: each list charged row by row within 20 minutes of its start.
    await db.execute(sql`
      insert into credit_transactions (org_id, user_id, kind, amount, reason, source_agent, object_type, object_id, balance_after, created_at)
      select ${orgId}, (${users})[1 + (l % ${MEMBERS})], 'charge', 1, 'Bulk', case when l % 3 = 0 then 'bulk_finder' else 'bulk_verify' end,
             case when l % 3 = 0 then 'finder_list_row' else 'verify_list_email' end, l || ':' || r, 1000,
             now() - interval '365 days' + (l * interval '365 days' / ${lists}) + (r * interval '20 minutes' / 5000)
      from generate_series(1, ${lists}) l, generate_series(1, ${Math.round(bulkRows / lists)}) r`);
    // Single charges and some refunds spread over the year.
    await db.execute(sql`
      insert into credit_transactions (org_id, user_id, kind, amount, reason, source_agent, object_type, balance_after, created_at)
      select ${orgId}, (${users})[1 + (i % ${MEMBERS})], case when i % 50 = 0 then 'refund' else 'charge' end, 1 + (i % 3), 'Single',
             (array['instant_verify','instant_finder','enrich_lead','add_lead','form_guard','reverse_lookup'])[1 + (i % 6)],
             (array['instant_verification','finder_instant','prospect_phone','prospect_lead','form_guard_email','reverse_lookup'])[1 + (i % 6)],
             1000, now() - (random() * interval '365 days')
      from generate_series(1, ${ROWS - bulkRows}) i`);
    await db.execute(sql`alter table credit_transactions enable trigger credit_transactions_usage_rollup`);
    await db.transaction((tx) => rebuildUsageRollups(tx, orgId));
    await db.execute(sql`analyze`);
    const counts = (await db.execute(sql`select (select count(*) from credit_transactions)::int as ledger, (select count(*) from usage_rollups)::int as rollup`)) as unknown as {
      rows: { ledger: number; rollup: number }[];
    };
    console.log(`seeded ${counts.rows[0]!.ledger} ledger rows (roll-up: ${counts.rows[0]!.rollup} rows) in ${((Date.now() - started) / 1000).toFixed(1)} s`);

    // What each range reads, whatever the machine's load: roll-up rows for the organisation (hourly, Kolkata's phase 30)
    // and for one member (quarter hours).
    for (const preset of ['last_30_days', 'this_year', 'last_year', 'last_two_years'] as const) {
      const { from, to } = resolveDateRange(preset, 'Asia/Kolkata');
      const read = (await db.execute(sql`select
          (select count(*) from usage_rollups_hourly where org_id = ${orgId} and phase = 30 and bucket >= ${from.toISOString()} and bucket < ${to.toISOString()})::int as org,
          (select count(*) from usage_rollups where org_id = ${orgId} and bucket >= ${from.toISOString()} and bucket < ${to.toISOString()})::int as org_quarters,
          (select count(*) from usage_rollups where org_id = ${orgId} and user_id = ${userIds[5]!} and bucket >= ${from.toISOString()} and bucket < ${to.toISOString()})::int as member`)) as unknown as {
        rows: { org: number; org_quarters: number; member: number }[];
      };
      const r = read.rows[0]!;
      console.log(`${preset}: roll-up rows read — organisation ${r.org} (hourly), per-member split ${r.org_quarters} (quarter hours), one member ${r.member}`);
    }

    const owner: TCallerContext = { userId: userIds[0]!, orgId, role: 'owner', sessionId: null, via: 'session' };
    const member: TCallerContext = { userId: userIds[5]!, orgId, role: 'analyst', sessionId: null, via: 'session' };
    const presets: TDatePreset[] = ['last_30_days', 'this_year', 'last_year', 'last_two_years'];
    type TCase = { name: string; run: (ctx: TCallerContext, preset: TDatePreset, scope: 'me' | 'organisation') => Promise<unknown> };
    const report = (p: TDatePreset, scope: 'me' | 'organisation') => ZReportRequest.parse({ date_range: p, scope });
    const cases: TCase[] = [
      { name: 'POST /insights/graph', run: (c, p, s) => getUsageGraph(database.db, c, ZGraphRequest.parse({ date_range: p, scope: s })) },
      { name: 'POST /insights/performance_stats', run: (c, p, s) => getPerformanceStats(database.db, c, ZPerformanceStatsRequest.parse({ date_range: p, scope: s })) },
      { name: 'POST /reports/overview_usage', run: (c, p, s) => getOverviewUsage(database.db, c, report(p, s)) },
      { name: 'POST /reports/usage', run: (c, p, s) => getVerifierUsage(database.db, c, report(p, s)) },
      { name: 'POST /reports/finder_usage', run: (c, p, s) => getFinderUsage(database.db, c, report(p, s)) },
      { name: 'POST /reports/prospect_usage', run: (c, p, s) => getProspectUsage(database.db, c, report(p, s)) },
      { name: 'POST /reports/js_widget_usage', run: (c, p, s) => getFormGuardUsage(database.db, c, report(p, s)) },
      { name: 'GET /dashboard', run: (c, p) => getDashboard(database.db, c, ZDashboardQuery.parse({ date_range: p })) },
    ];
    console.log(`\n${RUNS} runs each, p95 in ms (organisation as the owner | one member as an executive), Asia/Kolkata; load average ${loadavg()[0]!.toFixed(1)}:`);
    console.log(['report'.padEnd(34), ...presets.map((p) => p.padStart(22))].join(''));
    let worst = 0;
    const medians: number[] = [];
    for (const c of cases) {
      const cells: string[] = [];
      for (const preset of presets) {
        const figures: number[] = [];
        for (const [ctx, scope] of [
          [owner, 'organisation'],
          [member, 'me'],
        ] as const) {
          await c.run(ctx, preset, scope); // warm-up
          const times: number[] = [];
          for (let i = 0; i < RUNS; i += 1) {
            const t0 = performance.now();
            await c.run(ctx, preset, scope);
            times.push(performance.now() - t0);
          }
          figures.push(percentile(times, 0.95));
          medians.push(percentile(times, 0.5));
        }
        worst = Math.max(worst, ...figures);
        cells.push(`${figures[0]!.toFixed(1)} | ${figures[1]!.toFixed(1)}`.padStart(22));
      }
      console.log([c.name.padEnd(34), ...cells].join(''));
    }
    console.log(`\nworst p95: ${worst.toFixed(1)} ms, worst median: ${Math.max(...medians).toFixed(1)} ms (target: p95 ≤ 200 ms); load average now ${loadavg()[0]!.toFixed(1)}`);
  } finally {
    await database.close();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
