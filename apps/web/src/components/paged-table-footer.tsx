import { useState, type ComponentProps, type ReactNode } from 'react';
import { Group, Pagination, ScrollArea, Select, Table, Text, type ComboboxData } from '@mantine/core';
import { PAGE_SIZES } from '@verilead/contracts';
import { formatNumber } from '../lib/format';
import { LoadingScreen } from './loading-screen';
import { EmptyState, ErrorState } from './state-views';
import { STACK_ON_PHONE } from './stacked-table';

const CONTROL_LABELS = { first: 'First page', previous: 'Previous page', next: 'Next page', last: 'Last page' } as const;

/** Page size choice (25/50/100/200/500), the row range and the page switcher under a paged table. */
export function PagedTableFooter({
  page,
  limit,
  total,
  onPageChange,
  onLimitChange,
}: {
  page: number;
  limit: number;
  total: number;
  onPageChange: (page: number) => void;
  onLimitChange: (limit: number) => void;
}) {
  const pages = Math.max(1, Math.ceil(total / limit));
  const first = total === 0 ? 0 : (page - 1) * limit + 1;
  const last = Math.min(total, page * limit);
  return (
    <Group justify="space-between" mt="md" wrap="wrap" gap="sm">
      <Group gap="xs">
        <Text size="sm" c="dimmed">
          Rows per page
        </Text>
        <Select
          aria-label="Rows per page"
          w={84}
          size="xs"
          data={PAGE_SIZES.map((size) => String(size))}
          value={String(limit)}
          onChange={(value) => value && onLimitChange(Number(value))}
          allowDeselect={false}
        />
        <Text size="sm" c="dimmed">
          {formatNumber(first)}–{formatNumber(last)} of {formatNumber(total)}
        </Text>
      </Group>
      <Pagination
        total={pages}
        value={Math.min(page, pages)}
        onChange={onPageChange}
        size="sm"
        withEdges={pages > 5}
        getControlProps={(control) => ({ 'aria-label': CONTROL_LABELS[control] })}
      />
    </Group>
  );
}

/** Page and page size of a paged table; changing the page size goes back to the first page. */
export function usePaging() {
  const [page, setPage] = useState(1);
  const [limit, setLimit] = useState<number>(PAGE_SIZES[0]);
  const changeLimit = (value: number) => {
    setLimit(value);
    setPage(1);
  };
  return { page, limit, setPage, changeLimit };
}

/** A filter of a paged table: its value, and a setter that also sends the table back to its first page. */
export function usePagedFilter<T>(initial: T, setPage: (page: number) => void): [T, (value: T) => void] {
  const [value, setValue] = useState<T>(initial);
  const change = (next: T) => {
    setValue(next);
    setPage(1);
  };
  return [value, change];
}

/** A scrollable table with a header row and its paging footer. */
export function PagedTable({
  label,
  minWidth,
  verticalSpacing = 'sm',
  highlightOnHover = true,
  stackOnPhone = false,
  head,
  children,
  ...footer
}: {
  label: string;
  minWidth: number;
  verticalSpacing?: 'xs' | 'sm';
  highlightOnHover?: boolean;
  /** One card per row on a phone (components/stacked-table.ts): the rows' cells carry data-label. */
  stackOnPhone?: boolean;
  head: ReactNode;
  children: ReactNode;
  page: number;
  limit: number;
  total: number;
  onPageChange: (page: number) => void;
  onLimitChange: (limit: number) => void;
}) {
  return (
    <>
      <ScrollArea>
        <Table verticalSpacing={verticalSpacing} highlightOnHover={highlightOnHover} miw={minWidth} aria-label={label} className={stackOnPhone ? STACK_ON_PHONE : undefined}>
          <Table.Thead>
            <Table.Tr>{head}</Table.Tr>
          </Table.Thead>
          <Table.Tbody>{children}</Table.Tbody>
        </Table>
      </ScrollArea>
      <PagedTableFooter {...footer} />
    </>
  );
}

/** What a paged list query gives the table: its states and, once loaded, a page of items and the total. */
export type TPagedQuery<TItem> = {
  isPending: boolean;
  isError: boolean;
  error: unknown;
  refetch: () => unknown;
  data: { total: number; items: TItem[] } | undefined;
};

type TTableProps = Omit<ComponentProps<typeof PagedTable>, 'children' | 'page' | 'limit' | 'total' | 'onPageChange' | 'onLimitChange'>;

/**
 * A paged list query as a table: loading, failure (with a retry) and the empty state, else the page's rows (`children`
 * draws them) above the paging footer, driven by `paging` (usePaging).
 */
export function PagedQueryTable<TItem>({
  query,
  paging,
  loadingHeight,
  empty,
  children,
  ...table
}: TTableProps & {
  query: TPagedQuery<TItem>;
  paging: ReturnType<typeof usePaging>;
  loadingHeight: number;
  empty: { title: string; description?: string };
  children: (items: TItem[]) => ReactNode;
}) {
  return (
    <>
      {query.isPending ? <LoadingScreen minHeight={loadingHeight} /> : null}
      {query.isError ? <ErrorState error={query.error} onRetry={() => void query.refetch()} /> : null}
      {query.data && query.data.total === 0 ? <EmptyState title={empty.title} description={empty.description} /> : null}
      {query.data && query.data.total > 0 ? (
        <PagedTable {...table} page={paging.page} limit={paging.limit} total={query.data.total} onPageChange={paging.setPage} onLimitChange={paging.changeLimit}>
          {children(query.data.items)}
        </PagedTable>
      ) : null}
    </>
  );
}

/**
 * A list's clearable choice filter: `label` names it for screen readers, `placeholder` reads while nothing is chosen
 * (e.g. "All actions"); `onChange` gets the chosen value, or null once cleared.
 */
export function FilterSelect<TValue extends string>({
  label,
  placeholder,
  data,
  value,
  onChange,
  searchable = false,
  width,
}: {
  label: string;
  placeholder: string;
  data: ComboboxData;
  value: TValue | null;
  onChange: (value: TValue | null) => void;
  searchable?: boolean;
  width: number;
}) {
  return (
    <Select
      aria-label={label}
      placeholder={placeholder}
      data={data}
      value={value}
      onChange={(next) => onChange(next as TValue | null)}
      clearable
      searchable={searchable}
      w={width}
    />
  );
}
