import { useState } from 'react';
import { ActionIcon, Anchor, Button, Card, Group, Menu, Progress, SegmentedControl, Select, Stack, Table, Text, TextInput, Tooltip } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconDots, IconDownload, IconPlayerStop, IconPlus, IconSearch, IconTrash, IconUserSearch } from '@tabler/icons-react';
import { Link } from 'react-router';
import { PAGE_SIZES, type TFinderList, type TFinderListState } from '@verilead/contracts';
import { LoadingScreen } from '../../../components/loading-screen';
import { PagedTableFooter } from '../../../components/paged-table-footer';
import { PageHeader } from '../../../components/page-header';
import { EmptyState, ErrorState } from '../../../components/state-views';
import { formatDateTime, formatNumber } from '../../../lib/format';
import { useFinderLists } from '../api/email-finder-api';
import { FinderListStateBadge } from '../components/finder-list-state-badge';
import { useFinderListActions } from '../components/use-finder-list-actions';
import { canCancelFinderList, canDownloadFinderList, canFindEmails } from '../utils/finder-list-rules';

type TSort = 'created_at:desc' | 'created_at:asc' | 'updated_at:desc' | 'name:asc' | 'name:desc' | 'total:desc' | 'total:asc';
const SORTS: { value: TSort; label: string }[] = [
  { value: 'created_at:desc', label: 'Newest first' },
  { value: 'created_at:asc', label: 'Oldest first' },
  { value: 'updated_at:desc', label: 'Recently updated' },
  { value: 'name:asc', label: 'Name A–Z' },
  { value: 'name:desc', label: 'Name Z–A' },
  { value: 'total:desc', label: 'Largest first' },
  { value: 'total:asc', label: 'Smallest first' },
];
const STATE_FILTERS: { value: 'all' | TFinderListState; label: string }[] = [
  { value: 'all', label: 'All' },
  { value: 'processed', label: 'Processed' },
  { value: 'not_processed', label: 'Not processed' },
  { value: 'in_progress', label: 'In progress' },
  { value: 'cancelled', label: 'Cancelled' },
];

function FinderListRow({ list, actions }: { list: TFinderList; actions: ReturnType<typeof useFinderListActions> }) {
  const detail = `/email_finder/lists/${list.id}`;
  return (
    <Table.Tr data-testid="list-row">
      <Table.Td maw={280}>
        <Anchor component={Link} to={detail} fw={600} size="sm" style={{ display: 'block' }} truncate>
          {list.name}
        </Anchor>
        <Text size="xs" c="dimmed" truncate>
          {list.file_name}
        </Text>
      </Table.Td>
      <Table.Td>
        <Stack gap={4}>
          <FinderListStateBadge list={list} />
          {list.state === 'in_progress' ? <Progress value={list.progress} size="sm" w={90} aria-label={`Search progress of ${list.name}`} /> : null}
        </Stack>
      </Table.Td>
      <Table.Td ta="right">{formatNumber(list.counts.rows)}</Table.Td>
      <Table.Td ta="right">{formatNumber(list.stats.found)}</Table.Td>
      <Table.Td ta="right">{formatNumber(list.stats.not_found)}</Table.Td>
      <Table.Td ta="right">{list.stats.found > 0 ? Math.round(list.stats.confidence_score) : '-'}</Table.Td>
      <Table.Td>
        <Text size="xs">{formatDateTime(list.created_at)}</Text>
      </Table.Td>
      <Table.Td>
        <Group gap={4} justify="flex-end" wrap="nowrap">
          {canFindEmails(list) ? (
            <Button size="compact-sm" leftSection={<IconUserSearch size={14} />} onClick={() => actions.find(list)}>
              Find
            </Button>
          ) : null}
          {canCancelFinderList(list) ? (
            <Button size="compact-sm" color="red" variant="light" leftSection={<IconPlayerStop size={14} />} onClick={() => actions.cancel(list)}>
              Cancel
            </Button>
          ) : null}
          {canDownloadFinderList(list) && !canFindEmails(list) ? (
            <Tooltip label="Download results" withArrow>
              <ActionIcon variant="light" onClick={() => actions.download(list)} aria-label={`Download ${list.name}`}>
                <IconDownload size={16} />
              </ActionIcon>
            </Tooltip>
          ) : null}
          <Menu position="bottom-end" withinPortal>
            <Menu.Target>
              <ActionIcon variant="subtle" color="gray" aria-label={`More actions for ${list.name}`}>
                <IconDots size={16} />
              </ActionIcon>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Item component={Link} to={detail}>
                Open
              </Menu.Item>
              <Menu.Item leftSection={<IconUserSearch size={14} />} disabled={!canFindEmails(list)} onClick={() => actions.find(list)}>
                Find addresses
              </Menu.Item>
              <Menu.Item leftSection={<IconPlayerStop size={14} />} disabled={!canCancelFinderList(list)} onClick={() => actions.cancel(list)}>
                Cancel
              </Menu.Item>
              <Menu.Item leftSection={<IconDownload size={14} />} disabled={!canDownloadFinderList(list)} onClick={() => actions.download(list)}>
                Download
              </Menu.Item>
              <Menu.Divider />
              <Menu.Item color="red" leftSection={<IconTrash size={14} />} disabled={list.state === 'in_progress'} onClick={() => actions.remove(list)}>
                Remove
              </Menu.Item>
            </Menu.Dropdown>
          </Menu>
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}

/** /email_finder/lists: uploaded people lists with state, found counts and actions. */
export function FinderListsScreen() {
  const [page, setPage] = useState(1);
  const [limit, setLimit] = useState<number>(PAGE_SIZES[0]);
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const [sort, setSort] = useState<TSort>('created_at:desc');
  const [state, setState] = useState<'all' | TFinderListState>('all');
  const [sortBy, sortOrder] = sort.split(':') as ['created_at' | 'updated_at' | 'name' | 'total', 'asc' | 'desc'];
  const actions = useFinderListActions();
  const lists = useFinderLists({ page, limit, search: debounced || undefined, state: state === 'all' ? undefined : state, sort_by: sortBy, sort_order: sortOrder });
  const filtered = Boolean(debounced) || state !== 'all';

  return (
    <>
      <PageHeader
        title="Lists"
        description="Your people lists: find their addresses, follow progress and download the results."
        actions={
          <Button component={Link} to="/email_finder/add_list" leftSection={<IconPlus size={16} />}>
            Add list
          </Button>
        }
      />
      <Card padding="lg">
        <Group justify="space-between" mb="md" wrap="wrap" gap="sm">
          <TextInput
            label="Search lists"
            placeholder="List or file name"
            leftSection={<IconSearch size={16} />}
            value={search}
            onChange={(event) => {
              setSearch(event.currentTarget.value);
              setPage(1);
            }}
            w={260}
          />
          <Group gap="sm" align="flex-end" wrap="wrap">
            <SegmentedControl
              value={state}
              onChange={(value) => {
                setState(STATE_FILTERS.find((item) => item.value === value)?.value ?? 'all');
                setPage(1);
              }}
              data={STATE_FILTERS}
              aria-label="Filter by state"
              size="sm"
            />
            <Select label="Sort by" data={SORTS} value={sort} onChange={(value) => value && setSort(value as TSort)} allowDeselect={false} w={180} />
          </Group>
        </Group>
        {lists.isPending ? <LoadingScreen /> : null}
        {lists.isError ? <ErrorState error={lists.error} onRetry={() => void lists.refetch()} /> : null}
        {lists.data && lists.data.items.length === 0 ? (
          <EmptyState
            title={filtered ? 'No lists match' : 'No lists yet'}
            description={filtered ? 'Try another search or filter.' : 'Upload a CSV or XLSX file of people to find their addresses in bulk.'}
            action={
              filtered ? undefined : (
                <Button component={Link} to="/email_finder/add_list" mt="sm" leftSection={<IconPlus size={16} />}>
                  Add list
                </Button>
              )
            }
          />
        ) : null}
        {lists.data && lists.data.items.length > 0 ? (
          <>
            <Table.ScrollContainer minWidth={880}>
              <Table verticalSpacing="sm" highlightOnHover aria-label="Email finder lists">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Name</Table.Th>
                    <Table.Th>State</Table.Th>
                    <Table.Th ta="right">Rows</Table.Th>
                    <Table.Th ta="right">Found</Table.Th>
                    <Table.Th ta="right">Not found</Table.Th>
                    <Table.Th ta="right">Confidence</Table.Th>
                    <Table.Th>Uploaded</Table.Th>
                    <Table.Th ta="right">Actions</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {lists.data.items.map((list) => (
                    <FinderListRow key={list.id} list={list} actions={actions} />
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
            <PagedTableFooter
              page={page}
              limit={limit}
              total={lists.data.total}
              onPageChange={setPage}
              onLimitChange={(value) => {
                setLimit(value);
                setPage(1);
              }}
            />
          </>
        ) : null}
      </Card>
      {actions.dialogs}
    </>
  );
}
