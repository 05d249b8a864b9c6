// Analytics benchmark: one organisation with 20 members and a year of 1,000,000 ledger rows on PostgreSQL
// (a fresh vl_bench_<random> database, dropped after), then every report of the insights area is asked for
// with long presets, for the whole organisation and for one member, and the p95 of each is printed.
// The rows are a realistic mix: 700,000 bulk charges in bursts (140 lists of 5,000 rows, each charged over
// 20 minutes) and 300,000 single charges (instant verifier and finder, prospect, form guard, reverse lookup)
// spread over the year. The roll-up table is filled the way migration 0010 fills it from an existing ledger
// (the trigger keeps it current afterwards). The result tables are filled in proportion (seedResults): a verifier or
// finder list per burst, and one instant verification, instant search and form guard check per single charge of its kind.
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
import { getJsWidgetUsage } from '../apps/server/src/features/form-guard/service';
import { resolveDateRange, ZDashboardQuery, ZGraphRequest, ZJsWidgetUsageRequest, ZPerformanceStatsRequest, ZReportRequest, type TDatePreset } from '@verilead/contracts';
import type { TDb } from '../apps/server/src/platform/db/database';

const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const MEMBERS = 20;

function percentile(times: number[], q: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(sorted.length * q) - 1))]!;
}

/**
 * The result tables the reports read beside the ledger, in proportion to it: a verifier list (l % 3 ≠ 0) or finder
 * list (l % 3 = 0) per bulk burst with its counters, and as many instant verifications, instant searches and form
 * guard checks as there are single charges of each kind, spread over the year (one set-based insert each).
 */
async function seedResults(db: TDb, s: { orgId: string; users: ReturnType<typeof sql.raw>; lists: number; rowsPerList: number; singles: number }) {
  const r = s.rowsPerList;
  // Counts written into the statement (computed here, never input): jsonb_build_object cannot type parameters.
  const n = (v: number) => sql.raw(String(v));
  const start = sql`now() - interval '365 days' + (l * interval '365 days' / ${n(s.lists)})`;
  await db.execute(sql`
    insert into verify_lists (org_id, user_id, name, file_name, file_type, storage_key, size_bytes, email_column, has_header, state, analysis_state,
                              row_count, unique_count, duplicate_count, syntax_error_count, counters, created_at, updated_at, verified_at)
    select ${s.orgId}, (${s.users})[1 + (l % ${MEMBERS})], 'Bench list ' || l, 'list.csv', 'csv', 'bench/list-' || l, ${n(r * 30)}, 0, true, 'verified', 'ready',
           ${n(r + Math.round(r / 40))}, ${n(r)}, ${n(Math.round(r / 50))}, ${n(Math.round(r / 200))},
           jsonb_build_object('verified', ${n(r)}, 'valid', ${n(Math.round(r * 0.6))}, 'invalid', ${n(Math.round(r * 0.2))}, 'catch_all', ${n(Math.round(r * 0.12))},
                              'unknown', ${n(r - Math.round(r * 0.6) - Math.round(r * 0.2) - Math.round(r * 0.12))}, 'disposable', ${n(Math.round(r / 50))},
                              'gibberish', ${n(Math.round(r / 100))}, 'free_account', ${n(Math.round(r / 5))}, 'role_account', ${n(Math.round(r / 20))},
                              'billable', ${n(Math.round(r * 0.92))}, 'safe_to_send', ${n(Math.round(r * 0.55))}, 'valid_score_sum', ${n(Math.round(r * 0.6) * 0.86)}),
           ${start}, ${start} + interval '20 minutes', ${start} + interval '20 minutes'
    from generate_series(1, ${n(s.lists)}) l where l % 3 <> 0`);
  await db.execute(sql`
    insert into finder_lists (org_id, user_id, name, file_name, file_type, storage_key, size_bytes, has_header, header, mapping, state,
                              row_count, searchable_count, counters, created_at, updated_at, processed_at)
    select ${s.orgId}, (${s.users})[1 + (l % ${MEMBERS})], 'Bench finder list ' || l, 'people.csv', 'csv', 'bench/finder-' || l, ${n(r * 40)}, true,
           '["First","Last","Domain"]'::jsonb, '{"first_name":0,"last_name":1,"domain":2}'::jsonb, 'processed', ${n(r)}, ${n(r)},
           jsonb_build_object('processed', ${n(r)}, 'found', ${n(Math.round(r * 0.7))}, 'not_found', ${n(r - Math.round(r * 0.7))}, 'business', ${n(Math.round(r * 0.5))},
                              'role', ${n(Math.round(r * 0.05))}, 'catch_all', ${n(Math.round(r * 0.1))}, 'confidence_sum', ${n(Math.round(r * 0.7) * 78)}, 'billable', ${n(Math.round(r * 0.7))}),
           ${start}, ${start} + interval '20 minutes', ${start} + interval '20 minutes'
    from generate_series(1, ${n(s.lists)}) l where l % 3 = 0`);
  const each = Math.round(s.singles / 6);
  await db.execute(sql`
    insert into instant_verifications (org_id, user_id, email, status, source, result, billable, credits_charged, created_at)
    select ${s.orgId}, (${s.users})[1 + (i % ${MEMBERS})], 'person' || i || '@example.test', st, case when i % 4 = 0 then 'api' else 'app' end,
           jsonb_build_object('safe_to_send', case when st = 'valid' then 'yes' else 'no' end, 'deliverability_score', case when st = 'valid' then 0.7 + (i % 30) / 100.0 else 0 end,
                              'disposable', i % 40 = 0, 'free_account', i % 5 = 0, 'role_account', i % 20 = 0, 'gibberish', i % 90 = 0),
           st <> 'unknown', case when st <> 'unknown' then 1 else 0 end, now() - (random() * interval '365 days')
    from generate_series(1, ${n(each)}) i, lateral (select (array['valid','valid','valid','invalid','catch_all','unknown'])[1 + (i % 6)] as st) s`);
  await db.execute(sql`
    insert into finder_instant (org_id, user_id, state, input, status, email, full_name, domain, result, credits_charged, created_at, completed_at)
    select ${s.orgId}, (${s.users})[1 + (i % ${MEMBERS})], 'completed', '{}'::jsonb, case when i % 10 < 7 then 'found' else 'not_found' end,
           case when i % 10 < 7 then 'person' || i || '@example.test' end, 'Person ' || i, 'example.test',
           case when i % 10 < 7 then jsonb_build_object('business', i % 2 = 0, 'role', i % 20 = 0, 'confidence_score', 50 + i % 50) else '{}'::jsonb end,
           case when i % 10 < 7 then 1 else 0 end, t, t
    from generate_series(1, ${n(each)}) i, lateral (select now() - (random() * interval '365 days') as t) s`);
  const app = (await db.execute(sql`
    insert into apps (org_id, user_id, name, type, token_hash, token_hint, rate_limit, allowed_origins, form_guard)
    values (${s.orgId}, (${s.users})[1], 'Bench guard', 'client', 'bench-token-hash', 'hash', '{"window":"minute","max":60,"scope":"ip"}'::jsonb,
            '["https://bench.example"]'::jsonb, '{"fields":{"email":true,"phone":true,"name":true}}'::jsonb) returning id`)) as unknown as { rows: { id: string }[] };
  await db.execute(sql`
    insert into form_guard_checks (org_id, app_id, request_id, type, value, is_acceptable, reason, credits_charged, details, created_at)
    select ${s.orgId}, ${app.rows[0]!.id}, 'bench-' || i, (array['email','email','phone','name'])[1 + (i % 4)], 'value ' || i, case when i % 9 = 0 then 0 else 1 end,
           case when i % 9 = 0 then 'rejected' end, 1, '{}'::jsonb, now() - (random() * interval '365 days')
    from generate_series(1, ${n(each)}) i`);
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
             case when i % 6 = 4 then (array['form_guard_email','form_guard_phone','form_guard_name'])[1 + (i / 6) % 3]
                  else (array['instant_verification','finder_instant','prospect_phone','prospect_lead','','prospect_lookup'])[1 + (i % 6)] end,
             1000, now() - (random() * interval '365 days')
      from generate_series(1, ${ROWS - bulkRows}) i`);
    await db.execute(sql`alter table credit_transactions enable trigger credit_transactions_usage_rollup`);
    await seedResults(db, { orgId, users, lists, rowsPerList: Math.round(bulkRows / lists), singles: ROWS - bulkRows });
    await db.transaction((tx) => rebuildUsageRollups(tx, orgId));
    await db.execute(sql`analyze`);
    const counts = (await db.execute(sql`select (select count(*) from credit_transactions)::int as ledger, (select count(*) from usage_rollups)::int as rollup,
        (select count(*) from verify_lists)::int as verify_lists, (select count(*) from instant_verifications)::int as instant_verifications,
        (select count(*) from finder_lists)::int as finder_lists, (select count(*) from finder_instant)::int as finder_instant,
        (select count(*) from form_guard_checks)::int as form_guard_checks`)) as unknown as { rows: Record<string, number>[] };
    const c = counts.rows[0]!;
    console.log(`seeded ${c.ledger} ledger rows (roll-up: ${c.rollup} rows) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    console.log(
      `results: ${c.verify_lists} verifier lists, ${c.instant_verifications} instant verifications, ${c.finder_lists} finder lists, ${c.finder_instant} instant searches, ${c.form_guard_checks} form guard checks`,
    );

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
      // The Form Guard analytics screen's call (form guard checks by day, field and guard; the organisation's).
      { name: 'POST /form_guard/usage', run: (c, p) => getJsWidgetUsage(database.db, c, ZJsWidgetUsageRequest.parse({ date_range: p })) },
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
