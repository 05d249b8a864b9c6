import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { Anchor, Card, Grid, Group, Pagination, Stack, Table, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import type { TProspectFilters } from '@verilead/contracts';
import { EmptyState, ErrorState } from '../../../components/state-views';
import { LoadingScreen } from '../../../components/loading-screen';
import { PageHeader } from '../../../components/page-header';
import { formatNumber } from '../../../lib/format';
import { useProspectMeta, useProspectSearch } from '../api/prospect-api';
import { FilterPanel } from '../components/filter-panel';

/** /prospect/company_search: companies by location, size, industry, revenue, technologies and founding year. */
export function CompanySearchScreen() {
  const [filters, setFilters] = useState<TProspectFilters>({});
  const [debounced] = useDebouncedValue(filters, 300);
  const [page, setPage] = useState(1);
  const request = useMemo(() => ({ type: 'companies' as const, filters: debounced, page, limit: 25 as const }), [debounced, page]);
  const search = useProspectSearch(request);
  const meta = useProspectMeta(debounced);
  const companies = search.data?.companies ?? [];
  return (
    <>
      <PageHeader title="Company Search" description="Find companies, then open one to see its people." />
      <Grid>
        <Grid.Col span={{ base: 12, md: 3 }}>
          <FilterPanel
            companies
            filters={filters}
            onChange={(f) => {
              setFilters(f);
              setPage(1);
            }}
            meta={meta.data}
          />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 9 }}>
          <Card padding="md" withBorder>
            <Group mb="sm">
              <Text size="sm">{search.data ? `${formatNumber(search.data.total)} companies` : ' '}</Text>
            </Group>
            {search.isPending ? (
              <LoadingScreen />
            ) : search.isError ? (
              <ErrorState error={search.error} onRetry={() => void search.refetch()} />
            ) : companies.length === 0 ? (
              <EmptyState title="No companies match these filters" description="Remove a filter to see more." />
            ) : (
              <Stack>
                <Table.ScrollContainer minWidth={760}>
                  <Table striped highlightOnHover aria-label="Companies">
                    <Table.Thead>
                      <Table.Tr>
                        <Table.Th>Company</Table.Th>
                        <Table.Th>Industry</Table.Th>
                        <Table.Th>Size</Table.Th>
                        <Table.Th>Revenue</Table.Th>
                        <Table.Th>Location</Table.Th>
                      </Table.Tr>
                    </Table.Thead>
                    <Table.Tbody>
                      {companies.map((c) => (
                        <Table.Tr key={c.id} data-testid="company-row">
                          <Table.Td>
                            <Anchor component={Link} to={`/prospect/company/${c.id}`} fw={500}>
                              {c.name}
                            </Anchor>
                            <Text size="xs" c="dimmed">
                              {c.domain}
                            </Text>
                          </Table.Td>
                          <Table.Td>
                            <Text size="sm">{c.industry}</Text>
                          </Table.Td>
                          <Table.Td>{c.size_range}</Table.Td>
                          <Table.Td>{c.revenue_range}</Table.Td>
                          <Table.Td>{[c.city, c.country].filter(Boolean).join(', ')}</Table.Td>
                        </Table.Tr>
                      ))}
                    </Table.Tbody>
                  </Table>
                </Table.ScrollContainer>
                <Pagination total={Math.max(1, Math.ceil(Math.min(search.data.total, 50_000) / 25))} value={page} onChange={setPage} />
              </Stack>
            )}
          </Card>
        </Grid.Col>
      </Grid>
    </>
  );
}
