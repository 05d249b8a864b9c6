import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import {
  ZDashboardResponse,
  ZFormGuardUsageResponse,
  ZGraphResponse,
  ZOverviewUsageResponse,
  ZPerformanceStatsResponse,
  ZProspectUsageResponse,
  ZVerifierUsageResponse,
  ZFinderUsageResponse,
  type TSourceAgent,
} from '@verilead/contracts';
import { selectRows } from '../../platform/db/database';
import { creditTransactions } from '../../platform/credits/tables';
import { createTestApp, TEST_PASSWORD, type TTestApp } from '../../test/test-app';
import { inviteMember } from '../auth/service';
import { instantVerifications } from '../email-verifier/tables';

type TUser = { token: string; userId: string; orgId: string };

const KOLKATA = 'Asia/Kolkata'; // UTC+5:30
const NEW_YORK = 'America/New_York'; // UTC-4 in March 2026 (daylight time from 8 March)

/** Ledger rows around the 10 March 2026 day boundary of both zones. */
const SEED: { at: string; kind: 'charge' | 'refund'; amount: number; agent: string | null; object: string | null; who: 'owner' | 'exec' }[] = [
  { at: '2026-03-09T18:20:00Z', kind: 'charge', amount: 3, agent: 'instant_verify', object: 'instant_verification', who: 'owner' }, // Kolkata 9th 23:50, NY 9th
  { at: '2026-03-09T18:40:00Z', kind: 'charge', amount: 5, agent: 'bulk_verify', object: 'verify_list_email', who: 'owner' }, // Kolkata 10th 00:10
  { at: '2026-03-10T03:30:00Z', kind: 'charge', amount: 7, agent: 'instant_finder', object: 'finder_instant', who: 'exec' }, // NY 9th 23:30, Kolkata 10th
  { at: '2026-03-10T04:30:00Z', kind: 'charge', amount: 11, agent: 'bulk_finder', object: 'finder_list_row', who: 'exec' }, // NY 10th 00:30
  { at: '2026-03-10T12:00:00Z', kind: 'charge', amount: 13, agent: 'enrich_lead', object: 'prospect_phone', who: 'owner' },
  { at: '2026-03-10T12:05:00Z', kind: 'charge', amount: 2, agent: 'add_lead', object: 'prospect_lead', who: 'exec' },
  { at: '2026-03-10T12:10:00Z', kind: 'charge', amount: 4, agent: 'enrich_lead', object: 'prospect_email', who: 'owner' },
  { at: '2026-03-10T15:00:00Z', kind: 'charge', amount: 1, agent: 'form_guard', object: 'form_guard_email', who: 'owner' },
  { at: '2026-03-10T15:01:00Z', kind: 'charge', amount: 1, agent: 'form_guard', object: 'form_guard_phone', who: 'owner' },
  { at: '2026-03-10T15:02:00Z', kind: 'charge', amount: 1, agent: 'form_guard', object: 'form_guard_name', who: 'exec' },
  { at: '2026-03-10T16:00:00Z', kind: 'refund', amount: 2, agent: 'bulk_verify', object: 'verify_list_email', who: 'owner' },
  { at: '2026-03-10T20:00:00Z', kind: 'charge', amount: 17, agent: 'reverse_lookup', object: null, who: 'exec' }, // Kolkata 11th 01:30, NY 10th
  { at: '2026-03-11T03:59:00Z', kind: 'charge', amount: 19, agent: 'instant_verify', object: 'instant_verification', who: 'exec' }, // NY 10th 23:59
];

const FEATURE_SQL = sql`analytics_usage_feature(source_agent)`;

describe('analytics API', () => {
  let t: TTestApp;
  let owner: TUser;
  let exec: TUser;
  let stranger: TUser;
  let strangerTeamId: string;
  let teamId: string;

  /** What the ledger says: net credits per feature for one local day of `zone` (optionally one member). */
  async function ledgerNet(zone: string, day: string, userId?: string): Promise<Record<string, number>> {
    const who = userId ? sql`and user_id = ${userId}` : sql``;
    const rows = await selectRows<{ feature: string; net: number }>(
      t.db.db,
      sql`select ${FEATURE_SQL} as feature, sum(case when kind = 'charge' then amount else -amount end)::int as net
          from ${creditTransactions}
          where org_id = ${owner.orgId} and kind in ('charge', 'refund') and (created_at at time zone ${zone})::date = ${day}::date ${who}
          group by 1`,
    );
    return Object.fromEntries(rows.map((r) => [r.feature, r.net]));
  }

  async function setZone(user: TUser, timezone: string) {
    const res = await t.call({ method: 'POST', url: '/api/v1/user/timezone/edit', token: user.token, payload: { timezone } });
    expect(res.status).toBe(200);
  }

  const post = (user: TUser, url: string, payload: Record<string, unknown>) => t.call({ method: 'POST', url: `/api/v1${url}`, token: user.token, payload });
  const day = (d: string) => ({ from: d, to: d });

  beforeAll(async () => {
    t = await createTestApp();
    owner = await t.createOwner('owner@analytics.test', 'Olivia Owner');
    stranger = await t.createOwner('stranger@analytics.test');
    await inviteMember(t.deps, { ...owner, role: 'owner', sessionId: null, via: 'session' }, { email: 'exec@analytics.test', name: 'Eddie Exec', role: 'analyst' });
    const setup = await t.mailedToken('exec@analytics.test', '/setup_password');
    await t.call({ method: 'POST', url: '/api/v1/user/password/setup', payload: { token: setup, password: TEST_PASSWORD } });
    const l = await t.call({ method: 'POST', url: '/api/v1/user/login', payload: { email: 'exec@analytics.test', password: TEST_PASSWORD } });
    exec = { token: l.body.data.token, userId: l.body.data.user.id, orgId: owner.orgId };
    const team = await post(owner, '/admin/team/create', { name: 'Research', member_ids: [exec.userId] });
    teamId = team.body.data.team.id;
    strangerTeamId = (await post(stranger, '/admin/team/create', { name: 'Elsewhere' })).body.data.team.id;
    await t.db.db.insert(creditTransactions).values(
      SEED.map((s) => ({
        orgId: owner.orgId,
        userId: s.who === 'owner' ? owner.userId : exec.userId,
        kind: s.kind,
        amount: s.amount,
        reason: 'seed',
        sourceAgent: s.agent as TSourceAgent | null,
        objectType: s.object,
        balanceAfter: 1000,
        createdAt: new Date(s.at),
      })),
    );
    // The other organisation spends on the same day: never counted for the first.
    await t.db.db.insert(creditTransactions).values({
      orgId: stranger.orgId,
      userId: stranger.userId,
      kind: 'charge',
      amount: 1000,
      reason: 'seed',
      sourceAgent: 'bulk_verify',
      balanceAfter: 0,
      createdAt: new Date('2026-03-10T12:00:00Z'),
    });
    await t.db.db.insert(instantVerifications).values(
      (['valid', 'valid', 'invalid', 'unknown'] as const).map((status, i) => ({
        orgId: owner.orgId,
        userId: owner.userId,
        email: `p${i}@example.test`,
        status,
        result: { safe_to_send: status === 'valid' ? 'yes' : 'no', deliverability_score: status === 'valid' ? 0.9 : 0, disposable: i === 2, free_account: false, role_account: false, gibberish: false },
        billable: status !== 'unknown',
        creditsCharged: status !== 'unknown' ? 1 : 0,
        createdAt: new Date(`2026-03-10T0${i + 5}:00:00Z`),
      })),
    );
    await setZone(owner, KOLKATA);
    await setZone(exec, NEW_YORK);
  });
  afterAll(async () => {
    await t.close();
  });

  it('adds up the organisation per feature for a local day, as the ledger does, in two time zones', async () => {
    for (const [user, zone] of [
      [owner, KOLKATA],
      [exec, NEW_YORK],
    ] as const) {
      const expected = await ledgerNet(zone, '2026-03-10');
      // Executives see only their own usage; the organisation's figure is checked with the owner in both zones.
      const viewer = user === owner ? owner : exec;
      const scope = viewer === owner ? { scope: 'organisation' } : {};
      const mine = viewer === owner ? expected : await ledgerNet(zone, '2026-03-10', exec.userId);
      const res = await post(viewer, '/reports/overview_usage', { date_range: day('2026-03-10'), ...scope });
      expect(res.status).toBe(200);
      const d = ZOverviewUsageResponse.parse(res.body).data;
      expect(d.range.time_zone).toBe(zone);
      expect(d.split.ev_billable.value).toBe(mine.email_verifier ?? 0);
      expect(d.split.ef_billable.value).toBe(mine.email_finder ?? 0);
      expect(d.split.prospect_billable.value).toBe(mine.prospect ?? 0);
      expect(d.split.js_widget_billable.value).toBe(mine.form_guard ?? 0);
      expect(d.split.other_billable.value).toBe(mine.other ?? 0);
      expect(d.credits.net).toBe(Object.values(mine).reduce((a, b) => a + b, 0));
    }
  });

  it('draws a local day hour by hour and a week day by day, summing to the ledger', async () => {
    const res = await post(owner, '/insights/graph', { scope: 'organisation', date_range: day('2026-03-10') });
    const d = ZGraphResponse.parse(res.body).data;
    expect(d.range.bucket).toBe('hour');
    expect(d.points).toHaveLength(24);
    expect(d.points[0]!.bucket).toBe('2026-03-10T00:00');
    // Kolkata 00:10 on the 10th is the bulk verification (5 credits) charged at 18:40 UTC the day before.
    expect(d.points[0]!.email_verifier).toBe(5);
    const expected = await ledgerNet(KOLKATA, '2026-03-10');
    expect(d.points.reduce((s, p) => s + p.total, 0)).toBe(Object.values(expected).reduce((a, b) => a + b, 0));

    const week = ZGraphResponse.parse((await post(owner, '/insights/graph', { scope: 'organisation', date_range: { from: '2026-03-08', to: '2026-03-12' } })).body).data;
    expect(week.range.bucket).toBe('day');
    expect(week.points.map((p) => p.bucket)).toEqual(['2026-03-08', '2026-03-09', '2026-03-10', '2026-03-11', '2026-03-12']);
    for (const p of week.points) {
      const e = await ledgerNet(KOLKATA, p.bucket);
      expect(p.total).toBe(Object.values(e).reduce((a, b) => a + b, 0));
    }
    // The executive in New York: their own rows only, by New York days.
    const mine = ZGraphResponse.parse((await post(exec, '/insights/graph', { date_range: { from: '2026-03-08', to: '2026-03-12' } })).body).data;
    for (const p of mine.points) {
      const e = await ledgerNet(NEW_YORK, p.bucket, exec.userId);
      expect(p.total).toBe(Object.values(e).reduce((a, b) => a + b, 0));
    }
  });

  it('reports prospect and form guard usage by what was charged', async () => {
    const p = ZProspectUsageResponse.parse((await post(owner, '/reports/prospect_usage', { scope: 'organisation', date_range: day('2026-03-10') })).body).data;
    expect(p.stats).toEqual({ total_billable_email_contact: 4, total_billable_phone_contact: 13, total_billable_lead: 2, total_credits_charged: 19, email: 1, phone: 1 });
    const f = ZFormGuardUsageResponse.parse((await post(owner, '/reports/js_widget_usage', { scope: 'organisation', date_range: day('2026-03-10') })).body).data;
    expect(f.stats).toEqual({ total: 3, email: 1, phone: 1, name: 1 });
  });

  it('reports verifier results and credits, and the finder credits', async () => {
    const v = ZVerifierUsageResponse.parse((await post(owner, '/reports/usage', { date_range: day('2026-03-10') })).body).data;
    expect(v.stats).toMatchObject({ total: 4, valid: 2, invalid: 1, unknown: 1, billable: 3, safe_to_send: 2, disposable: 1, deliverability_score: 90 });
    // The owner's own verifier credits that Kolkata day: 5 charged (00:10), 2 refunded.
    expect(v.credits).toEqual({ charged: 5, refunded: 2, net: 3, charges: 1 });
    const ef = ZFinderUsageResponse.parse((await post(owner, '/reports/finder_usage', { scope: 'organisation', date_range: day('2026-03-10') })).body).data;
    expect(ef.credits.net).toBe(18);
  });

  it('splits the organisation per member and per team for owners', async () => {
    const res = await post(owner, '/insights/performance_stats', { scope: 'organisation', date_range: day('2026-03-10') });
    const d = ZPerformanceStatsResponse.parse(res.body).data;
    const byId = Object.fromEntries(d.rows.map((r) => [r.id, r.total]));
    const ownerNet = Object.values(await ledgerNet(KOLKATA, '2026-03-10', owner.userId)).reduce((a, b) => a + b, 0);
    const execNet = Object.values(await ledgerNet(KOLKATA, '2026-03-10', exec.userId)).reduce((a, b) => a + b, 0);
    expect(byId[owner.userId]).toBe(ownerNet);
    expect(byId[exec.userId]).toBe(execNet);
    const teams = ZPerformanceStatsResponse.parse((await post(owner, '/insights/performance_stats', { group_by: 'team', date_range: day('2026-03-10') })).body).data;
    expect(Object.fromEntries(teams.rows.map((r) => [r.name, r.total]))).toEqual({ Research: execNet, 'No team': ownerNet });
    const oneTeam = ZOverviewUsageResponse.parse((await post(owner, '/reports/overview_usage', { team_id: teamId, date_range: day('2026-03-10') })).body).data;
    expect(oneTeam.credits.net).toBe(execNet);
    const oneMember = ZOverviewUsageResponse.parse((await post(owner, '/reports/overview_usage', { member_id: exec.userId, date_range: day('2026-03-10') })).body).data;
    expect(oneMember.credits.net).toBe(execNet);
  });

  it('refuses team analytics to executives', async () => {
    for (const body of [{ scope: 'organisation' }, { member_id: owner.userId }, { team_id: teamId }]) {
      const res = await post(exec, '/reports/overview_usage', { ...body, date_range: 'last_30_days' });
      expect(res.status).toBe(403);
      expect(res.body.error.message).toBe('Team analytics are for owners and managers.');
    }
    expect((await post(exec, '/insights/performance_stats', { group_by: 'team' })).status).toBe(403);
    const own = await post(exec, '/insights/performance_stats', { date_range: day('2026-03-10') });
    expect(own.status).toBe(200);
    expect(own.body.data.rows.map((r: { id: string }) => r.id)).toEqual([exec.userId]);
  });

  it("answers 404 for another organisation's member, team and dashboard", async () => {
    expect((await post(owner, '/reports/overview_usage', { member_id: stranger.userId })).status).toBe(404);
    expect((await post(owner, '/insights/graph', { team_id: strangerTeamId })).status).toBe(404);
    const dash = await t.call({ method: 'GET', url: `/api/v1/dashboard?org_id=${stranger.orgId}`, token: owner.token });
    expect(dash.status).toBe(404);
  });

  it('answers readable 400s for bad ranges and widgets', async () => {
    const bad = await post(owner, '/reports/usage', { date_range: 'last_decade' });
    expect(bad.status).toBe(400);
    const reversed = await post(owner, '/reports/usage', { date_range: { from: '2026-03-10', to: '2026-03-01' } });
    expect(reversed.status).toBe(400);
    expect(JSON.stringify(reversed.body.error)).toContain('The start date must be on or before the end date');
    const widget = await t.call({ method: 'GET', url: '/api/v1/dashboard?show_widgets=credits,weather', token: owner.token });
    expect(widget.status).toBe(400);
    expect(JSON.stringify(widget.body.error)).toContain('Unknown widget weather');
  });

  it('serves the dashboard widgets asked for', async () => {
    const res = await t.call({ method: 'GET', url: `/api/v1/dashboard?show_widgets=credits,usage_trend&date_range=last_7_days&org_id=${owner.orgId}`, token: owner.token });
    expect(res.status).toBe(200);
    const d = ZDashboardResponse.parse(res.body).data;
    expect(d.widgets).toEqual(['credits', 'usage_trend']);
    expect(d.credits?.balance).toBeGreaterThan(0);
    expect(d.usage_trend).toHaveLength(7);
    expect(d.usage_split).toBeUndefined();
    const all = ZDashboardResponse.parse((await t.call({ method: 'GET', url: '/api/v1/dashboard', token: exec.token })).body).data;
    expect(Object.keys(all)).toEqual(expect.arrayContaining(['credits', 'usage_split', 'usage_trend', 'email_verifier', 'email_finder', 'recent_activity']));
  });
});
