import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { Table } from '@mantine/core';
import { AppProviders } from '../app/providers';
import { createQueryClient } from '../lib/query-client';
import { ListTablePage, useListTableState, type TListStateFilter } from './list-table-page';

type TRow = { id: string; name: string };
const FILTERS: TListStateFilter<'done' | 'running'>[] = [
  { value: 'all', label: 'All' },
  { value: 'done', label: 'Done' },
  { value: 'running', label: 'Running' },
];

/** Shows the request the toolbar builds next to the page, for a fixed set of items. */
function Harness({ items, total }: { items: TRow[]; total: number }) {
  const table = useListTableState(FILTERS);
  const query = { isPending: false, isError: false, error: null, data: { items, total }, refetch: async () => undefined };
  return (
    <ListTablePage
      description="Test lists"
      table={table}
      query={query}
      addListPath="/things/add_list"
      emptyDescription="Upload a file."
      tableLabel="Test lists table"
      minWidth={600}
      head={<Table.Th>Name</Table.Th>}
      renderRow={(item) => (
        <Table.Tr key={item.id} data-testid="list-row">
          <Table.Td>{item.name}</Table.Td>
        </Table.Tr>
      )}
    >
      <pre data-testid="params">{JSON.stringify(table.params)}</pre>
    </ListTablePage>
  );
}

function renderHarness(items: TRow[], total = items.length) {
  return render(
    <AppProviders queryClient={createQueryClient()}>
      <MemoryRouter>
        <Harness items={items} total={total} />
      </MemoryRouter>
    </AppProviders>,
  );
}

const readParams = () => JSON.parse(screen.getByTestId('params').textContent ?? '{}') as Record<string, unknown>;

describe('ListTablePage', () => {
  it('asks for the first page, newest first, and offers "Add list" when there are no lists', () => {
    renderHarness([]);
    expect(readParams()).toEqual({ page: 1, limit: 25, sort_by: 'created_at', sort_order: 'desc' });
    expect(screen.getByText('No lists yet').textContent).toBe('No lists yet');
    expect(screen.getByText('Upload a file.').textContent).toBe('Upload a file.');
    expect(screen.getAllByRole('link', { name: 'Add list' }).map((link) => link.getAttribute('href'))).toEqual(['/things/add_list', '/things/add_list']);
  });

  it('filters by state back on page one and says "No lists match" without the add button', () => {
    renderHarness([]);
    fireEvent.click(screen.getByRole('radio', { name: 'Running' }));
    expect(readParams()).toMatchObject({ page: 1, state: 'running' });
    expect(screen.getByText('No lists match').textContent).toBe('No lists match');
    expect(screen.getByText('Try another search or filter.').textContent).toBe('Try another search or filter.');
    expect(screen.getAllByRole('link', { name: 'Add list' })).toHaveLength(1);
  });

  it('renders the rows in the labelled table and goes back to page one when the page size changes', () => {
    const items = Array.from({ length: 25 }, (_, index) => ({ id: String(index), name: `List ${index}` }));
    renderHarness(items, 120);
    expect(screen.getByRole('table', { name: 'Test lists table' }).querySelectorAll('tbody tr')).toHaveLength(25);
    expect(screen.getAllByTestId('list-row')).toHaveLength(25);
    fireEvent.click(screen.getByRole('button', { name: '2' }));
    expect(readParams()).toMatchObject({ page: 2, limit: 25 });
    const sizeInput = screen.getAllByLabelText('Rows per page').find((element) => element.tagName === 'INPUT');
    if (!sizeInput) throw new Error('no page size input');
    fireEvent.click(sizeInput);
    fireEvent.click(screen.getByRole('option', { name: '50' }));
    expect(readParams()).toMatchObject({ page: 1, limit: 50 });
  });

  it('offers the state filter as a select too (shown on phones, where the row of states was cut), filtering the same way', () => {
    renderHarness([]);
    const select = screen.getAllByLabelText('State').find((element) => element.tagName === 'INPUT');
    if (!select) throw new Error('no state select');
    fireEvent.click(select);
    expect(screen.getAllByRole('option').map((option) => option.textContent)).toEqual(['All', 'Done', 'Running']);
    fireEvent.click(screen.getByRole('option', { name: 'Done' }));
    expect(readParams()).toMatchObject({ page: 1, state: 'done' });
  });
});
