import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { ZDashboardResponse, ZFormGuardUsageResponse } from '@verilead/contracts';
import { selectRows } from '../../platform/db/database';
import { creditTransactions } from '../../platform/credits/tables';
import type { TTestApp } from '../../test/test-app';
import { net, perFeature, sumsWorld, ZONES, type TUser } from '../../test/report-sums-support';

/**
 * The dashboard's widgets against what the test reads itself from the ledger and the result tables, around local
 * midnight in two time zones (src/test/report-sums-support.ts), and who may read team analytics; the reports are in
 * report-sums-reports.test.ts.
 */

describe('every report adds up to the ledger and the result tables, by local day in two time zones', () => {
  let t: TTestApp;
  let owner: TUser;
  let manager: TUser;
  let exec: TUser;
  let research: string;
  let everyone: string[];

  const world = sumsWorld();
  const { post, onDay, setZone, ledgerOn, verifierOn, finderOn, seedAt } = world;

  beforeAll(async () => {
    ({ t, owner, manager, exec, research, everyone } = await world.start());
  }, 120_000);
  afterAll(async () => {
    await world.close();
  });

  it('a manager may read team analytics; an executive is refused', async () => {
    for (const body of [{ scope: 'organisation' }, { member_id: owner.userId }, { team_id: research }]) {
      for (const url of ['/reports/overview_usage', '/reports/usage', '/reports/finder_usage', '/reports/prospect_usage', '/reports/js_widget_usage', '/insights/graph']) {
        expect((await post(manager, url, { ...body, date_range: 'last_30_days' })).status, `${url} ${JSON.stringify(body)}`).toBe(200);
        const refused = await post(exec, url, { ...body, date_range: 'last_30_days' });
        expect(refused.status, `${url} ${JSON.stringify(body)}`).toBe(403);
        expect(refused.body.error.message).toBe('Team analytics are for owners and managers.');
      }
    }
    expect((await post(manager, '/insights/performance_stats', { group_by: 'team' })).status).toBe(200);
    expect((await post(exec, '/insights/performance_stats', { group_by: 'team' })).status).toBe(403);
    // A manager's team dashboard shows the organisation.
    await t.db.db.execute(sql`update users set dashboard_type = 'team' where id in (${manager.userId}, ${exec.userId})`);
    const dash = await t.call({ method: 'GET', url: '/api/v1/dashboard?show_widgets=credits', token: manager.token });
    expect(ZDashboardResponse.parse(dash.body).data.scope).toBe('organisation');
    // An executive's dashboard stays their own, whatever the setting says.
    const mine = await t.call({ method: 'GET', url: '/api/v1/dashboard?show_widgets=credits', token: exec.token });
    expect(ZDashboardResponse.parse(mine.body).data.scope).toBe('me');
  });

  it("the dashboard's widgets add up to the ledger and the result tables for today and yesterday, around local midnight", async () => {
    // The dashboard answers presets only, relative to now: seed a minute either side of today's local midnight of each zone.
    const midnights: string[] = [];
    for (const zone of ZONES) {
      const rows = await selectRows<{ m: string }>(t.db.db, sql`select to_char((date_trunc('day', now() at time zone ${zone}) at time zone ${zone}) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as m`);
      const m = Date.parse(rows[0]!.m);
      midnights.push(new Date(m - 60_000).toISOString(), new Date(m).toISOString(), new Date(m + 60_000).toISOString(), new Date(m - 86_400_000 + 3_600_000).toISOString());
    }
    await seedAt(midnights, everyone);
    await t.db.db.execute(sql`update users set dashboard_type = 'team' where id = ${owner.userId}`);
    for (const zone of ZONES) {
      for (const u of [owner, exec]) await setZone(u, zone);
      for (const [preset, back] of [
        ['today', 0],
        ['yesterday', 1],
      ] as const) {
        const d = (await selectRows<{ d: string }>(t.db.db, sql`select ((now() at time zone ${zone})::date - ${back}::int)::text as d`))[0]!.d;
        for (const [viewer, whose, scope] of [
          [owner, everyone, 'organisation'],
          [exec, [exec.userId], 'me'],
        ] as const) {
          const res = await t.call({ method: 'GET', url: `/api/v1/dashboard?date_range=${preset}`, token: viewer.token });
          expect(res.status, JSON.stringify(res.body)).toBe(200);
          const got = ZDashboardResponse.parse(res.body).data;
          expect(got.scope).toBe(scope);
          expect(got.range.time_zone).toBe(zone);
          const ledger = await ledgerOn(zone, d, [...whose]);
          const what = `${zone} ${preset} ${scope}`;
          expect(net(ledger), what).toBeGreaterThan(0);
          expect(got.credits?.used_in_range, what).toBe(net(ledger));
          const f = perFeature(ledger);
          expect(got.usage_split?.ev_billable.value, what).toBe(f.email_verifier);
          expect(got.usage_split?.prospect_billable.value, what).toBe(f.prospect);
          expect(got.usage_split?.js_widget_billable.value, what).toBe(f.form_guard);
          // The trend hour by hour: each local hour's net from the ledger.
          const hourly = await selectRows<{ h: string; user_id: string; kind: string; amount: number }>(
            t.db.db,
            sql`select to_char(created_at at time zone ${zone}, 'YYYY-MM-DD"T"HH24:00') as h, user_id, kind, amount from ${creditTransactions}
                where org_id = ${owner.orgId} and kind in ('charge', 'refund') and ${onDay(sql`created_at`, zone, d)}`,
          );
          const want = new Map<string, number>();
          for (const r of hourly.filter((h) => whose.includes(h.user_id))) want.set(r.h, (want.get(r.h) ?? 0) + (r.kind === 'charge' ? 1 : -1) * Number(r.amount));
          expect(got.usage_trend).toHaveLength(24);
          expect(Object.fromEntries(got.usage_trend!.filter((p) => p.total !== 0).map((p) => [p.bucket, p.total])), what).toEqual(
            Object.fromEntries([...want].filter(([, v]) => v !== 0)),
          );
          expect(got.email_verifier, what).toEqual((await verifierOn(zone, d, [...whose])).stats);
          expect(got.email_finder, what).toEqual((await finderOn(zone, d, [...whose])).stats);
        }
      }
    }
  });

  it('a real form guard check is reported under the field it checked', async () => {
    // A fresh organisation, so the report holds only these checks.
    const guardOwner = await t.createOwner('guard@sums.test');
    const origin = 'http://127.0.0.1:5555';
    const guard = await post(guardOwner, '/apps/create', { name: 'Signup', type: 'client', allowed_origins: [origin], form_guard: { fields: { email: true, phone: true, name: true } } });
    expect(guard.status, JSON.stringify(guard.body)).toBe(200);
    const checks: [string, string][] = [
      ['phone', '+1 415 555 0100'],
      ['phone', '+44 20 7946 0958'],
      ['name', 'Alice Smith'],
    ];
    for (const [i, [type, value]] of checks.entries()) {
      const res = await t.call({ method: 'POST', url: '/v2/form_guard/validate', headers: { authorization: `Bearer ${guard.body.data.token}`, origin }, payload: { type, value, request_id: `sums-check-${i}` } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    // The result table by field, against the report.
    const stored = await selectRows<{ type: string; n: number }>(
      t.db.db,
      sql`select type, count(*)::int as n from form_guard_checks where org_id = ${guardOwner.orgId} and credits_charged > 0 group by type`,
    );
    const byType: Record<string, number> = Object.fromEntries(stored.map((r) => [r.type, r.n]));
    expect(byType).toEqual({ phone: 2, name: 1 });
    const f = ZFormGuardUsageResponse.parse((await post(guardOwner, '/reports/js_widget_usage', { date_range: 'today' })).body).data;
    expect(f.stats).toEqual({ total: 3, email: byType.email ?? 0, phone: byType.phone, name: byType.name });
  });
});
