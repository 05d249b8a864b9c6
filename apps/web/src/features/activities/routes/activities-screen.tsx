import { useState } from 'react';
import { Card, Group, Select, Table, Text, Title } from '@mantine/core';
import { ZActivityType, type TActivityType } from '@verilead/contracts';
import { ActivityTypeBadge } from '../../../components/activity-type-badge';
import { EmptyState, ErrorState } from '../../../components/state-views';
import { LoadingScreen } from '../../../components/loading-screen';
import { PageHeader } from '../../../components/page-header';
import { PagedTable, usePaging } from '../../../components/paged-table-footer';
import { formatDateTime, humanizeKey } from '../../../lib/format';
import { useActivities } from '../../../lib/user-queries';

const TYPE_OPTIONS = ZActivityType.options.map((type) => ({ value: type, label: humanizeKey(type) }));

/** The log of the user's actions and jobs, paged. */
export function ActivitiesScreen() {
  const { page, limit, setPage, changeLimit } = usePaging();
  const [type, setType] = useState<TActivityType | null>(null);
  const activities = useActivities({ page, limit, type: type ?? undefined });

  return (
    <>
      <PageHeader title="Activities" description="What you did in Verilead and what your jobs did for you." />
      <Card>
        <Group justify="space-between" mb="md" wrap="wrap">
          <Title order={4} fz={16}>
            Activity log
          </Title>
          <Select
            aria-label="Activity type"
            placeholder="All activity"
            data={TYPE_OPTIONS}
            value={type}
            onChange={(value) => {
              setType(value as TActivityType | null);
              setPage(1);
            }}
            clearable
            searchable
            w={200}
          />
        </Group>
        {activities.isPending ? <LoadingScreen minHeight={160} /> : null}
        {activities.isError ? <ErrorState error={activities.error} onRetry={() => void activities.refetch()} /> : null}
        {activities.data && activities.data.total === 0 ? (
          <EmptyState title="No activity yet" description={type ? 'No activity of this type.' : 'Your logins, changes and jobs will be listed here.'} />
        ) : null}
        {activities.data && activities.data.total > 0 ? (
          <PagedTable
            label="Activities"
            minWidth={640}
            head={
              <>
                <Table.Th w={200}>When</Table.Th>
                <Table.Th w={170}>Type</Table.Th>
                <Table.Th>Description</Table.Th>
              </>
            }
            page={page}
            limit={limit}
            total={activities.data.total}
            onPageChange={setPage}
            onLimitChange={changeLimit}
          >
            {activities.data.items.map((row) => (
              <Table.Tr key={row.id}>
                <Table.Td>
                  <Text size="sm">{formatDateTime(row.created_at)}</Text>
                </Table.Td>
                <Table.Td>
                  <ActivityTypeBadge type={row.type} />
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{row.description}</Text>
                </Table.Td>
              </Table.Tr>
            ))}
          </PagedTable>
        ) : null}
      </Card>
    </>
  );
}
