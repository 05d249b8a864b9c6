import { ActionIcon, Anchor, Button, Group, Menu, Progress, Stack, Table, Text, Tooltip } from '@mantine/core';
import { IconDots, IconDownload, IconPlayerStop, IconPlus, IconShieldCheck, IconTrash } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { TVerifyList, TVerifyListState } from '@verilead/contracts';
import { ListTableCard, useListTableState, type TListStateFilter } from '../../../components/list-table-card';
import { PageHeader } from '../../../components/page-header';
import { formatDateTime, formatNumber, humanizeKey } from '../../../lib/format';
import { useVerifyLists } from '../api/email-verifier-api';
import { ListStateBadge } from '../components/list-state-badge';
import { useListActions } from '../components/use-list-actions';
import { canCancelList, canExportList, canVerifyList } from '../utils/list-actions-rules';

const STATE_FILTERS: TListStateFilter<TVerifyListState>[] = [
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
  const table = useListTableState(STATE_FILTERS);
  const actions = useListActions();
  const lists = useVerifyLists(table.params);

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
      <ListTableCard
        table={table}
        query={lists}
        addListPath="/email_verifier/add_list"
        emptyDescription="Upload a CSV, XLSX or TXT file to verify it in bulk."
        tableLabel="Email verifier lists"
        minWidth={900}
        head={
          <>
            <Table.Th>Name</Table.Th>
            <Table.Th>Source</Table.Th>
            <Table.Th>State</Table.Th>
            <Table.Th ta="right">Rows</Table.Th>
            <Table.Th ta="right">Valid</Table.Th>
            <Table.Th ta="right">Invalid</Table.Th>
            <Table.Th ta="right">Duplicates</Table.Th>
            <Table.Th>Uploaded</Table.Th>
            <Table.Th ta="right">Actions</Table.Th>
          </>
        }
        renderRow={(list) => <ListRow key={list.id} list={list} actions={actions} />}
      />
      {actions.dialogs}
    </>
  );
}
