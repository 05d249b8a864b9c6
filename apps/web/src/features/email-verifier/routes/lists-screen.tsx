import { useState } from 'react';
import { ActionIcon, Anchor, Button, Card, Group, Menu, Progress, SegmentedControl, Select, Stack, Table, Text, TextInput, Tooltip } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconDots, IconDownload, IconPlayerStop, IconPlus, IconSearch, IconShieldCheck, IconTrash } from '@tabler/icons-react';
import { Link } from 'react-router';
import { PAGE_SIZES, type TVerifyList, type TVerifyListState } from '@verilead/contracts';
import { PagedTableFooter } from '../../../components/paged-table-footer';
import { PageHeader } from '../../../components/page-header';
import { EmptyState, ErrorState } from '../../../components/state-views';
import { LoadingScreen } from '../../../components/loading-screen';
import { formatDateTime, formatNumber, humanizeKey } from '../../../lib/format';
import { useVerifyLists } from '../api/email-verifier-api';
import { ListStateBadge } from '../components/list-state-badge';
import { useListActions } from '../components/use-list-actions';
import { canCancelList, canExportList, canVerifyList } from '../utils/list-actions-rules';

type TSort = 'created_at:desc' | 'created_at:asc' | 'name:asc' | 'name:desc' | 'total:desc' | 'total:asc' | 'updated_at:desc';
const SORTS: { value: TSort; label: string }[] = [
  { value: 'created_at:desc', label: 'Newest first' },
  { value: 'created_at:asc', label: 'Oldest first' },
  { value: 'updated_at:desc', label: 'Recently updated' },
  { value: 'name:asc', label: 'Name A–Z' },
  { value: 'name:desc', label: 'Name Z–A' },
  { value: 'total:desc', label: 'Largest first' },
  { value: 'total:asc', label: 'Smallest first' },
];
const STATE_FILTERS: { value: 'all' | TVerifyListState; label: string }[] = [
  { value: 'all', label: 'All' },
  { value: 'verified', label: 'Verified' },
  { value: 'non_verified', label: 'Not verified' },
  { value: 'in_progress', label: 'In progress' },
  { value: 'cancelled', label: 'Cancelled' },
];

function ListRow({ list, actions }: { list: TVerifyList; actions: ReturnType<typeof useListActions> }) {
  const detail = `/email_verifier/lists/${list.id}`;
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
        <Text size="sm">{humanizeKey(list.source)}</Text>
      </Table.Td>
      <Table.Td>
        <Stack gap={4}>
          <ListStateBadge list={list} />
          {list.state === 'in_progress' ? <Progress value={list.progress} size="sm" w={90} aria-label={`Verification progress of ${list.name}`} /> : null}
        </Stack>
      </Table.Td>
      <Table.Td ta="right">{formatNumber(list.counts.rows)}</Table.Td>
      <Table.Td ta="right">{formatNumber(list.stats.valid)}</Table.Td>
      <Table.Td ta="right">{formatNumber(list.stats.invalid)}</Table.Td>
      <Table.Td ta="right">{formatNumber(list.counts.duplicate)}</Table.Td>
      <Table.Td>
        <Text size="xs">{formatDateTime(list.created_at)}</Text>
      </Table.Td>
      <Table.Td>
        <Group gap={4} justify="flex-end" wrap="nowrap">
          {canVerifyList(list) ? (
            <Button size="compact-sm" leftSection={<IconShieldCheck size={14} />} onClick={() => actions.verify(list)}>
              Verify
            </Button>
          ) : null}
          {canCancelList(list) ? (
            <Button size="compact-sm" color="red" variant="light" leftSection={<IconPlayerStop size={14} />} onClick={() => actions.cancel(list)}>
              Cancel
            </Button>
          ) : null}
          {canExportList(list) && !canVerifyList(list) ? (
            <Tooltip label="Download results" withArrow>
              <ActionIcon variant="light" onClick={() => actions.exportList(list)} aria-label={`Export ${list.name}`}>
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
              <Menu.Item leftSection={<IconShieldCheck size={14} />} disabled={!canVerifyList(list)} onClick={() => actions.verify(list)}>
                Verify
              </Menu.Item>
              <Menu.Item leftSection={<IconPlayerStop size={14} />} disabled={!canCancelList(list)} onClick={() => actions.cancel(list)}>
                Cancel
              </Menu.Item>
              <Menu.Item leftSection={<IconDownload size={14} />} disabled={!canExportList(list)} onClick={() => actions.exportList(list)}>
                Export
              </Menu.Item>
              <Menu.Divider />
              <Menu.Item color="red" leftSection={<IconTrash size={14} />} onClick={() => actions.remove(list)}>
                Remove
              </Menu.Item>
            </Menu.Dropdown>
          </Menu>
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}

/** /email_verifier/lists: every uploaded list with its state, counts and actions. */
export function ListsScreen() {
  const [page, setPage] = useState(1);
  const [limit, setLimit] = useState<number>(PAGE_SIZES[0]);
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const [sort, setSort] = useState<TSort>('created_at:desc');
  const [state, setState] = useState<'all' | TVerifyListState>('all');
  const [sortBy, sortOrder] = sort.split(':') as ['created_at' | 'updated_at' | 'name' | 'total', 'asc' | 'desc'];
  const actions = useListActions();

  const params = { page, limit, search: debounced || undefined, state: state === 'all' ? undefined : state, sort_by: sortBy, sort_order: sortOrder };
  const lists = useVerifyLists(params);

  return (
    <>
      <PageHeader
        title="Lists"
        description="Your uploaded lists: verify them, follow progress and download the results."
        actions={
          <Button component={Link} to="/email_verifier/add_list" leftSection={<IconPlus size={16} />}>
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
            <Select
              label="Sort by"
              data={SORTS}
              value={sort}
              onChange={(value) => value && setSort(value as TSort)}
              allowDeselect={false}
              w={180}
            />
          </Group>
        </Group>
        {lists.isPending ? <LoadingScreen /> : null}
        {lists.isError ? <ErrorState error={lists.error} onRetry={() => void lists.refetch()} /> : null}
        {lists.data && lists.data.items.length === 0 ? (
          <EmptyState
            title={debounced || state !== 'all' ? 'No lists match' : 'No lists yet'}
            description={debounced || state !== 'all' ? 'Try another search or filter.' : 'Upload a CSV, XLSX or TXT file to verify it in bulk.'}
            action={
              debounced || state !== 'all' ? undefined : (
                <Button component={Link} to="/email_verifier/add_list" mt="sm" leftSection={<IconPlus size={16} />}>
                  Add list
                </Button>
              )
            }
          />
        ) : null}
        {lists.data && lists.data.items.length > 0 ? (
          <>
            <Table.ScrollContainer minWidth={900}>
              <Table verticalSpacing="sm" highlightOnHover aria-label="Email verifier lists">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Name</Table.Th>
                    <Table.Th>Source</Table.Th>
                    <Table.Th>State</Table.Th>
                    <Table.Th ta="right">Rows</Table.Th>
                    <Table.Th ta="right">Valid</Table.Th>
                    <Table.Th ta="right">Invalid</Table.Th>
                    <Table.Th ta="right">Duplicates</Table.Th>
                    <Table.Th>Uploaded</Table.Th>
                    <Table.Th ta="right">Actions</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {lists.data.items.map((list) => (
                    <ListRow key={list.id} list={list} actions={actions} />
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
