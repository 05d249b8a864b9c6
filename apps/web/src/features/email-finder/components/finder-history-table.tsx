import { useState } from 'react';
import { Badge, Button, Card, Group, SegmentedControl, Table, Text, TextInput, Title } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { useDebouncedValue } from '@mantine/hooks';
import { IconDownload, IconSearch } from '@tabler/icons-react';
import type { TFinderStatus } from '@verilead/contracts';
import { LoadingScreen } from '../../../components/loading-screen';
import { PagedTableFooter, usePaging } from '../../../components/paged-table-footer';
import { EmptyState, ErrorState } from '../../../components/state-views';
import { formatDateTime, toZonedDayRange } from '../../../lib/format';
import { startHistoryDownload, useFinderHistory } from '../api/email-finder-api';
import { getConfidenceLook } from '../utils/finder-format';
import { FinderDownloadModal } from './finder-download-modal';

type TStatusFilter = 'all' | TFinderStatus;

/** Past finds of the organisation: paged, searchable, filtered by status and date, downloadable. */
export function FinderHistoryTable() {
  const { page, limit, setPage, changeLimit } = usePaging();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const [status, setStatus] = useState<TStatusFilter>('all');
  const [range, setRange] = useState<[string | null, string | null]>([null, null]);
  const [downloadOpen, setDownloadOpen] = useState(false);
  const filters = {
    search: debounced || undefined,
    status: status === 'all' ? undefined : status,
    ...toZonedDayRange(range),
  };
  const history = useFinderHistory({ page, limit, ...filters });
  const filtered = Boolean(filters.search || filters.status || filters.from || filters.to);

  return (
    <Card padding="lg">
      <Group justify="space-between" mb="md" wrap="wrap" gap="sm" align="flex-end">
        <Title order={4} fz={16}>
          History
        </Title>
        <Button variant="light" leftSection={<IconDownload size={16} />} onClick={() => setDownloadOpen(true)} disabled={!history.data || history.data.total === 0}>
          Download history
        </Button>
      </Group>
      <Group mb="md" wrap="wrap" gap="sm" align="flex-end">
        <TextInput
          label="Search history"
          placeholder="Name, address or domain"
          leftSection={<IconSearch size={16} />}
          value={search}
          onChange={(event) => {
            setSearch(event.currentTarget.value);
            setPage(1);
          }}
          w={240}
        />
        <SegmentedControl
          value={status}
          onChange={(value) => {
            setStatus(value === 'found' || value === 'not_found' ? value : 'all');
            setPage(1);
          }}
          data={[
            { value: 'all', label: 'All' },
            { value: 'found', label: 'Found' },
            { value: 'not_found', label: 'Not found' },
          ]}
          aria-label="Filter by status"
        />
        <DatePickerInput
          type="range"
          label="Date"
          placeholder="Any date"
          value={range}
          onChange={(value) => {
            setRange([value[0] ? String(value[0]) : null, value[1] ? String(value[1]) : null]);
            setPage(1);
          }}
          clearable
          w={240}
        />
      </Group>
      {history.isPending ? <LoadingScreen /> : null}
      {history.isError ? <ErrorState error={history.error} onRetry={() => void history.refetch()} /> : null}
      {history.data && history.data.items.length === 0 ? (
        <EmptyState title={filtered ? 'Nothing matches' : 'No searches yet'} description={filtered ? 'Try another search or filter.' : 'Addresses you find appear here.'} />
      ) : null}
      {history.data && history.data.items.length > 0 ? (
        <>
          <Table.ScrollContainer minWidth={820}>
            <Table verticalSpacing="xs" highlightOnHover aria-label="Finder history">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Name</Table.Th>
                  <Table.Th>Domain</Table.Th>
                  <Table.Th>Address</Table.Th>
                  <Table.Th>Confidence</Table.Th>
                  <Table.Th>Flags</Table.Th>
                  <Table.Th ta="right">Credits</Table.Th>
                  <Table.Th>Date</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {history.data.items.map((item) => {
                  const look = getConfidenceLook(item.confidence_score);
                  return (
                    <Table.Tr key={item.id} data-testid="history-row">
                      <Table.Td>
                        <Text size="sm" fw={500}>
                          {item.full_name}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm">{item.domain}</Text>
                      </Table.Td>
                      <Table.Td>
                        {item.email ? (
                          <Text size="sm" ff="monospace">
                            {item.email}
                          </Text>
                        ) : (
                          <Text size="sm" c="dimmed">
                            Not found
                          </Text>
                        )}
                      </Table.Td>
                      <Table.Td>
                        <Badge color={look.color} variant="light">
                          {item.confidence_score} · {look.label}
                        </Badge>
                      </Table.Td>
                      <Table.Td>
                        <Group gap={4}>
                          {item.business ? (
                            <Badge size="xs" variant="outline" color="indigo">
                              Business
                            </Badge>
                          ) : null}
                          {item.role ? (
                            <Badge size="xs" variant="outline" color="yellow">
                              Role
                            </Badge>
                          ) : null}
                          {item.catch_all ? (
                            <Badge size="xs" variant="outline" color="orange">
                              Catch-all
                            </Badge>
                          ) : null}
                        </Group>
                      </Table.Td>
                      <Table.Td ta="right">{item.credits_charged}</Table.Td>
                      <Table.Td>
                        <Text size="xs">{formatDateTime(item.created_at)}</Text>
                      </Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <PagedTableFooter
            page={page}
            limit={limit}
            total={history.data.total}
            onPageChange={setPage}
            onLimitChange={changeLimit}
          />
        </>
      ) : null}
      <FinderDownloadModal
        title="Download finder history"
        opened={downloadOpen}
        onClose={() => setDownloadOpen(false)}
        withFormats={false}
        start={({ fileType }, signal) => startHistoryDownload({ ...filters, file_type: fileType }, signal)}
      />
    </Card>
  );
}
