import type { ReactNode } from 'react';
import { Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { DonutChart } from '@mantine/charts';
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
import { StatCard } from '../../../components/stat-card';
import { formatNumber } from '../../../lib/format';

type TMetric = { key: keyof TVerifyStats; label: string; icon: ReactNode; color: string; format?: (value: number) => string; hint?: string };

const METRICS: TMetric[] = [
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
  return (
    <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="md" aria-label="List statistics">
      {METRICS.map((metric) => (
        <div key={metric.key} data-testid={`stat-${metric.key}`}>
          <StatCard label={metric.label} value={metric.format ? metric.format(stats[metric.key]) : formatNumber(stats[metric.key])} hint={metric.hint} icon={metric.icon} color={metric.color} />
        </div>
      ))}
    </SimpleGrid>
  );
}

/** Result split as a donut with a legend; `pending` counts addresses still waiting for a result. */
export function ListResultChart({ stats, pending = 0 }: { stats: TVerifyStats; pending?: number }) {
  const data = [
    ...SLICES.map((slice) => ({ name: slice.label, value: stats[slice.key], color: slice.color })),
    { name: 'Not verified yet', value: pending, color: 'gray.2' },
  ].filter((cell) => cell.value > 0);
  const sum = data.reduce((total, cell) => total + cell.value, 0);
  return (
    <Card padding="lg">
      <Title order={4} fz={16} mb="md">
        Result breakdown
      </Title>
      {sum === 0 ? (
        <Text size="sm" c="dimmed">
          No results yet.
        </Text>
      ) : (
        <Group gap="xl" wrap="wrap" align="center">
          <DonutChart data={data} size={190} thickness={28} withTooltip chartLabel={`${formatNumber(stats.total)} rows`} aria-label="Result breakdown chart" />
          <Stack gap={6}>
            {SLICES.map((slice) => (
              <Group key={slice.key} gap="xs" wrap="nowrap">
                <span style={{ width: 12, height: 12, borderRadius: 3, background: `var(--mantine-color-${slice.color.replace('.', '-')})`, display: 'inline-block' }} />
                <Text size="sm" w={110}>
                  {slice.label}
                </Text>
                <Text size="sm" fw={600}>
                  {formatNumber(stats[slice.key])}
                </Text>
                <Text size="xs" c="dimmed">
                  {stats.total > 0 ? `${Math.round((stats[slice.key] / stats.total) * 1000) / 10}%` : ''}
                </Text>
              </Group>
            ))}
            {pending > 0 ? (
              <Group gap="xs" wrap="nowrap">
                <span style={{ width: 12, height: 12, borderRadius: 3, background: 'var(--mantine-color-gray-2)', display: 'inline-block' }} />
                <Text size="sm" w={110}>
                  Not verified yet
                </Text>
                <Text size="sm" fw={600}>
                  {formatNumber(pending)}
                </Text>
              </Group>
            ) : null}
          </Stack>
        </Group>
      )}
    </Card>
  );
}
