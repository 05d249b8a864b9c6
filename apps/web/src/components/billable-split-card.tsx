import { DonutChart } from '@mantine/charts';
import { Table } from '@mantine/core';
import { USAGE_FEATURE_LABELS, type TBillableSplit, type TUsageFeature } from '@verilead/contracts';
import { formatNumber } from '../lib/format';
import { ChartCard } from './chart-card';
import { FEATURE_COLORS } from './usage-trend-chart';

const SPLIT_KEYS: [keyof TBillableSplit, TUsageFeature][] = [
  ['ev_billable', 'email_verifier'],
  ['ef_billable', 'email_finder'],
  ['prospect_billable', 'prospect'],
  ['js_widget_billable', 'form_guard'],
  ['other_billable', 'other'],
];

/** The overall billable split: a donut, its table and its CSV. */
export function BillableSplitCard({ split, fileName = 'billable-split.csv' }: { split: TBillableSplit; fileName?: string }) {
  const rows = SPLIT_KEYS.map(([key, feature]) => ({ feature: USAGE_FEATURE_LABELS[feature], credits: split[key].value, percentage: split[key].percentage, color: FEATURE_COLORS[feature] }));
  return (
    <ChartCard
      title="Billable split"
      description="Credits per feature"
      rows={rows}
      columns={[{ key: 'feature', label: 'Feature' }, { key: 'credits', label: 'Credits' }, { key: 'percentage', label: 'Percentage' }]}
      fileName={fileName}
      isEmpty={rows.every((r) => r.credits <= 0)}
    >
      <DonutChart
        mx="auto"
        size={170}
        thickness={26}
        withLabelsLine={false}
        data={rows.filter((r) => r.credits > 0).map((r) => ({ name: r.feature, value: r.credits, color: r.color }))}
      />
      <Table mt="md" fz="sm">
        <Table.Tbody>
          {rows.map((r) => (
            <Table.Tr key={r.feature}>
              <Table.Td>{r.feature}</Table.Td>
              <Table.Td ta="right">{formatNumber(r.credits)}</Table.Td>
              <Table.Td ta="right">{r.percentage}%</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ChartCard>
  );
}
