import { useState } from 'react';
import { Badge, Button, Card, Group, Select, Table, Text, Title } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { IconDownload } from '@tabler/icons-react';
import { getJobActivityLabel, getJobActivityStatusLabel, ZActivityType, type TActivityType, type TJobActivityStatus } from '@verilead/contracts';
import { ActivityTypeBadge } from '../../../components/activity-type-badge';
import { EmptyState, ErrorState } from '../../../components/state-views';
import { LoadingScreen } from '../../../components/loading-screen';
import { PageHeader } from '../../../components/page-header';
import { PagedTable, usePaging } from '../../../components/paged-table-footer';
import { formatDateTime, humanizeKey, toZonedDayRange } from '../../../lib/format';
import { useActivities } from '../../../lib/user-queries';
import { ActivityDownloadModal } from '../components/activity-download-modal';

const TYPE_OPTIONS = ZActivityType.options.map((type) => ({ value: type, label: getJobActivityLabel(type, 'history') ?? humanizeKey(type) }));

/** The badge colour of a job activity's status: waiting and running in yellow, failures red, the rest history. */
function statusColor(status: TJobActivityStatus | null): string {
  if (status === 'failed') return 'red';
  if (status === 'cancelled') return 'gray';
  if (status === 'queued' || status === 'in_progress') return 'yellow';
  return 'cyan';
}

/** The log of the user's actions and jobs, paged, with its download. */
export function ActivitiesScreen() {
  const { page, limit, setPage, changeLimit } = usePaging();
  const [type, setType] = useState<TActivityType | null>(null);
  const [days, setDays] = useState<[string | null, string | null]>([null, null]);
  const [downloading, setDownloading] = useState(false);
  const range = toZonedDayRange(days);
  const filters = { type: type ?? undefined, from: range.from, to: range.to };
  const activities = useActivities({ page, limit, ...filters });

  return (
    <>
      <PageHeader
        title="Activities"
        description="What you did in Verilead and what your jobs did for you."
        actions={
          <Button leftSection={<IconDownload size={16} />} variant="default" onClick={() => setDownloading(true)}>
            Download
          </Button>
        }
      />
      <Card>
        <Group justify="space-between" mb="md" wrap="wrap">
          <Title order={4} fz={16}>
            Activity log
          </Title>
          <Group gap="sm">
            <DatePickerInput
              type="range"
              aria-label="Activity dates"
              placeholder="Any date"
              clearable
              value={days}
              onChange={(value) => {
                setDays(value as [string | null, string | null]);
                setPage(1);
              }}
              w={240}
            />
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
        </Group>
        {activities.isPending ? <LoadingScreen minHeight={160} /> : null}
        {activities.isError ? <ErrorState error={activities.error} onRetry={() => void activities.refetch()} /> : null}
        {activities.data && activities.data.total === 0 ? (
          <EmptyState title="No activity yet" description={type || days[0] ? 'No activity for these filters.' : 'Your logins, changes and jobs will be listed here.'} />
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
            {activities.data.items.map((row) => {
              const jobLabel = getJobActivityStatusLabel(row.type, row.status);
              return (
                <Table.Tr key={row.id}>
                  <Table.Td>
                    <Text size="sm">{formatDateTime(row.created_at)}</Text>
                  </Table.Td>
                  <Table.Td>
                    {jobLabel ? (
                      <Group gap={6} wrap="nowrap">
                        <Badge variant="light" radius="sm" color={statusColor(row.status)}>
                          {jobLabel}
                        </Badge>
                        {row.status === 'in_progress' && row.progress !== null ? (
                          <Text size="xs" c="dimmed" aria-label="Progress">
                            {row.progress}%
                          </Text>
                        ) : null}
                      </Group>
                    ) : (
                      <ActivityTypeBadge type={row.type} />
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{row.description}</Text>
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </PagedTable>
        ) : null}
      </Card>
      <ActivityDownloadModal opened={downloading} onClose={() => setDownloading(false)} filters={filters} />
    </>
  );
}
