import { Table, Text } from '@mantine/core';
import { IconShieldCheck } from '@tabler/icons-react';
import type { TVerifyList, TVerifyListState } from '@verilead/contracts';
import { ListTablePage, useListTableState, type TListStateFilter } from '../../../components/list-table-page';
import { ListNameCell, ListRowActionsCell, ListStateCell } from '../../../components/list-table-row';
import { formatDateTime, formatNumber, humanizeKey } from '../../../lib/format';
import { useVerifyLists } from '../api/email-verifier-api';
import { ListStateBadge } from '../components/list-state-badge';
import { useListActions } from '../components/use-list-actions';
import { describeGreylistWait } from '../utils/greylist-wait';
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
  const greylistWait = list.state === 'in_progress' ? describeGreylistWait(list.greylist) : null;
  return (
    <Table.Tr data-testid="list-row">
      <ListNameCell detailPath={detail} name={list.name} fileName={list.file_name} />
      <Table.Td data-label="Source">
        <Text size="sm">{humanizeKey(list.source)}</Text>
      </Table.Td>
      <ListStateCell
        badge={<ListStateBadge list={list} />}
        progress={list.state === 'in_progress' ? list.progress : null}
        progressLabel={`Verification progress of ${list.name}`}
        note={
          greylistWait ? (
            <Text size="xs" c="dimmed" maw={200} data-testid="list-greylist-wait">
              {greylistWait}
            </Text>
          ) : null
        }
      />
      <Table.Td ta="right" data-label="Rows">{formatNumber(list.counts.rows)}</Table.Td>
      <Table.Td ta="right" data-label="Valid">{formatNumber(list.stats.valid)}</Table.Td>
      <Table.Td ta="right" data-label="Invalid">{formatNumber(list.stats.invalid)}</Table.Td>
      <Table.Td ta="right" data-label="Duplicates">{formatNumber(list.counts.duplicate)}</Table.Td>
      <Table.Td data-label="Uploaded">
        <Text size="xs">{formatDateTime(list.created_at)}</Text>
      </Table.Td>
      <ListRowActionsCell
        name={list.name}
        detailPath={detail}
        start={{ label: 'Verify', menuLabel: 'Verify', icon: IconShieldCheck, enabled: canVerifyList(list), onClick: () => actions.verify(list) }}
        cancel={{ enabled: canCancelList(list), onClick: () => actions.cancel(list) }}
        fetch={{ label: 'Export', enabled: canExportList(list), onClick: () => actions.exportList(list) }}
        remove={{ onClick: () => actions.remove(list) }}
      />
    </Table.Tr>
  );
}

/** /email_verifier/lists: every uploaded list with its state, counts and actions. */
export function ListsScreen() {
  const table = useListTableState(STATE_FILTERS);
  const actions = useListActions();
  const lists = useVerifyLists(table.params);

  return (
    <ListTablePage
      description="Your uploaded lists: verify them, follow progress and download the results."
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
    >
      {actions.dialogs}
    </ListTablePage>
  );
}
