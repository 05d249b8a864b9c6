import { useState } from 'react';
import { Badge, Button, Card, Group, Table, Text, Title } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { IconDownload } from '@tabler/icons-react';
import { getJobActivityLabel, getJobActivityStatusLabel, ZActivityType, type TActivityType, type TJobActivityStatus } from '@verilead/contracts';
import { ActivityTypeBadge } from '../../../components/activity-type-badge';
import { PageHeader } from '../../../components/page-header';
import { FilterSelect, PagedQueryTable, usePagedFilter, usePaging } from '../../../components/paged-table-footer';
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
  const paging = usePaging();
  const { page, limit, setPage } = paging;
  const [type, setType] = usePagedFilter<TActivityType | null>(null, setPage);
  const [days, setDays] = usePagedFilter<[string | null, string | null]>([null, null], setPage);
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
              onChange={(value) => setDays(value as [string | null, string | null])}
              w={240}
            />
            <FilterSelect label="Activity type" placeholder="All activity" data={TYPE_OPTIONS} value={type} onChange={setType} searchable width={200} />
          </Group>
        </Group>
        <PagedQueryTable
          query={activities}
          paging={paging}
          loadingHeight={160}
          empty={{ title: 'No activity yet', description: type || days[0] ? 'No activity for these filters.' : 'Your logins, changes and jobs will be listed here.' }}
          label="Activities"
          minWidth={640}
          head={
            <>
              <Table.Th w={200}>When</Table.Th>
              <Table.Th w={170}>Type</Table.Th>
              <Table.Th>Description</Table.Th>
            </>
          }
        >
          {(items) =>
            items.map((row) => {
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
            })
          }
        </PagedQueryTable>
      </Card>
      <ActivityDownloadModal opened={downloading} onClose={() => setDownloading(false)} filters={filters} />
    </>
  );
}
