import { useState, type ReactNode } from 'react';
import { Button, Card, Group, SegmentedControl, Select, Table, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconPlus, IconSearch } from '@tabler/icons-react';
import { Link } from 'react-router';
import { LoadingScreen } from './loading-screen';
import { PageHeader } from './page-header';
import { PagedTableFooter, usePaging } from './paged-table-footer';
import { EmptyState, ErrorState } from './state-views';
import { STACK_ON_PHONE } from './stacked-table';

export type TListSort = 'created_at:desc' | 'created_at:asc' | 'updated_at:desc' | 'name:asc' | 'name:desc' | 'total:desc' | 'total:asc';
type TListSortBy = 'created_at' | 'updated_at' | 'name' | 'total';

/** The sort choices every uploaded-list table offers. */
export const LIST_SORTS: { value: TListSort; label: string }[] = [
  { value: 'created_at:desc', label: 'Newest first' },
  { value: 'created_at:asc', label: 'Oldest first' },
  { value: 'updated_at:desc', label: 'Recently updated' },
  { value: 'name:asc', label: 'Name A–Z' },
  { value: 'name:desc', label: 'Name Z–A' },
  { value: 'total:desc', label: 'Largest first' },
  { value: 'total:asc', label: 'Smallest first' },
];

export type TListStateFilter<TState extends string> = { value: 'all' | TState; label: string };

/** Search, state filter, sort and paging of an uploaded-list table, plus the request they make. */
export function useListTableState<TState extends string>(stateFilters: TListStateFilter<TState>[]) {
  const { page, limit, setPage, changeLimit } = usePaging();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const [sort, setSort] = useState<TListSort>('created_at:desc');
  const [state, setState] = useState<'all' | TState>('all');
  const [sortBy, sortOrder] = sort.split(':') as [TListSortBy, 'asc' | 'desc'];
  return {
    page,
    limit,
    search,
    sort,
    state,
    stateFilters,
    filtered: Boolean(debounced) || state !== 'all',
    params: { page, limit, search: debounced || undefined, state: state === 'all' ? undefined : state, sort_by: sortBy, sort_order: sortOrder },
    setPage,
    setSort,
    changeSearch: (value: string) => {
      setSearch(value);
      setPage(1);
    },
    changeState: (value: string) => {
      setState(stateFilters.find((item) => item.value === value)?.value ?? 'all');
      setPage(1);
    },
    changeLimit,
  };
}

export type TListTableState = ReturnType<typeof useListTableState<string>>;

type TListQuery<TItem> = {
  isPending: boolean;
  isError: boolean;
  error: unknown;
  data?: { items: TItem[]; total: number } | undefined;
  refetch: () => Promise<unknown>;
};

/**
 * The lists page of a bulk feature: the header with "Add list", then a card with the toolbar, loading, error and
 * empty states, the table and its paging; `children` follow the card (the actions' dialogs).
 */
export function ListTablePage<TItem>({
  description,
  table,
  query,
  addListPath,
  emptyDescription,
  tableLabel,
  minWidth,
  head,
  renderRow,
  children,
}: {
  description: string;
  table: TListTableState;
  query: TListQuery<TItem>;
  addListPath: string;
  emptyDescription: string;
  tableLabel: string;
  minWidth: number;
  head: ReactNode;
  renderRow: (item: TItem) => ReactNode;
  children?: ReactNode;
}) {
  return (
    <>
      <PageHeader
        title="Lists"
        description={description}
        actions={
          <Button component={Link} to={addListPath} leftSection={<IconPlus size={16} />}>
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
            value={table.search}
            onChange={(event) => table.changeSearch(event.currentTarget.value)}
            w={260}
          />
          <Group gap="sm" align="flex-end" wrap="wrap">
            <SegmentedControl value={table.state} onChange={table.changeState} data={table.stateFilters} aria-label="Filter by state" size="sm" visibleFrom="sm" />
            {/* On a phone the row of states is wider than the screen (it was cut at "In progr"): a select instead. */}
            <Select
              label="State"
              data={table.stateFilters}
              value={table.state}
              onChange={(value) => value && table.changeState(value)}
              allowDeselect={false}
              w={180}
              hiddenFrom="sm"
              data-testid="state-select"
            />
            <Select label="Sort by" data={LIST_SORTS} value={table.sort} onChange={(value) => value && table.setSort(value as TListSort)} allowDeselect={false} w={180} />
          </Group>
        </Group>
        {query.isPending ? <LoadingScreen /> : null}
        {query.isError ? <ErrorState error={query.error} onRetry={() => void query.refetch()} /> : null}
        {query.data && query.data.items.length === 0 ? (
          <EmptyState
            title={table.filtered ? 'No lists match' : 'No lists yet'}
            description={table.filtered ? 'Try another search or filter.' : emptyDescription}
            action={
              table.filtered ? undefined : (
                <Button component={Link} to={addListPath} mt="sm" leftSection={<IconPlus size={16} />}>
                  Add list
                </Button>
              )
            }
          />
        ) : null}
        {query.data && query.data.items.length > 0 ? (
          <>
            <Table.ScrollContainer minWidth={minWidth}>
              {/* One card per list on a phone: the rows label their cells (data-label). */}
              <Table verticalSpacing="sm" highlightOnHover aria-label={tableLabel} className={STACK_ON_PHONE}>
                <Table.Thead>
                  <Table.Tr>{head}</Table.Tr>
                </Table.Thead>
                <Table.Tbody>{query.data.items.map(renderRow)}</Table.Tbody>
              </Table>
            </Table.ScrollContainer>
            <PagedTableFooter page={table.page} limit={table.limit} total={query.data.total} onPageChange={table.setPage} onLimitChange={table.changeLimit} />
          </>
        ) : null}
      </Card>
      {children}
    </>
  );
}
