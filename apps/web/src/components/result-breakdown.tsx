import type { ReactNode } from 'react';
import { Card, Group, SimpleGrid, Stack, Text, Title, type SimpleGridProps } from '@mantine/core';
import { DonutChart } from '@mantine/charts';
import { formatNumber } from '../lib/format';
import { StatCard } from './stat-card';

/** One metric card: which stat, its label, icon, colour, an optional formatter (numbers otherwise) and hint. */
export type TMetric<TKey extends string> = { key: TKey; label: string; icon: ReactNode; color: string; format?: (value: number) => string; hint?: string };

/** A grid of stat cards, one per metric, each wrapped with the test id `stat-<key>`; on a phone the cards drop their icons. */
export function MetricCards<TKey extends string>({
  metrics,
  stats,
  cols,
  label,
}: {
  metrics: TMetric<TKey>[];
  stats: Record<TKey, number>;
  cols: SimpleGridProps['cols'];
  label: string;
}) {
  return (
    <SimpleGrid cols={cols} spacing="md" aria-label={label}>
      {metrics.map((metric) => (
        <div key={metric.key} data-testid={`stat-${metric.key}`}>
          <StatCard
            label={metric.label}
            value={metric.format ? metric.format(stats[metric.key]) : formatNumber(stats[metric.key])}
            hint={metric.hint}
            icon={metric.icon}
            color={metric.color}
            iconFrom="xs"
          />
        </div>
      ))}
    </SimpleGrid>
  );
}

/** A legend line: colour swatch, name, count and (when given) its share. */
export type TLegendItem = { name: string; value: number; color: string; share?: string };

/** The "Result breakdown" card: "No results yet." when `data` is empty, else a donut of `data` and the legend. */
export function ResultBreakdownCard({
  data,
  chartLabel,
  legend,
  legendWidth,
}: {
  data: { name: string; value: number; color: string }[];
  chartLabel: string;
  legend: TLegendItem[];
  legendWidth: number;
}) {
  return (
    <Card padding="lg">
      <Title order={4} fz={16} mb="md">
        Result breakdown
      </Title>
      {data.length === 0 ? (
        <Text size="sm" c="dimmed">
          No results yet.
        </Text>
      ) : (
        <Group gap="xl" wrap="wrap" align="center">
          <DonutChart data={data} size={190} thickness={28} withTooltip chartLabel={chartLabel} aria-label="Result breakdown chart" />
          <Stack gap={6}>
            {legend.map((item) => (
              <Group key={item.name} gap="xs" wrap="nowrap">
                <span style={{ width: 12, height: 12, borderRadius: 3, background: `var(--mantine-color-${item.color.replace('.', '-')})`, display: 'inline-block' }} />
                <Text size="sm" w={legendWidth}>
                  {item.name}
                </Text>
                <Text size="sm" fw={600}>
                  {formatNumber(item.value)}
                </Text>
                {item.share !== undefined ? (
                  <Text size="xs" c="dimmed">
                    {item.share}
                  </Text>
                ) : null}
              </Group>
            ))}
          </Stack>
        </Group>
      )}
    </Card>
  );
}
