import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZFinderUsageResponse, ZFormGuardUsageResponse, ZOverviewUsageResponse, ZPerformanceStatsResponse, ZProspectUsageResponse, ZVerifierUsageResponse } from '@verilead/contracts';
import { count, credits, DAYS, featureOf, fieldOf, KOLKATA, net, NEW_YORK, perFeature, sumsWorld, ZONES, type TUser } from '../../test/report-sums-support';

/**
 * Every report against what the test reads itself from the ledger and the result tables, for local days on both sides
 * of midnight in two time zones (src/test/report-sums-support.ts); the dashboard and the access rules are in
 * report-sums-dashboard.test.ts.
 */

describe('every report adds up to the ledger and the result tables, by local day in two time zones', () => {
  let owner: TUser;
  let manager: TUser;
  let exec: TUser;
  let research: string;
  let everyone: string[];

  const world = sumsWorld();
  const { post, day, setZone, ledgerOn, verifierOn, finderOn } = world;

  beforeAll(async () => {
    ({ owner, manager, exec, research, everyone } = await world.start());
  }, 120_000);
  afterAll(async () => {
    await world.close();
  });

  it('the seed puts usage on both sides of each midnight (so a wrong zone or boundary changes the figures)', async () => {
    for (const zone of ZONES) {
      const perDay = await Promise.all(DAYS.map(async (d) => net(await ledgerOn(zone, d))));
      expect(perDay.every((n) => n > 0)).toBe(true);
      expect(new Set(perDay).size).toBe(3);
    }
    // The same UTC day read in the two zones differs.
    expect(net(await ledgerOn(KOLKATA, '2026-03-10'))).not.toBe(net(await ledgerOn(NEW_YORK, '2026-03-10')));
  });

  for (const zone of ZONES) {
    describe(`in ${zone}`, () => {
      beforeAll(async () => {
        for (const u of [owner, manager, exec]) await setZone(u, zone);
      });

      it('verifier report: results from the lists and instant results, credits from the ledger', async () => {
        for (const d of DAYS) {
          for (const [viewer, scope, whose] of [
            [owner, { scope: 'organisation' }, everyone],
            [manager, { team_id: research }, [exec.userId, manager.userId]],
            [exec, {}, [exec.userId]],
          ] as const) {
            const res = await post(viewer, '/reports/usage', { date_range: day(d), ...scope });
            expect(res.status, JSON.stringify(res.body)).toBe(200);
            const got = ZVerifierUsageResponse.parse(res.body).data;
            expect(got.range.time_zone).toBe(zone);
            const want = await verifierOn(zone, d, [...whose]);
            expect(got.stats, `${zone} ${d}`).toEqual(want.stats);
            expect({ instant: got.instant, bulk: got.bulk }).toEqual({ instant: want.instant, bulk: want.bulk });
            expect(got.credits).toEqual(credits((await ledgerOn(zone, d, [...whose])).filter((r) => featureOf(r) === 'email_verifier')));
          }
        }
      });

      it('finder report: results from the lists and finished instant searches, credits from the ledger', async () => {
        for (const d of DAYS) {
          for (const [viewer, scope, whose] of [
            [owner, { scope: 'organisation' }, everyone],
            [manager, { member_id: owner.userId }, [owner.userId]],
            [exec, {}, [exec.userId]],
          ] as const) {
            const got = ZFinderUsageResponse.parse((await post(viewer, '/reports/finder_usage', { date_range: day(d), ...scope })).body).data;
            const want = await finderOn(zone, d, [...whose]);
            expect(got.stats, `${zone} ${d}`).toEqual(want.stats);
            expect({ instant: got.instant, bulk: got.bulk }).toEqual({ instant: want.instant, bulk: want.bulk });
            expect(got.credits).toEqual(credits((await ledgerOn(zone, d, [...whose])).filter((r) => featureOf(r) === 'email_finder')));
          }
        }
      });

      it('prospect and form guard reports: what was charged, by field', async () => {
        for (const d of DAYS) {
          for (const [viewer, scope, whose] of [
            [owner, { scope: 'organisation' }, everyone],
            [manager, { scope: 'organisation' }, everyone],
            [exec, {}, [exec.userId]],
          ] as const) {
            const ledger = await ledgerOn(zone, d, [...whose]);
            const prospect = ledger.filter((r) => featureOf(r) === 'prospect');
            const p = ZProspectUsageResponse.parse((await post(viewer, '/reports/prospect_usage', { date_range: day(d), ...scope })).body).data;
            const email = prospect.filter((r) => fieldOf(r) === 'email');
            const phone = prospect.filter((r) => fieldOf(r) === 'phone');
            expect(p.stats, `${zone} ${d}`).toEqual({
              total_billable_email_contact: net(email),
              total_billable_phone_contact: net(phone),
              total_billable_lead: net(prospect.filter((r) => fieldOf(r) === 'lead')),
              total_credits_charged: net(prospect),
              email: count(email),
              phone: count(phone),
            });
            expect(p.credits).toEqual(credits(prospect));

            const guard = ledger.filter((r) => featureOf(r) === 'form_guard');
            const f = ZFormGuardUsageResponse.parse((await post(viewer, '/reports/js_widget_usage', { date_range: day(d), ...scope })).body).data;
            const field = (name: string) => count(guard.filter((r) => fieldOf(r) === name));
            expect(f.stats, `${zone} ${d}`).toEqual({ total: count(guard), email: field('email'), phone: field('phone'), name: field('name') });
            expect(f.credits).toEqual(credits(guard));
          }
        }
      });

      it('overview split and per-member and per-team performance', async () => {
        for (const d of DAYS) {
          const ledger = await ledgerOn(zone, d);
          const o = ZOverviewUsageResponse.parse((await post(manager, '/reports/overview_usage', { date_range: day(d), scope: 'organisation' })).body).data;
          const f = perFeature(ledger);
          expect([o.split.ev_billable.value, o.split.ef_billable.value, o.split.prospect_billable.value, o.split.js_widget_billable.value, o.split.other_billable.value]).toEqual([
            f.email_verifier,
            f.email_finder,
            f.prospect,
            f.form_guard,
            f.other,
          ]);
          expect(o.credits).toEqual(credits(ledger));

          for (const viewer of [owner, manager]) {
            const members = ZPerformanceStatsResponse.parse((await post(viewer, '/insights/performance_stats', { date_range: day(d), scope: 'organisation' })).body).data;
            expect(members.rows.map((r) => r.id).sort()).toEqual([...everyone].sort());
            for (const row of members.rows) {
              const mine = ledger.filter((r) => r.user_id === row.id);
              expect({ ...row, id: undefined, name: undefined, email: undefined, role: undefined }, `${zone} ${d} ${row.name}`).toEqual({
                id: undefined,
                name: undefined,
                email: undefined,
                role: undefined,
                ...perFeature(mine),
                total: net(mine),
              });
            }
            const teams = ZPerformanceStatsResponse.parse((await post(viewer, '/insights/performance_stats', { date_range: day(d), group_by: 'team' })).body).data;
            const inResearch = ledger.filter((r) => r.user_id === exec.userId || r.user_id === manager.userId);
            const noTeam = ledger.filter((r) => r.user_id === owner.userId);
            expect(Object.fromEntries(teams.rows.map((r) => [r.name, [r.total, r.prospect]]))).toEqual({
              Research: [net(inResearch), perFeature(inResearch).prospect],
              'No team': [net(noTeam), perFeature(noTeam).prospect],
            });
          }
          // An executive's performance is their own row only.
          const own = ZPerformanceStatsResponse.parse((await post(exec, '/insights/performance_stats', { date_range: day(d) })).body).data;
          expect(own.rows.map((r) => [r.id, r.total])).toEqual([[exec.userId, net(ledger.filter((r) => r.user_id === exec.userId))]]);
        }
      });
    });
  }
});
