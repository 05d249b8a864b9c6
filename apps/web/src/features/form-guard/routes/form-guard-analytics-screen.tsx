import { Link, useSearchParams } from 'react-router';
import type { TDateRange } from '@verilead/contracts';
import { Button, Card, Group, SimpleGrid, Table, Text, Title } from '@mantine/core';
import { IconAt, IconPhone, IconShieldCheck, IconUser } from '@tabler/icons-react';
import { DateRangeSelect, readDateRangeParam, writeDateRangeParam } from '../../../components/date-range-select';
import { EmptyState, ErrorState } from '../../../components/state-views';
import { LoadingScreen } from '../../../components/loading-screen';
import { PageHeader } from '../../../components/page-header';
import { StatCard } from '../../../components/stat-card';
import { formatNumber } from '../../../lib/format';
import { useJsWidgetUsage } from '../api/form-guard-api';


/** Form guard analytics: checks by field type, refused, credits, per day and per guard. */
export function FormGuardAnalyticsScreen() {
  // The twelve presets (or days), kept in the address like the other analytics screens, read in the user's time zone.
  const [params, setParams] = useSearchParams();
  const range = readDateRangeParam(params.get('range'));
  const setRange = (next: TDateRange) => {
    const updated = new URLSearchParams(params);
    updated.set('range', writeDateRangeParam(next));
    setParams(updated, { replace: true });
  };
  const usage = useJsWidgetUsage({ date_range: range });
  return (
    <>
      <PageHeader
        title="Form Guard analytics"
        description="What your form guards checked and refused, and the credits they used."
        actions={
          <Button component={Link} to="/form-guard" variant="light">
            Manage form guards
          </Button>
        }
      />
      <Group mb="md">
        <DateRangeSelect value={range} onChange={setRange} />
      </Group>
      {usage.isPending ? (
        <LoadingScreen />
      ) : usage.isError ? (
        <ErrorState error={usage.error} onRetry={() => void usage.refetch()} />
      ) : usage.data.metrics.total === 0 ? (
        <Card>
          <EmptyState title="No checks in this period" description="Once a guard's snippet is on your site, its checks show here." />
        </Card>
      ) : (
        <>
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} mb="lg">
            <StatCard label="Total checks" value={formatNumber(usage.data.metrics.total)} hint={`${formatNumber(usage.data.refused.total)} refused · ${formatNumber(usage.data.js_widget_billable)} credits`} icon={<IconShieldCheck size={20} />} />
            <StatCard label="E-mail" value={formatNumber(usage.data.metrics.email)} hint={`${formatNumber(usage.data.refused.email)} refused`} icon={<IconAt size={20} />} color="teal" />
            <StatCard label="Phone" value={formatNumber(usage.data.metrics.phone)} hint={`${formatNumber(usage.data.refused.phone)} refused`} icon={<IconPhone size={20} />} color="orange" />
            <StatCard label="Name" value={formatNumber(usage.data.metrics.name)} hint={`${formatNumber(usage.data.refused.name)} refused`} icon={<IconUser size={20} />} color="grape" />
          </SimpleGrid>
          <Card>
            <Title order={4} fz={16} mb="sm">
              By guard
            </Title>
            <Table>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Guard</Table.Th>
                  <Table.Th>Checks</Table.Th>
                  <Table.Th>Credits</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {usage.data.by_app.map((a) => (
                  <Table.Tr key={a.app_id}>
                    <Table.Td>
                      <Text component={Link} to={`/form-guard/${a.app_id}`} c="indigo" fw={600}>
                        {a.name}
                      </Text>
                    </Table.Td>
                    <Table.Td>{formatNumber(a.total)}</Table.Td>
                    <Table.Td>{formatNumber(a.billable)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Card>
        </>
      )}
    </>
  );
}
