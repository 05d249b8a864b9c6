import { useState, type ReactNode } from 'react';
import { Group, Pagination, ScrollArea, Select, Table, Text } from '@mantine/core';
import { PAGE_SIZES } from '@verilead/contracts';
import { formatNumber } from '../lib/format';
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
