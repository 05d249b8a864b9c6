import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { Anchor, Table, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import type { TProspectFilters } from '@verilead/contracts';
import { PageHeader } from '../../../components/page-header';
import { useProspectMeta, useProspectSearch } from '../api/prospect-api';
import { FilterPanel } from '../components/filter-panel';
import { SearchResults } from '../components/search-results';
import { countFilters, revenueLabel } from '../components/labels';
import { SearchLayout } from '../components/search-layout';

/** /prospect/company_search: companies by location, size, industry, revenue, technologies and founding year. */
export function CompanySearchScreen() {
  const [filters, setFilters] = useState<TProspectFilters>({});
  const [debounced] = useDebouncedValue(filters, 300);
  const [page, setPage] = useState(1);
  const request = useMemo(() => ({ type: 'companies' as const, filters: debounced, page, limit: 25 as const }), [debounced, page]);
  const search = useProspectSearch(request);
  const meta = useProspectMeta(debounced, 'companies');
  const companies = search.data?.companies ?? [];
  return (
    <>
      <PageHeader title="Company Search" description="Find companies, then open one to see its people." />
      <SearchLayout
        activeFilters={countFilters(filters)}
        filters={
          <FilterPanel
            companies
            filters={filters}
            onChange={(f) => {
              setFilters(f);
              setPage(1);
            }}
            meta={meta.data}
          />
        }
      >
          <SearchResults
            search={search}
            noun="companies"
            rows={companies.length}
            empty={{ title: 'No companies match these filters', description: 'Remove a filter to see more.' }}
            page={page}
            onPage={setPage}
          >
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
                          <Table.Td>{revenueLabel(c.revenue_range)}</Table.Td>
                          <Table.Td>{[c.city, c.country].filter(Boolean).join(', ')}</Table.Td>
                        </Table.Tr>
                      ))}
                    </Table.Tbody>
                  </Table>
                </Table.ScrollContainer>
          </SearchResults>
      </SearchLayout>
    </>
  );
}
