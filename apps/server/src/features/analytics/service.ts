import {
  getLocalParts,
  listBucketLabels,
  resolveDateRange,
  USAGE_FEATURES,
  type TBillableSplit,
  type TCreditTotals,
  type TDashboardData,
  type TFormGuardUsageData,
  type TFinderUsageData,
  type TGraphData,
  type TGraphPoint,
  type TOverviewUsageData,
  type TPerformanceRow,
  type TPerformanceStatsData,
  type TProspectUsageData,
  type TReportRange,
  type TResolvedRange,
  type TUsageFeature,
  type TVerifierUsageData,
  type ZDashboardQuery,
  type ZGraphRequest,
  type ZPerformanceStatsRequest,
  type ZReportRequest,
} from '@verilead/contracts';
import type { z } from 'zod';
import type { TDb } from '../../platform/db/database';
import { AppError, throwNotFound } from '../../platform/errors/app-error';
import type { TCallerContext } from '../../platform/tenancy/context';
import { selectUserTimeZone } from '../../platform/tenancy/time-zone';
import { listActivities } from '../activities';
import { getCreditsAndLimits } from '../credits';
import { summariseFinds } from '../email-finder';
import { summariseVerifications } from '../email-verifier';
import { listTeamMembers, listTeams } from '../team';
import {
  selectDashboardType,
  selectOrgMembers,
  selectUsageByMember,
  selectUsageSeries,
  selectUsageTotals,
  type TUsageFilter,
  type TUsageTotalRow,
} from './queries';

type TReportInput = z.output<typeof ZReportRequest>;

/** A resolved report: the rows it adds up and the range it answers for. */
type TReport = { filter: TUsageFilter; range: TResolvedRange; out: TReportRange };

export const TEAM_ANALYTICS_FORBIDDEN = 'Team analytics are for owners and managers.';
const BIG_PAGE = 500;

function isTeamViewer(ctx: TCallerContext): boolean {
  return ctx.role === 'owner' || ctx.role === 'admin';
}

function assertTeamViewer(ctx: TCallerContext): void {
  if (!isTeamViewer(ctx)) throw new AppError('forbidden', TEAM_ANALYTICS_FORBIDDEN);
}

/** The members of one of the caller's teams (404 for another organisation's team). */
async function selectTeamUserIds(exec: TDb, ctx: TCallerContext, teamId: string): Promise<string[]> {
  const team = await listTeamMembers(exec, ctx, { team_id: teamId, page: 1, limit: BIG_PAGE });
  return team.items.map((m) => m.member_id);
}

/**
 * The phase of the hourly organisation roll-up that matches the zone's hours over the whole range (minutes past
 * the UTC hour where its local hours start), or undefined when the zone changes phase inside it (Lord Howe's
 * half-hour daylight saving) and only the quarter-hour roll-up is exact.
 */
export function findHourPhase(from: Date, to: Date, timeZone: string): number | undefined {
  const phases = new Set<number>();
  const step = Math.max(3_600_000, Math.floor((to.getTime() - from.getTime()) / 48));
  for (let t = from.getTime(); t <= to.getTime(); t += step) {
    const p = getLocalParts(new Date(t), timeZone);
    const offset = Math.round((Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute) - Math.floor(t / 60_000) * 60_000) / 60_000);
    phases.add(((offset % 60) + 60) % 60);
  }
  const [only] = phases;
  return phases.size === 1 && only !== undefined && [0, 30, 45].includes(only) && from.getTime() % 900_000 === 0 ? only : undefined;
}

/** Whose rows and which instants a report covers, in the caller's time zone. */
async function resolveReport(exec: TDb, ctx: TCallerContext, input: TReportInput, now?: Date): Promise<TReport> {
  const timeZone = await selectUserTimeZone(exec, ctx.userId);
  const range = resolveDateRange(input.date_range, timeZone, now);
  let userIds: string[] | undefined = [ctx.userId];
  if (input.scope === 'organisation' || input.team_id || input.member_id) {
    assertTeamViewer(ctx);
    userIds = undefined;
    if (input.member_id) {
      const members = await selectOrgMembers(exec, ctx.orgId);
      if (!members.some((m) => m.user_id === input.member_id)) throwNotFound('Member');
      userIds = [input.member_id];
    }
    if (input.team_id) {
      const teamIds = await selectTeamUserIds(exec, ctx, input.team_id);
      userIds = userIds ? userIds.filter((id) => teamIds.includes(id)) : teamIds;
    }
  }
  // The whole organisation over whole local hours reads the hourly roll-up; anything else the quarter-hour one.
  const phase = !userIds && range.from.getTime() % 900_000 === 0 && range.to.getTime() % 900_000 === 0 ? findHourPhase(range.from, range.to, timeZone) : undefined;
  const aligned = phase !== undefined && [range.from, range.to].every((d) => (d.getTime() / 60_000 - phase) % 60 === 0);
  return {
    filter: { orgId: ctx.orgId, userIds, from: range.from, to: range.to, phase: aligned ? phase : undefined },
    range,
    out: { from: range.from.toISOString(), to: range.to.toISOString(), time_zone: timeZone, bucket: range.bucket },
  };
}

function addTotals(rows: TUsageTotalRow[]): TCreditTotals {
  const charged = rows.reduce((s, r) => s + Number(r.charged), 0);
  const refunded = rows.reduce((s, r) => s + Number(r.refunded), 0);
  return { charged, refunded, net: charged - refunded, charges: rows.reduce((s, r) => s + Number(r.charges), 0) };
}

function netOf(rows: TUsageTotalRow[]): number {
  return rows.reduce((s, r) => s + Number(r.charged) - Number(r.refunded), 0);
}

function emptyFeatures(): Record<TUsageFeature, number> {
  return { email_verifier: 0, email_finder: 0, prospect: 0, form_guard: 0, other: 0 };
}

function asFeature(value: string): TUsageFeature {
  return (USAGE_FEATURES as readonly string[]).includes(value) ? (value as TUsageFeature) : 'other';
}

/** POST /insights/graph: net credits per local hour, day or month and feature, every bucket present. */
export async function getUsageGraph(exec: TDb, ctx: TCallerContext, input: z.output<typeof ZGraphRequest>, now?: Date): Promise<TGraphData> {
  const report = await resolveReport(exec, ctx, input, now);
  const rows = await selectUsageSeries(exec, { ...report.filter, bucket: report.range.bucket, timeZone: report.range.timeZone });
  return { range: report.out, points: buildPoints(listBucketLabels(report.range), rows, input.feature) };
}

function buildPoints(labels: string[], rows: { label: string; feature: string; net: number }[], only?: TUsageFeature): TGraphPoint[] {
  const byLabel = new Map<string, Record<TUsageFeature, number>>(labels.map((l) => [l, emptyFeatures()]));
  for (const row of rows) {
    const feature = asFeature(row.feature);
    if (only && feature !== only) continue;
    const point = byLabel.get(row.label);
    if (point) point[feature] += Number(row.net);
  }
  return [...byLabel].map(([bucket, f]) => ({ bucket, ...f, total: Object.values(f).reduce((a, b) => a + b, 0) }));
}

/** POST /insights/performance_stats: net credits per member (or team) and feature. */
export async function getPerformanceStats(
  exec: TDb,
  ctx: TCallerContext,
  input: z.output<typeof ZPerformanceStatsRequest>,
  now?: Date,
): Promise<TPerformanceStatsData> {
  if (input.group_by === 'team') assertTeamViewer(ctx);
  // Teams are compared across the organisation (or inside the team or member asked for).
  const report = await resolveReport(exec, ctx, input.group_by === 'team' ? { ...input, scope: 'organisation' } : input, now);
  const [usage, members] = await Promise.all([selectUsageByMember(exec, report.filter), selectOrgMembers(exec, ctx.orgId)]);
  const perUser = new Map<string, Record<TUsageFeature, number>>();
  for (const row of usage) {
    const f = perUser.get(row.user_id) ?? emptyFeatures();
    f[asFeature(row.feature)] += Number(row.net);
    perUser.set(row.user_id, f);
  }
  const inScope = report.filter.userIds ? members.filter((m) => report.filter.userIds!.includes(m.user_id)) : members;
  const toRow = (id: string, name: string, email: string | null, role: string | null, f: Record<TUsageFeature, number>): TPerformanceRow => ({
    id,
    name,
    email,
    role,
    ...f,
    total: Object.values(f).reduce((a, b) => a + b, 0),
  });
  if (input.group_by === 'member') {
    const rows = inScope.map((m) => toRow(m.user_id, m.name, m.email, m.role, perUser.get(m.user_id) ?? emptyFeatures()));
    return { range: report.out, group_by: 'member', rows: rows.sort((a, b) => b.total - a.total || a.name.localeCompare(b.name)) };
  }
  const teams = await listTeams(exec, ctx, { page: 1, limit: BIG_PAGE });
  const rows: TPerformanceRow[] = [];
  const inTeam = new Set<string>();
  for (const team of teams.items) {
    const ids = (await selectTeamUserIds(exec, ctx, team.id)).filter((id) => inScope.some((m) => m.user_id === id));
    ids.forEach((id) => inTeam.add(id));
    rows.push(toRow(team.id, team.name, null, null, sumFeatures(ids.map((id) => perUser.get(id)))));
  }
  const rest = inScope.filter((m) => !inTeam.has(m.user_id)).map((m) => perUser.get(m.user_id));
  rows.push(toRow('no_team', 'No team', null, null, sumFeatures(rest)));
  return { range: report.out, group_by: 'team', rows: rows.sort((a, b) => b.total - a.total || a.name.localeCompare(b.name)) };
}

function sumFeatures(list: (Record<TUsageFeature, number> | undefined)[]): Record<TUsageFeature, number> {
  const sum = emptyFeatures();
  for (const f of list) if (f) for (const k of USAGE_FEATURES) sum[k] += f[k];
  return sum;
}

async function featureTotals(exec: TDb, filter: TUsageFilter, feature: TUsageFeature): Promise<TUsageTotalRow[]> {
  return (await selectUsageTotals(exec, filter)).filter((r) => asFeature(r.feature) === feature);
}

/** POST /reports/usage: the verifier's result metrics and the credits it was charged. */
export async function getVerifierUsage(exec: TDb, ctx: TCallerContext, input: TReportInput, now?: Date): Promise<TVerifierUsageData> {
  const report = await resolveReport(exec, ctx, input, now);
  const [summary, rows] = await Promise.all([summariseVerifications(exec, report.filter), featureTotals(exec, report.filter, 'email_verifier')]);
  return { range: report.out, stats: summary.stats, credits: addTotals(rows), instant: summary.instant, bulk: summary.bulk };
}

/** POST /reports/finder_usage: the finder's result metrics and the credits it was charged. */
export async function getFinderUsage(exec: TDb, ctx: TCallerContext, input: TReportInput, now?: Date): Promise<TFinderUsageData> {
  const report = await resolveReport(exec, ctx, input, now);
  const [summary, rows] = await Promise.all([summariseFinds(exec, report.filter), featureTotals(exec, report.filter, 'email_finder')]);
  return { range: report.out, stats: summary.stats, credits: addTotals(rows), instant: summary.instant, bulk: summary.bulk };
}

/** POST /reports/prospect_usage: prospect charges by what was revealed (phone, lead, e-mail) from the ledger. */
export async function getProspectUsage(exec: TDb, ctx: TCallerContext, input: TReportInput, now?: Date): Promise<TProspectUsageData> {
  const report = await resolveReport(exec, ctx, input, now);
  const rows = await featureTotals(exec, report.filter, 'prospect');
  const phone = rows.filter((r) => r.detail === 'phone');
  const lead = rows.filter((r) => r.detail === 'lead');
  const email = rows.filter((r) => r.detail !== 'phone' && r.detail !== 'lead');
  const count = (list: TUsageTotalRow[]) => list.reduce((s, r) => s + Number(r.charges) - Number(r.refunds), 0);
  return {
    range: report.out,
    stats: {
      total_billable_email_contact: netOf(email),
      total_billable_phone_contact: netOf(phone),
      total_billable_lead: netOf(lead),
      total_credits_charged: netOf(rows),
      email: count(email),
      phone: count(phone),
    },
    credits: addTotals(rows),
  };
}

/** POST /reports/js_widget_usage: form guard validations (charges) by field from the ledger. */
export async function getFormGuardUsage(exec: TDb, ctx: TCallerContext, input: TReportInput, now?: Date): Promise<TFormGuardUsageData> {
  const report = await resolveReport(exec, ctx, input, now);
  const rows = await featureTotals(exec, report.filter, 'form_guard');
  const count = (pick: (detail: string) => boolean) => rows.filter((r) => pick(r.detail)).reduce((s, r) => s + Number(r.charges) - Number(r.refunds), 0);
  return {
    range: report.out,
    stats: {
      total: count(() => true),
      phone: count((d) => d === 'phone'),
      name: count((d) => d === 'name'),
      email: count((d) => d !== 'phone' && d !== 'name'),
    },
    credits: addTotals(rows),
  };
}

function buildSplit(rows: TUsageTotalRow[]): TBillableSplit {
  const per = emptyFeatures();
  for (const r of rows) per[asFeature(r.feature)] += Number(r.charged) - Number(r.refunded);
  const total = Object.values(per).reduce((a, b) => a + b, 0);
  const metric = (value: number) => ({ value, percentage: total > 0 ? Math.round((value / total) * 10_000) / 100 : 0 });
  return {
    ev_billable: metric(per.email_verifier),
    ef_billable: metric(per.email_finder),
    prospect_billable: metric(per.prospect),
    js_widget_billable: metric(per.form_guard),
    other_billable: metric(per.other),
  };
}

/** POST /reports/overview_usage: the billable split of every feature with its share. */
export async function getOverviewUsage(exec: TDb, ctx: TCallerContext, input: TReportInput, now?: Date): Promise<TOverviewUsageData> {
  const report = await resolveReport(exec, ctx, input, now);
  const rows = await selectUsageTotals(exec, report.filter);
  return { range: report.out, split: buildSplit(rows), credits: addTotals(rows) };
}

/**
 * GET /dashboard: the overview widgets asked for, over the caller's own usage, or the organisation's for owners and
 * managers whose dashboard type is `team`.
 */
export async function getDashboard(exec: TDb, ctx: TCallerContext, query: z.output<typeof ZDashboardQuery>, now?: Date): Promise<TDashboardData> {
  if (query.org_id && query.org_id !== ctx.orgId) throwNotFound('Organisation');
  const team = isTeamViewer(ctx) && (await selectDashboardType(exec, ctx.userId)) === 'team';
  const report = await resolveReport(exec, ctx, { scope: team ? 'organisation' : 'me', date_range: query.date_range }, now);
  const want = new Set(query.show_widgets);
  const data: TDashboardData = { range: report.out, scope: team ? 'organisation' : 'me', widgets: query.show_widgets };
  // Every widget's query at once (a PostgreSQL pool answers them side by side).
  const [rows, credits, series, verifier, finder, activities] = await Promise.all([
    want.has('credits') || want.has('usage_split') ? selectUsageTotals(exec, report.filter) : [],
    want.has('credits') ? getCreditsAndLimits(exec, ctx) : null,
    want.has('usage_trend') ? selectUsageSeries(exec, { ...report.filter, bucket: report.range.bucket, timeZone: report.range.timeZone }) : null,
    want.has('email_verifier') ? summariseVerifications(exec, report.filter) : null,
    want.has('email_finder') ? summariseFinds(exec, report.filter) : null,
    want.has('recent_activity') ? listActivities(exec, ctx, { page: 1, limit: 25 }) : null,
  ]);
  if (credits) data.credits = { balance: credits.org_credits, available: credits.credits, used_in_range: netOf(rows) };
  if (want.has('usage_split')) data.usage_split = buildSplit(rows);
  if (series) data.usage_trend = buildPoints(listBucketLabels(report.range), series);
  if (verifier) data.email_verifier = verifier.stats;
  if (finder) data.email_finder = finder.stats;
  if (activities) data.recent_activity = activities.items.slice(0, 6).map((a) => ({ id: a.id, type: a.type, description: a.description, created_at: a.created_at }));
  return data;
}
