import { Grid } from '@mantine/core';
import { IconChecks, IconCoins, IconMailSearch, IconPhone, IconTargetArrow, IconUserSearch, IconUsers } from '@tabler/icons-react';
import type { TCreditTotals, TGraphPoint, TUsageFeature, TVerifierUsageData } from '@verilead/contracts';
import { UsageTrendChart } from '../../../components/usage-trend-chart';
import { formatNumber } from '../../../lib/format';
import { useFinderUsage, useProspectUsage, useUsageGraph, useVerifierUsage } from '../api/analytics-api';
import { useAnalyticsFilters } from '../components/analytics-filters';
import { AnalyticsPage } from '../components/analytics-page';
import { MetricGrid, type TMetric } from '../components/metric-grid';
import { SplitBarChart, type TSplitRow } from '../components/split-bar-chart';

function creditsMetric(credits: TCreditTotals): TMetric {
  return { label: 'Credits used', value: formatNumber(credits.net), hint: `${formatNumber(credits.charged)} charged, ${formatNumber(credits.refunded)} refunded`, icon: <IconCoins size={22} />, color: 'orange' };
}

/**
 * "Emails verified": the addresses that got a verdict (instant and in lists). Rows a list skipped (duplicates and
 * syntax errors) were not verified: they are said apart, never counted in.
 */
export function verifiedMetric(data: Pick<TVerifierUsageData, 'stats' | 'instant' | 'bulk'>): TMetric {
  const skipped = data.stats.duplicate + data.stats.syntax_error;
  const split = `${formatNumber(data.instant)} instant, ${formatNumber(data.bulk)} in lists`;
  return {
    label: 'Emails verified',
    value: formatNumber(data.instant + data.bulk),
    hint: skipped > 0 ? `${split}; ${formatNumber(skipped)} list rows skipped (duplicates, syntax errors)` : split,
    icon: <IconChecks size={22} />,
  };
}

function FeatureBody({ feature, slug, metrics, split, splitTitle, splitUnit, points }: {
  feature: TUsageFeature;
  slug: string;
  metrics: TMetric[];
  split: TSplitRow[];
  splitTitle: string;
  splitUnit?: string;
  points: TGraphPoint[];
}) {
  return (
    <>
      <MetricGrid metrics={metrics} />
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, lg: 7 }}>
          <UsageTrendChart points={points} features={[feature]} fileName={`${slug}-credits-over-time.csv`} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 5 }}>
          <SplitBarChart title={splitTitle} rows={split} fileName={`${slug}-breakdown.csv`} unit={splitUnit} />
        </Grid.Col>
      </Grid>
    </>
  );
}

/** `/analytics/email_verifier`: verification results and the credits they cost. */
export function AnalyticsVerifierScreen() {
  const filters = useAnalyticsFilters();
  const usage = useVerifierUsage(filters.request);
  const graph = useUsageGraph({ ...filters.request, feature: 'email_verifier' });
  return (
    <AnalyticsPage title="Email Verifier analytics" description="Verification results and the credits they used." filters={filters} queries={[usage, graph]}>
      {() => {
        const s = usage.data!.stats;
        return (
          <FeatureBody
            feature="email_verifier"
            slug="email-verifier"
            points={graph.data!.points}
            metrics={[
              verifiedMetric(usage.data!),
              { label: 'Billable', value: formatNumber(s.billable), hint: 'Valid, invalid and catch-all', icon: <IconTargetArrow size={22} />, color: 'teal' },
              { label: 'Deliverability', value: `${s.deliverability_score}%`, hint: `${formatNumber(s.safe_to_send)} safe to send`, icon: <IconMailSearch size={22} />, color: 'grape' },
              creditsMetric(usage.data!.credits),
            ]}
            splitTitle="Results by status"
            split={[
              { name: 'Valid', value: s.valid },
              { name: 'Invalid', value: s.invalid },
              { name: 'Catch-all', value: s.catch_all },
              { name: 'Unknown', value: s.unknown },
              { name: 'Duplicate', value: s.duplicate },
              { name: 'Syntax error', value: s.syntax_error },
              { name: 'Disposable', value: s.disposable },
              { name: 'Role account', value: s.role_account },
              { name: 'Free account', value: s.free_account },
              { name: 'Gibberish', value: s.gibberish },
            ]}
          />
        );
      }}
    </AnalyticsPage>
  );
}

/** `/analytics/email_finder`: searches, what they found and the credits they cost. */
export function AnalyticsFinderScreen() {
  const filters = useAnalyticsFilters();
  const usage = useFinderUsage(filters.request);
  const graph = useUsageGraph({ ...filters.request, feature: 'email_finder' });
  return (
    <AnalyticsPage title="Email Finder analytics" description="Searches, what they found and the credits they used." filters={filters} queries={[usage, graph]}>
      {() => {
        const s = usage.data!.stats;
        return (
          <FeatureBody
            feature="email_finder"
            slug="email-finder"
            points={graph.data!.points}
            metrics={[
              { label: 'Searches', value: formatNumber(s.total), hint: `${formatNumber(usage.data!.instant)} instant, ${formatNumber(usage.data!.bulk)} in lists`, icon: <IconUserSearch size={22} /> },
              { label: 'Found', value: formatNumber(s.found), hint: `${formatNumber(s.not_found)} not found`, icon: <IconTargetArrow size={22} />, color: 'teal' },
              { label: 'Confidence', value: `${s.confidence_score}`, hint: 'Average score of found emails', icon: <IconMailSearch size={22} />, color: 'grape' },
              creditsMetric(usage.data!.credits),
            ]}
            splitTitle="Results"
            split={[
              { name: 'Found', value: s.found },
              { name: 'Not found', value: s.not_found },
              { name: 'Business', value: s.business },
              { name: 'Role', value: s.role },
              { name: 'Billable', value: s.billable },
            ]}
          />
        );
      }}
    </AnalyticsPage>
  );
}

/** `/analytics/prospect`: contacts and leads revealed, from the credits ledger. */
export function AnalyticsProspectScreen() {
  const filters = useAnalyticsFilters();
  const usage = useProspectUsage(filters.request);
  const graph = useUsageGraph({ ...filters.request, feature: 'prospect' });
  return (
    <AnalyticsPage title="Prospect analytics" description="Contacts and leads revealed, and the credits they used." filters={filters} queries={[usage, graph]}>
      {() => {
        const s = usage.data!.stats;
        return (
          <FeatureBody
            feature="prospect"
            slug="prospect"
            points={graph.data!.points}
            metrics={[
              { label: 'Email contacts', value: formatNumber(s.email), hint: `${formatNumber(s.total_billable_email_contact)} credits`, icon: <IconMailSearch size={22} /> },
              { label: 'Phone contacts', value: formatNumber(s.phone), hint: `${formatNumber(s.total_billable_phone_contact)} credits`, icon: <IconPhone size={22} />, color: 'teal' },
              { label: 'Leads', value: formatNumber(s.total_billable_lead), hint: 'Credits for leads added', icon: <IconUsers size={22} />, color: 'grape' },
              creditsMetric(usage.data!.credits),
            ]}
            splitTitle="Credits by contact type"
            splitUnit="Credits"
            split={[
              { name: 'Email', value: s.total_billable_email_contact },
              { name: 'Phone', value: s.total_billable_phone_contact },
              { name: 'Lead', value: s.total_billable_lead },
            ]}
          />
        );
      }}
    </AnalyticsPage>
  );
}
