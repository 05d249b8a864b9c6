import { AreaChart } from '@mantine/charts';
import { USAGE_FEATURE_LABELS, USAGE_FEATURES, type TGraphPoint, type TUsageFeature } from '@verilead/contracts';
import { ChartCard } from './chart-card';
import { formatBucketLabel } from '../lib/format';

export const FEATURE_COLORS: Readonly<Record<TUsageFeature, string>> = {
  email_verifier: 'indigo.6',
  email_finder: 'teal.6',
  prospect: 'orange.6',
  form_guard: 'grape.6',
  other: 'gray.5',
};

/** Credits used per bucket, stacked by feature (or one feature), with its CSV. */
export function UsageTrendChart({ points, features = USAGE_FEATURES, fileName, title = 'Credits used over time' }: {
  points: TGraphPoint[];
  features?: readonly TUsageFeature[];
  fileName: string;
  title?: string;
}) {
  const data = points.map((p) => ({ ...p, label: formatBucketLabel(p.bucket) }));
  const columns = [{ key: 'bucket' as const, label: 'Period' }, ...features.map((f) => ({ key: f, label: USAGE_FEATURE_LABELS[f] })), { key: 'total' as const, label: 'Total' }];
  return (
    <ChartCard title={title} description="Net credits (charges less refunds), in your timezone" rows={points} columns={columns} fileName={fileName} isEmpty={points.every((p) => features.every((f) => p[f] === 0))}>
      <AreaChart
        h={260}
        data={data}
        dataKey="label"
        type={features.length > 1 ? 'stacked' : 'default'}
        series={features.map((f) => ({ name: f, label: USAGE_FEATURE_LABELS[f], color: FEATURE_COLORS[f] }))}
        curveType="monotone"
        withLegend={features.length > 1}
        tickLine="y"
      />
    </ChartCard>
  );
}
