import {
  IconAlertOctagon,
  IconAt,
  IconCircleCheck,
  IconCircleX,
  IconCoins,
  IconCopy,
  IconGauge,
  IconHelpCircle,
  IconInbox,
  IconListNumbers,
  IconReceipt,
  IconSend,
  IconTrash,
  IconUserQuestion,
  IconUsers,
} from '@tabler/icons-react';
import type { TVerifyStats } from '@verilead/contracts';
import { MetricCards, ResultBreakdownCard, type TLegendItem, type TMetric } from '../../../components/result-breakdown';
import { formatNumber } from '../../../lib/format';

const METRICS: TMetric<keyof TVerifyStats>[] = [
  { key: 'total', label: 'Total', icon: <IconListNumbers size={22} />, color: 'indigo', hint: 'Rows read from the file' },
  { key: 'valid', label: 'Valid', icon: <IconCircleCheck size={22} />, color: 'teal' },
  { key: 'invalid', label: 'Invalid', icon: <IconCircleX size={22} />, color: 'red' },
  { key: 'catch_all', label: 'Catch-all', icon: <IconInbox size={22} />, color: 'orange' },
  { key: 'unknown', label: 'Unknown', icon: <IconHelpCircle size={22} />, color: 'gray', hint: 'Not billed' },
  { key: 'duplicate', label: 'Duplicate', icon: <IconCopy size={22} />, color: 'grape', hint: 'Skipped, not billed' },
  { key: 'syntax_error', label: 'Syntax error', icon: <IconAlertOctagon size={22} />, color: 'pink', hint: 'Skipped, not billed' },
  { key: 'disposable', label: 'Disposable', icon: <IconTrash size={22} />, color: 'yellow' },
  { key: 'gibberish', label: 'Gibberish', icon: <IconUserQuestion size={22} />, color: 'yellow' },
  { key: 'free_account', label: 'Free account', icon: <IconAt size={22} />, color: 'cyan' },
  { key: 'role_account', label: 'Role account', icon: <IconUsers size={22} />, color: 'cyan' },
  { key: 'billable', label: 'Billable', icon: <IconReceipt size={22} />, color: 'indigo', hint: 'Valid, invalid and catch-all' },
  {
    key: 'deliverability_score',
    label: 'Deliverability score',
    icon: <IconGauge size={22} />,
    color: 'teal',
    format: (value) => `${Number(value.toFixed(1))}%`,
    hint: 'Average over valid addresses',
  },
  { key: 'billable_credits', label: 'Billable credits', icon: <IconCoins size={22} />, color: 'indigo' },
  { key: 'safe_to_send', label: 'Safe to send', icon: <IconSend size={22} />, color: 'teal' },
];

const SLICES: { key: 'valid' | 'invalid' | 'catch_all' | 'unknown' | 'duplicate' | 'syntax_error'; label: string; color: string }[] = [
  { key: 'valid', label: 'Valid', color: 'teal.6' },
  { key: 'invalid', label: 'Invalid', color: 'red.6' },
  { key: 'catch_all', label: 'Catch-all', color: 'orange.5' },
  { key: 'unknown', label: 'Unknown', color: 'gray.5' },
  { key: 'duplicate', label: 'Duplicate', color: 'grape.4' },
  { key: 'syntax_error', label: 'Syntax error', color: 'pink.4' },
];

/** The spec's stats metrics as stat cards. */
export function ListStatCards({ stats }: { stats: TVerifyStats }) {
  return <MetricCards metrics={METRICS} stats={stats} cols={{ base: 2, md: 3 }} label="List statistics" />;
}

/** Result split as a donut with a legend; `pending` counts addresses still waiting for a result. */
export function ListResultChart({ stats, pending = 0 }: { stats: TVerifyStats; pending?: number }) {
  const data = [
    ...SLICES.map((slice) => ({ name: slice.label, value: stats[slice.key], color: slice.color })),
    { name: 'Not verified yet', value: pending, color: 'gray.2' },
  ].filter((cell) => cell.value > 0);
  const legend: TLegendItem[] = SLICES.map((slice) => ({
    name: slice.label,
    value: stats[slice.key],
    color: slice.color,
    share: stats.total > 0 ? `${Math.round((stats[slice.key] / stats.total) * 1000) / 10}%` : '',
  }));
  if (pending > 0) legend.push({ name: 'Not verified yet', value: pending, color: 'gray.2' });
  return <ResultBreakdownCard data={data} chartLabel={`${formatNumber(stats.total)} rows`} legendWidth={110} legend={legend} />;
}
