import { Table, Text } from '@mantine/core';
import { IconUserSearch } from '@tabler/icons-react';
import type { TFinderList, TFinderListState } from '@verilead/contracts';
import { ListTablePage, useListTableState, type TListStateFilter } from '../../../components/list-table-page';
import { ListNameCell, ListRowActionsCell, ListStateCell } from '../../../components/list-table-row';
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
      <ListNameCell detailPath={detail} name={list.name} fileName={list.file_name} />
      <ListStateCell
        badge={<FinderListStateBadge list={list} />}
        progress={list.state === 'in_progress' ? list.progress : null}
        progressLabel={`Search progress of ${list.name}`}
      />
      <Table.Td ta="right" data-label="Rows">{formatNumber(list.counts.rows)}</Table.Td>
      <Table.Td ta="right" data-label="Found">{formatNumber(list.stats.found)}</Table.Td>
      <Table.Td ta="right" data-label="Not found">{formatNumber(list.stats.not_found)}</Table.Td>
      <Table.Td ta="right" data-label="Confidence">{list.stats.found > 0 ? Math.round(list.stats.confidence_score) : '-'}</Table.Td>
      <Table.Td data-label="Uploaded">
        <Text size="xs">{formatDateTime(list.created_at)}</Text>
      </Table.Td>
      <ListRowActionsCell
        name={list.name}
        detailPath={detail}
        start={{ label: 'Find', menuLabel: 'Find addresses', icon: IconUserSearch, enabled: canFindEmails(list), onClick: () => actions.find(list) }}
        cancel={{ enabled: canCancelFinderList(list), onClick: () => actions.cancel(list) }}
        fetch={{ label: 'Download', enabled: canDownloadFinderList(list), onClick: () => actions.download(list) }}
        remove={{ disabled: list.state === 'in_progress', onClick: () => actions.remove(list) }}
      />
    </Table.Tr>
  );
}

/** /email_finder/lists: uploaded people lists with state, found counts and actions. */
export function FinderListsScreen() {
  const table = useListTableState(STATE_FILTERS);
  const actions = useFinderListActions();
  const lists = useFinderLists(table.params);

  return (
    <ListTablePage
      description="Your people lists: find their addresses, follow progress and download the results."
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
    >
      {actions.dialogs}
    </ListTablePage>
  );
}
