import type { ReactNode } from 'react';
import { Stack } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import { LoadingScreen } from '../../../components/loading-screen';
import { PageHeader } from '../../../components/page-header';
import { ErrorState } from '../../../components/state-views';
import { AnalyticsFilters, type useAnalyticsFilters } from './analytics-filters';

/** An analytics screen: its title, the shared filters, then its content once every report has answered. */
export function AnalyticsPage({ title, description, filters, queries, children }: {
  title: string;
  description: string;
  filters: ReturnType<typeof useAnalyticsFilters>;
  queries: UseQueryResult[];
  children: () => ReactNode;
}) {
  const failed = queries.find((q) => q.isError);
  const pending = queries.some((q) => q.isPending);
  return (
    <>
      <PageHeader title={title} description={description} actions={<AnalyticsFilters filters={filters} />} />
      <Stack gap="lg">
        {failed ? <ErrorState error={failed.error} onRetry={() => queries.forEach((q) => void q.refetch())} /> : null}
        {!failed && pending ? <LoadingScreen minHeight={240} /> : null}
        {!failed && !pending ? children() : null}
      </Stack>
    </>
  );
}
