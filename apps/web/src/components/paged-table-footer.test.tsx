import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { Table } from '@mantine/core';
import { AppProviders } from '../app/providers';
import { createQueryClient } from '../lib/query-client';
import { PagedQueryTable, usePaging, type TPagedQuery } from './paged-table-footer';

type TRow = { id: string; name: string };

/** The table over a fixed query, with the page it is on. */
function Harness({ query }: { query: TPagedQuery<TRow> }) {
  const paging = usePaging();
  return (
    <>
      <PagedQueryTable query={query} paging={paging} loadingHeight={120} empty={{ title: 'Nothing here', description: 'Add something.' }} label="Things" minWidth={400} head={<Table.Th>Name</Table.Th>}>
        {(items) =>
          items.map((item) => (
            <Table.Tr key={item.id} data-testid="row">
              <Table.Td>{item.name}</Table.Td>
            </Table.Tr>
          ))
        }
      </PagedQueryTable>
      <div data-testid="page">{paging.page}</div>
    </>
  );
}

const base = { isPending: false, isError: false, error: null, refetch: () => undefined, data: undefined };

function renderHarness(query: TPagedQuery<TRow>) {
  return render(
    <AppProviders queryClient={createQueryClient()}>
      <Harness query={query} />
    </AppProviders>,
  );
}

describe('PagedQueryTable', () => {
  it('says it is loading while the query is pending', () => {
    renderHarness({ ...base, isPending: true });
    expect(screen.getByRole('status').textContent).toBe('Loading...');
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('shows the failure with a retry that fetches again', () => {
    const refetch = vi.fn();
    renderHarness({ ...base, isError: true, error: new Error('The server is down'), refetch });
    expect(screen.getByRole('alert').textContent).toContain('The server is down');
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(refetch).toHaveBeenCalledTimes(1);
  });

  it('shows the empty state when the list has nothing', () => {
    renderHarness({ ...base, data: { total: 0, items: [] } });
    expect(screen.getByText('Nothing here').textContent).toBe('Nothing here');
    expect(screen.getByText('Add something.').textContent).toBe('Add something.');
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('draws the page of rows in the labelled table, and its footer moves the page', () => {
    const items = Array.from({ length: 25 }, (_, index) => ({ id: String(index), name: `Thing ${index}` }));
    renderHarness({ ...base, data: { total: 60, items } });
    expect(screen.getByRole('table', { name: 'Things' }).querySelectorAll('tbody tr')).toHaveLength(25);
    expect(screen.getAllByTestId('row')[0]?.textContent).toBe('Thing 0');
    expect(screen.getByText('1–25 of 60').textContent).toBe('1–25 of 60');
    fireEvent.click(screen.getByRole('button', { name: '3' }));
    expect(screen.getByTestId('page').textContent).toBe('3');
  });
});
