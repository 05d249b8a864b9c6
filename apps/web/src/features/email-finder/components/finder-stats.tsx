import type { ReactNode } from 'react';
import { Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { DonutChart } from '@mantine/charts';
import { IconBriefcase, IconCircleCheck, IconCircleX, IconGauge, IconListNumbers, IconReceipt, IconUsers } from '@tabler/icons-react';
import type { TFinderStats } from '@verilead/contracts';
import { StatCard } from '../../../components/stat-card';
import { formatNumber } from '../../../lib/format';

type TMetric = { key: keyof TFinderStats; label: string; icon: ReactNode; color: string; format?: (value: number) => string; hint?: string };

/** The spec's finder metrics. */
const METRICS: TMetric[] = [
  { key: 'total', label: 'Total', icon: <IconListNumbers size={22} />, color: 'indigo', hint: 'People searched' },
  { key: 'found', label: 'Found', icon: <IconCircleCheck size={22} />, color: 'teal' },
  { key: 'not_found', label: 'Not found', icon: <IconCircleX size={22} />, color: 'gray', hint: 'Not billed' },
  { key: 'business', label: 'Business', icon: <IconBriefcase size={22} />, color: 'indigo', hint: 'Found on company domains' },
  { key: 'role', label: 'Role', icon: <IconUsers size={22} />, color: 'yellow', hint: 'Shared addresses (info@, sales@)' },
  { key: 'confidence_score', label: 'Confidence score', icon: <IconGauge size={22} />, color: 'teal', format: (value) => String(Math.round(value)), hint: 'Average over found addresses' },
  { key: 'billable', label: 'Billable', icon: <IconReceipt size={22} />, color: 'indigo', hint: 'Only found addresses are charged' },
];

export function FinderStatCards({ stats }: { stats: TFinderStats }) {
  return (
    <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="md" aria-label="Finder metrics">
      {METRICS.map((metric) => (
        <div key={metric.key} data-testid={`stat-${metric.key}`}>
          <StatCard label={metric.label} value={metric.format ? metric.format(stats[metric.key]) : formatNumber(stats[metric.key])} hint={metric.hint} icon={metric.icon} color={metric.color} />
        </div>
      ))}
    </SimpleGrid>
  );
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
          <DonutChart data={data} size={190} thickness={28} withTooltip chartLabel={`${formatNumber(sum)} people`} aria-label="Result breakdown chart" />
          <Stack gap={6}>
            {slices.map((slice) => (
              <Group key={slice.name} gap="xs" wrap="nowrap">
                <span style={{ width: 12, height: 12, borderRadius: 3, background: `var(--mantine-color-${slice.color.replace('.', '-')})`, display: 'inline-block' }} />
                <Text size="sm" w={170}>
                  {slice.name}
                </Text>
                <Text size="sm" fw={600}>
                  {formatNumber(slice.value)}
                </Text>
                <Text size="xs" c="dimmed">
                  {sum > 0 ? `${Math.round((slice.value / sum) * 1000) / 10}%` : ''}
                </Text>
              </Group>
            ))}
          </Stack>
        </Group>
      )}
    </Card>
  );
}
