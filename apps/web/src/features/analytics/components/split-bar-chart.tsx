import { BarChart } from '@mantine/charts';
import { ChartCard } from '../../../components/chart-card';

export type TSplitRow = { name: string; value: number };

/** One bar per category (statuses, fields…) with its CSV. */
export function SplitBarChart({ title, description, rows, fileName, color = 'indigo.6', unit = 'Count' }: {
  title: string;
  description?: string;
  rows: TSplitRow[];
  fileName: string;
  color?: string;
  unit?: string;
}) {
  return (
    <ChartCard
      title={title}
      description={description}
      rows={rows}
      columns={[{ key: 'name', label: 'Category' }, { key: 'value', label: unit }]}
      fileName={fileName}
      isEmpty={rows.every((r) => r.value === 0)}
    >
      <BarChart h={260} data={rows} dataKey="name" series={[{ name: 'value', label: unit, color }]} tickLine="y" />
    </ChartCard>
  );
}
