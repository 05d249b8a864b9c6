import type { ReactNode } from 'react';
import { Alert, Card, Pagination, Table } from '@mantine/core';
import { LoadingScreen } from '../../../components/loading-screen';
import { EmptyState, ErrorState } from '../../../components/state-views';

/** A form's failure message (nothing when there is none). */
export function FormAlert({ message }: { message: string | null }) {
  return message ? (
    <Alert color="red" role="alert">
      {message}
    </Alert>
  ) : null;
}

/** Loading, failure and empty states of a console query (the caller draws the data). */
export function QueryStates({ query, empty, emptyTitle, emptyDescription }: { query: { isPending: boolean; isError: boolean; error: unknown; refetch: () => unknown }; empty: boolean; emptyTitle: string; emptyDescription?: string }) {
  if (query.isPending) return <LoadingScreen />;
  if (query.isError) return <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  return empty ? <EmptyState title={emptyTitle} description={emptyDescription} /> : null;
}

/** A console table in a card, scrolling sideways on small screens; `headers` are the column titles. */
export function OpsTable({ minWidth, headers, children }: { minWidth: number; headers: { label: string; right?: boolean }[]; children: ReactNode }) {
  return (
    <Card p={0}>
      <Table.ScrollContainer minWidth={minWidth}>
        <Table verticalSpacing="sm" highlightOnHover>
          <Table.Thead>
            <Table.Tr>
              {headers.map((h, i) => (
                <Table.Th key={h.label || i} ta={h.right ? 'right' : undefined} aria-label={h.label || 'Actions'}>
                  {h.label}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>{children}</Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Card>
  );
}

/** Page links under a paged list (none when everything fits on one page). */
export function OpsPager({ data, page, onChange }: { data: { total: number; limit: number } | undefined; page: number; onChange: (page: number) => void }) {
  return data && data.total > data.limit ? <Pagination total={Math.ceil(data.total / data.limit)} value={page} onChange={onChange} size="sm" /> : null;
}
