import { useState } from 'react';
import { BarChart } from '@mantine/charts';
import { Card, SegmentedControl, Table, Text, Title } from '@mantine/core';
import { USAGE_FEATURE_LABELS, USAGE_FEATURES, type TPerformanceRow } from '@verilead/contracts';
import { ChartCard } from '../../../components/chart-card';
import { FEATURE_COLORS } from '../../../components/usage-trend-chart';
import { formatNumber, humanizeKey } from '../../../lib/format';
import { usePerformanceStats } from '../api/analytics-api';
import { useAnalyticsFilters } from '../components/analytics-filters';
import { AnalyticsPage } from '../components/analytics-page';

const ROLE_LABELS: Record<string, string> = { owner: 'Owner', admin: 'Manager', analyst: 'Executive' };

/** `/analytics/team` (owners and managers): credits per member or per team, per feature. */
export function AnalyticsTeamScreen() {
  const filters = useAnalyticsFilters();
  const [groupBy, setGroupBy] = useState<'member' | 'team'>('member');
  const request = filters.view === 'me' ? { ...filters.request, scope: 'organisation' as const } : filters.request;
  const stats = usePerformanceStats({ ...request, group_by: groupBy });
  const columns: { key: keyof TPerformanceRow & string; label: string }[] = [
    { key: 'name', label: groupBy === 'member' ? 'Member' : 'Team' },
    ...(groupBy === 'member' ? [{ key: 'email' as const, label: 'Email' }] : []),
    ...USAGE_FEATURES.map((f) => ({ key: f, label: USAGE_FEATURE_LABELS[f] })),
    { key: 'total', label: 'Total' },
  ];
  return (
    <AnalyticsPage title="Team analytics" description="Who used the credits, member by member or team by team." filters={filters} queries={[stats]}>
      {() => {
        const rows = stats.data!.rows;
        return (
          <>
            <SegmentedControl
              w="fit-content"
              aria-label="Group by"
              value={groupBy}
              onChange={(v) => setGroupBy(v as 'member' | 'team')}
              data={[
                { value: 'member', label: 'By member' },
                { value: 'team', label: 'By team' },
              ]}
            />
            <ChartCard
              title={groupBy === 'member' ? 'Credits per member' : 'Credits per team'}
              description="Net credits per feature"
              rows={rows}
              columns={columns}
              fileName={`credits-per-${groupBy}.csv`}
              isEmpty={rows.every((r) => r.total === 0)}
            >
              <BarChart
                h={Math.max(220, rows.length * 36)}
                data={rows}
                dataKey="name"
                orientation="vertical"
                type="stacked"
                yAxisProps={{ width: 140 }}
                withLegend
                series={USAGE_FEATURES.map((f) => ({ name: f, label: USAGE_FEATURE_LABELS[f], color: FEATURE_COLORS[f] }))}
              />
            </ChartCard>
            <Card>
              <Title order={4} fz={16} mb="sm">
                {groupBy === 'member' ? 'Members' : 'Teams'}
              </Title>
              {rows.length === 0 ? (
                <Text c="dimmed" size="sm">
                  No {groupBy === 'member' ? 'members' : 'teams'} yet.
                </Text>
              ) : (
                <Table.ScrollContainer minWidth={720}>
                  <Table striped highlightOnHover aria-label={groupBy === 'member' ? 'Credits per member' : 'Credits per team'}>
                    <Table.Thead>
                      <Table.Tr>
                        {columns.map((c) => (
                          <Table.Th key={c.key} ta={c.key === 'name' || c.key === 'email' ? 'left' : 'right'}>
                            {c.label}
                          </Table.Th>
                        ))}
                      </Table.Tr>
                    </Table.Thead>
                    <Table.Tbody>
                      {rows.map((r) => (
                        <Table.Tr key={r.id}>
                          <Table.Td>
                            <Text size="sm" fw={500}>
                              {r.name}
                            </Text>
                            {r.role ? (
                              <Text size="xs" c="dimmed">
                                {ROLE_LABELS[r.role] ?? humanizeKey(r.role)}
                              </Text>
                            ) : null}
                          </Table.Td>
                          {groupBy === 'member' ? <Table.Td>{r.email}</Table.Td> : null}
                          {USAGE_FEATURES.map((f) => (
                            <Table.Td key={f} ta="right">
                              {formatNumber(r[f])}
                            </Table.Td>
                          ))}
                          <Table.Td ta="right" fw={600}>
                            {formatNumber(r.total)}
                          </Table.Td>
                        </Table.Tr>
                      ))}
                    </Table.Tbody>
                  </Table>
                </Table.ScrollContainer>
              )}
            </Card>
          </>
        );
      }}
    </AnalyticsPage>
  );
}
