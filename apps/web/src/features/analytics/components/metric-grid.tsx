import type { ReactNode } from 'react';
import { SimpleGrid } from '@mantine/core';
import { StatCard } from '../../../components/stat-card';

export type TMetric = { label: string; value: string; hint?: string; icon: ReactNode; color?: string };

/** A row of figures. */
export function MetricGrid({ metrics }: { metrics: TMetric[] }) {
  return (
    <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="lg">
      {metrics.map((m) => (
        <StatCard key={m.label} label={m.label} value={m.value} hint={m.hint} icon={m.icon} color={m.color} />
      ))}
    </SimpleGrid>
  );
}
