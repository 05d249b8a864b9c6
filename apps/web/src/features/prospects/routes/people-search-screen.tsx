import { useMemo, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Anchor, Button, Checkbox, Group, Select, Table, Text, VisuallyHidden } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { describeUnrevealed, type TProspectFilters, type TProspectPerson } from '@verilead/contracts';
import { PageHeader } from '../../../components/page-header';
import { STACK_ON_PHONE } from '../../../components/stacked-table';
import { getErrorMessage } from '../../../lib/api-error';
import { showToast } from '../../../lib/toast';
import { useEnrichLeads, useProspectMeta, useProspectSearch } from '../api/prospect-api';
import { AddToListModal } from '../components/add-to-list-modal';
import { FilterPanel } from '../components/filter-panel';
import { SearchResults } from '../components/search-results';
import { countFilters, readFiltersParam } from '../components/labels';
import { PersonContact } from '../components/person-contact';
import { RevealConfirmModal } from '../components/reveal-confirm-modal';
import { SaveSearchModal } from '../components/save-search-modal';
import { SearchLayout } from '../components/search-layout';

type TSort = 'relevance' | 'name' | 'company' | 'recently_updated';

/** /prospect/people_search: find people with filters and facets; reveal, save the search, add to lists. */
export function PeopleSearchScreen() {
  const [params] = useSearchParams();
  const [filters, setFilters] = useState<TProspectFilters>(() => readFiltersParam(params.get('filters')));
  const [debounced] = useDebouncedValue(filters, 300);
  const [page, setPage] = useState(1);
  const [sort, setSort] = useState<TSort>('relevance');
  const [selected, setSelected] = useState<string[]>([]);
  const [modal, setModal] = useState<'list' | 'save' | null>(null);
  /** The people a Reveal asks about: nothing is charged before the cost is confirmed. */
  const [revealing, setRevealing] = useState<TProspectPerson[] | null>(null);
  const request = useMemo(() => ({ type: 'people' as const, filters: debounced, page, limit: 25 as const, sort }), [debounced, page, sort]);
  const search = useProspectSearch(request);
  const meta = useProspectMeta(debounced);
  const enrich = useEnrichLeads();

  const changeFilters = (f: TProspectFilters) => {
    setFilters(f);
    setPage(1);
    setSelected([]);
  };
  const reveal = (ids: string[]) =>
    enrich.mutate(
      { person_ids: ids },
      {
        onSettled: () => setRevealing(null),
        onSuccess: (d) =>
          showToast({
            title: 'Contact data revealed',
            message: [`${d.request.emails_revealed} e-mail(s), ${d.request.phones_revealed} phone(s) revealed for ${d.request.credits_charged} credit(s).`, describeUnrevealed(d.results)]
              .filter(Boolean)
              .join(' '),
            kind: 'success',
          }),
        onError: (e) => showToast({ title: 'Could not reveal', message: getErrorMessage(e), kind: 'error' }),
      },
    );
  const people = search.data?.people ?? [];
  // The people seen on any page, so a selection spanning pages is costed in full before it is revealed.
  const seen = useRef(new Map<string, TProspectPerson>());
  for (const p of people) seen.current.set(p.id, p);
  const allChecked = people.length > 0 && people.every((p) => selected.includes(p.id));

  return (
    <>
      <PageHeader
        title="People Search"
        description="Search is free; revealing e-mails and phones uses credits, only for data actually revealed."
        actions={
          <Group>
            <Button variant="default" onClick={() => setModal('save')} disabled={countFilters(filters) === 0}>
              Save search
            </Button>
            <Button variant="default" onClick={() => setModal('list')} disabled={selected.length === 0}>
              Add to list ({selected.length})
            </Button>
            <Button onClick={() => setRevealing(selected.flatMap((id) => seen.current.get(id) ?? []))} disabled={selected.length === 0 || selected.length > 25} loading={enrich.isPending}>
              Reveal selected
            </Button>
          </Group>
        }
      />
      <SearchLayout activeFilters={countFilters(filters)} filters={<FilterPanel filters={filters} onChange={changeFilters} meta={meta.data} />}>
          <SearchResults
            search={search}
            noun="people"
            rows={people.length}
            empty={{ title: 'No people match these filters', description: 'Remove a filter or widen a title with similar titles.' }}
            page={page}
            onPage={setPage}
            toolbar={
              <Select
                aria-label="Sort by"
                w={200}
                value={sort}
                onChange={(v) => setSort((v as TSort) ?? 'relevance')}
                data={[
                  { value: 'relevance', label: 'Seniority' },
                  { value: 'name', label: 'Name' },
                  { value: 'company', label: 'Company' },
                  { value: 'recently_updated', label: 'Recently updated' },
                ]}
              />
            }
          >
            <Table.ScrollContainer minWidth={560}>
                  <Table striped highlightOnHover aria-label="People" className={STACK_ON_PHONE}>
                    <Table.Thead>
                      <Table.Tr>
                        <Table.Th w={36} data-phone-keep>
                          <Checkbox aria-label="Select all on this page" checked={allChecked} onChange={() => setSelected(allChecked ? [] : people.map((p) => p.id))} />
                        </Table.Th>
                        <Table.Th>Name</Table.Th>
                        <Table.Th>Company and location</Table.Th>
                        <Table.Th>Contact</Table.Th>
                        <Table.Th w={90}>
                          <VisuallyHidden>Reveal</VisuallyHidden>
                        </Table.Th>
                      </Table.Tr>
                    </Table.Thead>
                    <Table.Tbody>
                      {people.map((p) => (
                        <Table.Tr key={p.id} data-testid="person-row">
                          <Table.Td>
                            <Checkbox
                              aria-label={`Select ${p.full_name}`}
                              checked={selected.includes(p.id)}
                              onChange={() => setSelected((s) => (s.includes(p.id) ? s.filter((x) => x !== p.id) : [...s, p.id]))}
                            />
                          </Table.Td>
                          <Table.Td>
                            <Anchor component={Link} to={`/prospect/people/${p.id}`} fw={500}>
                              {p.full_name}
                            </Anchor>
                            <Text size="xs" c="dimmed">
                              {p.title}
                            </Text>
                          </Table.Td>
                          <Table.Td data-label="Company">
                            {p.company?.id ? (
                              <Anchor component={Link} to={`/prospect/company/${p.company.id}`} size="sm">
                                {p.company.name}
                              </Anchor>
                            ) : (
                              '-'
                            )}
                            <Text size="xs" c="dimmed">
                              {[p.company?.domain, [p.city, p.country].filter(Boolean).join(', ')].filter(Boolean).join(' · ')}
                            </Text>
                          </Table.Td>
                          <Table.Td data-label="Contact">
                            <PersonContact person={p} />
                          </Table.Td>
                          <Table.Td>
                            <Button size="xs" variant="light" onClick={() => setRevealing([p])} disabled={(p.email_revealed || !p.has_email) && (p.phone_revealed || !p.has_phone)}>
                              Reveal
                            </Button>
                          </Table.Td>
                        </Table.Tr>
                      ))}
                    </Table.Tbody>
                  </Table>
                </Table.ScrollContainer>
          </SearchResults>
      </SearchLayout>
      <RevealConfirmModal people={revealing} loading={enrich.isPending} onConfirm={() => reveal((revealing ?? []).map((p) => p.id))} onClose={() => setRevealing(null)} />
      <AddToListModal personIds={selected} opened={modal === 'list'} onClose={() => setModal(null)} />
      <SaveSearchModal filters={filters} opened={modal === 'save'} onClose={() => setModal(null)} />
    </>
  );
}
