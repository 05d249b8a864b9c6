import type { ReactNode } from 'react';
import { Card, Group, Pagination, Stack, Text } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import { PROSPECT_SEARCH_COUNT_CAP, prospectTotalLabel, type TProspectSearchData } from '@verilead/contracts';
import { EmptyState, ErrorState } from '../../../components/state-views';
import { LoadingScreen } from '../../../components/loading-screen';

/** The results card of a people or company search: the total, loading, error and empty states, the table and paging. */
export function SearchResults({
  search,
  noun,
  rows,
  empty,
  toolbar,
  page,
  onPage,
  children,
}: {
  search: UseQueryResult<TProspectSearchData>;
  noun: string;
  rows: number;
  empty: { title: string; description: string };
  toolbar?: ReactNode;
  page: number;
  onPage: (page: number) => void;
  children: ReactNode;
}) {
  const total = search.data?.total ?? 0;
  return (
    <Card padding="md" withBorder>
      <Group justify="space-between" mb="sm">
        <Text size="sm" data-testid="search-total">
          {search.data ? prospectTotalLabel(total, search.data.total_capped, noun) : ' '}
        </Text>
        {toolbar}
      </Group>
      {search.isPending ? (
        <LoadingScreen />
      ) : search.isError ? (
        <ErrorState error={search.error} onRetry={() => void search.refetch()} />
      ) : rows === 0 ? (
        <EmptyState title={empty.title} description={empty.description} />
      ) : (
        <Stack>
          {children}
          <Pagination total={Math.max(1, Math.ceil(Math.min(total, PROSPECT_SEARCH_COUNT_CAP) / 25))} value={page} onChange={onPage} />
        </Stack>
      )}
    </Card>
  );
}
