import { IconBriefcase, IconCircleCheck, IconCircleX, IconGauge, IconListNumbers, IconReceipt, IconUsers } from '@tabler/icons-react';
import type { TFinderStats } from '@verilead/contracts';
import { MetricCards, ResultBreakdownCard, type TMetric } from '../../../components/result-breakdown';
import { formatNumber } from '../../../lib/format';

/** The spec's finder metrics. */
const METRICS: TMetric<keyof TFinderStats>[] = [
  { key: 'total', label: 'Total', icon: <IconListNumbers size={22} />, color: 'indigo', hint: 'People searched' },
  { key: 'found', label: 'Found', icon: <IconCircleCheck size={22} />, color: 'teal' },
  { key: 'not_found', label: 'Not found', icon: <IconCircleX size={22} />, color: 'gray', hint: 'Not billed' },
  { key: 'business', label: 'Business', icon: <IconBriefcase size={22} />, color: 'indigo', hint: 'Found on company domains' },
  { key: 'role', label: 'Role', icon: <IconUsers size={22} />, color: 'yellow', hint: 'Shared addresses (info@, sales@)' },
  { key: 'confidence_score', label: 'Confidence score', icon: <IconGauge size={22} />, color: 'teal', format: (value) => String(Math.round(value)), hint: 'Average over found addresses' },
  { key: 'billable', label: 'Billable', icon: <IconReceipt size={22} />, color: 'indigo', hint: 'Only found addresses are charged' },
];

export function FinderStatCards({ stats }: { stats: TFinderStats }) {
  return <MetricCards metrics={METRICS} stats={stats} cols={{ base: 2, md: 4 }} label="Finder metrics" />;
}

/** Found (confirmed / catch-all guesses), not found and still waiting, as a donut with a legend. */
export function FinderResultChart({ stats, pending }: { stats: TFinderStats; pending: number }) {
  const confirmed = Math.max(0, stats.found - stats.catch_all);
  const slices = [
    { name: 'Found (confirmed)', value: confirmed, color: 'teal.6' },
    { name: 'Found (catch-all guess)', value: stats.catch_all, color: 'orange.5' },
    { name: 'Not found', value: stats.not_found, color: 'gray.5' },
    { name: 'Not searched yet', value: pending, color: 'gray.2' },
  ];
  const data = slices.filter((slice) => slice.value > 0);
  const sum = data.reduce((total, slice) => total + slice.value, 0);
  return (
    <ResultBreakdownCard
      data={data}
      chartLabel={`${formatNumber(sum)} people`}
      legendWidth={170}
      legend={slices.map((slice) => ({ ...slice, share: sum > 0 ? `${Math.round((slice.value / sum) * 1000) / 10}%` : '' }))}
    />
  );
}
