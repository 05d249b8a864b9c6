import { z } from 'zod';
import { ZDatePreset, ZDateRange } from './date-presets';
import { ZSuccess } from './envelopes';

// Insights and reports (spec section 7): every report answers for a date range evaluated in the caller's
// time zone, for the caller alone or, for owners and managers, the organisation, a team or one member.

/** The product areas credits are spent on (the ledger's source agents grouped). */
export const USAGE_FEATURES = ['email_verifier', 'email_finder', 'prospect', 'form_guard', 'other'] as const;
export const ZUsageFeature = z.enum(USAGE_FEATURES);
export type TUsageFeature = z.infer<typeof ZUsageFeature>;

export const USAGE_FEATURE_LABELS: Readonly<Record<TUsageFeature, string>> = {
  email_verifier: 'Email Verifier',
  email_finder: 'Email Finder',
  prospect: 'Prospect',
  form_guard: 'Form Guard',
  other: 'Other',
};

/**
 * Whose usage: `me` (default; the only choice for executives), `organisation` (every member), or one
 * `team_id` / `member_id` of the caller's organisation. Anything but `me` is for owners and managers.
 */
export const ZReportScope = z.object({
  scope: z.enum(['me', 'organisation'], { message: 'Please choose me or organisation' }).default('me'),
  team_id: z.uuid({ message: 'Please choose a team' }).optional(),
  member_id: z.uuid({ message: 'Please choose a member' }).optional(),
});

export const ZReportRequest = ZReportScope.extend({ date_range: ZDateRange.default('last_30_days') });
export type TReportRequest = z.input<typeof ZReportRequest>;

/** What every report repeats about the range it answered for. */
export const ZReportRange = z.object({
  from: z.string(),
  to: z.string(),
  time_zone: z.string(),
  bucket: z.enum(['hour', 'day', 'month']),
});
export type TReportRange = z.infer<typeof ZReportRange>;

/** A value with its share of the whole (spec: "a percentage metric holds value and percentage"). */
export const ZPercentageMetric = z.object({ value: z.number(), percentage: z.number() });
export type TPercentageMetric = z.infer<typeof ZPercentageMetric>;

const ZCount = z.number().int();

/** An object of integer counts, one per key. */
function ZCounts<K extends string>(keys: readonly K[]) {
  return z.object(Object.fromEntries(keys.map((k) => [k, ZCount])) as Record<K, typeof ZCount>);
}

/** Credits from the ledger: charged, refunded and the net the balance lost. */
export const ZCreditTotals = ZCounts(['charged', 'refunded', 'net', 'charges']);
export type TCreditTotals = z.infer<typeof ZCreditTotals>;

/** A report's answer: its range, its metrics and the credits the ledger shows for them. */
function ZUsageReport<S extends z.ZodType>(stats: S) {
  return z.object({ range: ZReportRange, stats, credits: ZCreditTotals });
}

// ---------- POST /insights/graph ----------
export const ZGraphRequest = ZReportRequest.extend({ feature: ZUsageFeature.optional() });
export type TGraphRequest = z.input<typeof ZGraphRequest>;
/** One bucket: net credits per feature and their total. */
const ZFeatureCredits = ZCounts([...USAGE_FEATURES, 'total']);
export const ZGraphPoint = ZFeatureCredits.extend({ bucket: z.string() });
export type TGraphPoint = z.infer<typeof ZGraphPoint>;
export const ZGraphData = z.object({ range: ZReportRange, points: z.array(ZGraphPoint) });
export type TGraphData = z.infer<typeof ZGraphData>;
export const ZGraphResponse = ZSuccess(ZGraphData);

// ---------- POST /insights/performance_stats ----------
export const ZPerformanceStatsRequest = ZReportRequest.extend({
  group_by: z.enum(['member', 'team'], { message: 'Please group by member or team' }).default('member'),
});
export type TPerformanceStatsRequest = z.input<typeof ZPerformanceStatsRequest>;
export const ZPerformanceRow = ZFeatureCredits.extend({ id: z.string(), name: z.string(), email: z.string().nullable(), role: z.string().nullable() });
export type TPerformanceRow = z.infer<typeof ZPerformanceRow>;
export const ZPerformanceStatsData = z.object({ range: ZReportRange, group_by: z.enum(['member', 'team']), rows: z.array(ZPerformanceRow) });
export type TPerformanceStatsData = z.infer<typeof ZPerformanceStatsData>;
export const ZPerformanceStatsResponse = ZSuccess(ZPerformanceStatsData);

// ---------- POST /reports/usage (email verifier) ----------
export const ZVerifierUsageStats = ZCounts(['total', 'valid', 'invalid', 'catch_all', 'unknown', 'duplicate', 'syntax_error', 'disposable', 'gibberish', 'free_account', 'role_account', 'billable', 'safe_to_send', 'billable_credits']).extend({
  /** Average deliverability of valid results, in percent (0–100). */
  deliverability_score: z.number(),
});
export type TVerifierUsageStats = z.infer<typeof ZVerifierUsageStats>;
export const ZVerifierUsageData = ZUsageReport(ZVerifierUsageStats).extend({ instant: ZCount, bulk: ZCount });
export type TVerifierUsageData = z.infer<typeof ZVerifierUsageData>;
export const ZVerifierUsageResponse = ZSuccess(ZVerifierUsageData);

// ---------- POST /reports/finder_usage ----------
export const ZFinderUsageStats = ZCounts(['total', 'found', 'not_found', 'business', 'role', 'billable']).extend({
  /** Average confidence score of found emails (0–100). */
  confidence_score: z.number(),
});
export type TFinderUsageStats = z.infer<typeof ZFinderUsageStats>;
export const ZFinderUsageData = ZUsageReport(ZFinderUsageStats).extend({ instant: ZCount, bulk: ZCount });
export type TFinderUsageData = z.infer<typeof ZFinderUsageData>;
export const ZFinderUsageResponse = ZSuccess(ZFinderUsageData);

// ---------- POST /reports/prospect_usage ----------
export const ZProspectUsageStats = ZCounts(['total_billable_email_contact', 'total_billable_phone_contact', 'total_billable_lead', 'total_credits_charged', 'email', 'phone']);
export type TProspectUsageStats = z.infer<typeof ZProspectUsageStats>;
export const ZProspectUsageData = ZUsageReport(ZProspectUsageStats);
export type TProspectUsageData = z.infer<typeof ZProspectUsageData>;
export const ZProspectUsageResponse = ZSuccess(ZProspectUsageData);

// ---------- POST /reports/js_widget_usage (form guard) ----------
export const ZFormGuardUsageStats = ZCounts(['total', 'phone', 'email', 'name']);
export type TFormGuardUsageStats = z.infer<typeof ZFormGuardUsageStats>;
export const ZFormGuardUsageData = ZUsageReport(ZFormGuardUsageStats);
export type TFormGuardUsageData = z.infer<typeof ZFormGuardUsageData>;
export const ZFormGuardUsageResponse = ZSuccess(ZFormGuardUsageData);

// ---------- POST /reports/overview_usage ----------
/** The overall billable split of spec section 3, in credits. */
export const ZBillableSplit = z.object({
  ev_billable: ZPercentageMetric,
  ef_billable: ZPercentageMetric,
  prospect_billable: ZPercentageMetric,
  js_widget_billable: ZPercentageMetric,
  other_billable: ZPercentageMetric,
});
export type TBillableSplit = z.infer<typeof ZBillableSplit>;
export const ZOverviewUsageData = z.object({ range: ZReportRange, split: ZBillableSplit, credits: ZCreditTotals });
export type TOverviewUsageData = z.infer<typeof ZOverviewUsageData>;
export const ZOverviewUsageResponse = ZSuccess(ZOverviewUsageData);

// ---------- GET /dashboard ----------
export const DASHBOARD_WIDGETS = ['credits', 'usage_split', 'usage_trend', 'email_verifier', 'email_finder', 'recent_activity'] as const;
export const ZDashboardWidget = z.enum(DASHBOARD_WIDGETS);
export type TDashboardWidget = z.infer<typeof ZDashboardWidget>;

/** `show_widgets` is a comma list (default: every widget); `date_range` a preset; `org_id` must be the caller's. */
export const ZDashboardQuery = z.object({
  show_widgets: z
    .string()
    .max(500)
    .optional()
    .transform((v, ctx) => {
      if (!v) return [...DASHBOARD_WIDGETS];
      const names = [...new Set(v.split(',').map((s) => s.trim()).filter(Boolean))];
      const unknown = names.filter((n) => !(DASHBOARD_WIDGETS as readonly string[]).includes(n));
      if (unknown.length) {
        ctx.addIssue({ code: 'custom', message: `Unknown widget ${unknown.join(', ')}; choose from ${DASHBOARD_WIDGETS.join(', ')}` });
        return z.NEVER;
      }
      return names as TDashboardWidget[];
    })
    .meta({ type: 'string', description: `Comma list of widgets: ${DASHBOARD_WIDGETS.join(', ')}` }),
  date_range: ZDatePreset.default('last_30_days'),
  org_id: z.uuid({ message: 'Please give an organisation id' }).optional(),
});
export type TDashboardQuery = z.input<typeof ZDashboardQuery>;

export const ZDashboardActivity = z.object({ id: z.string(), type: z.string(), description: z.string(), created_at: z.string() });
export const ZDashboardData = z.object({
  range: ZReportRange,
  /** Whose usage the widgets show: the caller's, or the organisation's (owners and managers with a team dashboard). */
  scope: z.enum(['me', 'organisation']),
  widgets: z.array(ZDashboardWidget),
  credits: ZCounts(['balance', 'available', 'used_in_range']).optional(),
  usage_split: ZBillableSplit.optional(),
  usage_trend: z.array(ZGraphPoint).optional(),
  email_verifier: ZVerifierUsageStats.optional(),
  email_finder: ZFinderUsageStats.optional(),
  recent_activity: z.array(ZDashboardActivity).optional(),
});
export type TDashboardData = z.infer<typeof ZDashboardData>;
export const ZDashboardResponse = ZSuccess(ZDashboardData);
