import { ActionIcon, Anchor, Button, Group, Menu, Progress, Stack, Table, Text, Tooltip } from '@mantine/core';
import { IconDots, IconDownload, IconPlayerStop, IconPlus, IconTrash, IconUserSearch } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { TFinderList, TFinderListState } from '@verilead/contracts';
import { ListTableCard, useListTableState, type TListStateFilter } from '../../../components/list-table-card';
import { PageHeader } from '../../../components/page-header';
import { formatDateTime, formatNumber } from '../../../lib/format';
import { useFinderLists } from '../api/email-finder-api';
import { FinderListStateBadge } from '../components/finder-list-state-badge';
import { useFinderListActions } from '../components/use-finder-list-actions';
import { canCancelFinderList, canDownloadFinderList, canFindEmails } from '../utils/finder-list-rules';

const STATE_FILTERS: TListStateFilter<TFinderListState>[] = [
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
  const table = useListTableState(STATE_FILTERS);
  const actions = useFinderListActions();
  const lists = useFinderLists(table.params);

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
      <ListTableCard
        table={table}
        query={lists}
        addListPath="/email_finder/add_list"
        emptyDescription="Upload a CSV or XLSX file of people to find their addresses in bulk."
        tableLabel="Email finder lists"
        minWidth={880}
        head={
          <>
            <Table.Th>Name</Table.Th>
            <Table.Th>State</Table.Th>
            <Table.Th ta="right">Rows</Table.Th>
            <Table.Th ta="right">Found</Table.Th>
            <Table.Th ta="right">Not found</Table.Th>
            <Table.Th ta="right">Confidence</Table.Th>
            <Table.Th>Uploaded</Table.Th>
            <Table.Th ta="right">Actions</Table.Th>
          </>
        }
        renderRow={(list) => <FinderListRow key={list.id} list={list} actions={actions} />}
      />
      {actions.dialogs}
    </>
  );
}
