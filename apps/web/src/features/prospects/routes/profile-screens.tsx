import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { Anchor, Badge, Button, Card, Group, Pagination, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { EmptyState, ErrorState } from '../../../components/state-views';
import { LoadingScreen } from '../../../components/loading-screen';
import { PageHeader } from '../../../components/page-header';
import { getErrorMessage } from '../../../lib/api-error';
import { formatNumber } from '../../../lib/format';
import { showToast } from '../../../lib/toast';
import { useCompanyPeople, useEnrichLeads, useProfile } from '../api/prospect-api';
import { RevealConfirmModal } from '../components/reveal-confirm-modal';
import { AddToListModal } from '../components/add-to-list-modal';
import { optionLabel, revenueLabel } from '../components/labels';
import { PersonContact } from '../components/person-contact';

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" component="div">
        {children}
      </Text>
    </Stack>
  );
}

/** /prospect/people/:person_id */
export function PersonProfileScreen() {
  const { person_id: id = '' } = useParams();
  const profile = useProfile('person', id);
  const enrich = useEnrichLeads();
  const [adding, setAdding] = useState(false);
  const [revealing, setRevealing] = useState(false);
  if (profile.isPending) return <LoadingScreen />;
  if (profile.isError) return <ErrorState error={profile.error} onRetry={() => void profile.refetch()} />;
  const p = profile.data.person!;
  const c = profile.data.company;
  return (
    <>
      <PageHeader
        title={p.full_name}
        description={`${p.title}${p.company?.name ? ` at ${p.company.name}` : ''}`}
        actions={
          <Group>
            <Button variant="default" onClick={() => setAdding(true)}>
              Add to list
            </Button>
            <Button
              loading={enrich.isPending}
              disabled={(p.email_revealed || !p.has_email) && (p.phone_revealed || !p.has_phone)}
              onClick={() => setRevealing(true)}
            >
              Reveal contact data
            </Button>
          </Group>
        }
      />
      <RevealConfirmModal
        people={revealing ? [p] : null}
        loading={enrich.isPending}
        onClose={() => setRevealing(false)}
        onConfirm={() =>
          enrich.mutate(
            { person_ids: [p.id] },
            {
              onSuccess: (d) => {
                const why = [d.results[0]?.email.reason, d.results[0]?.phone.reason].filter(Boolean).join(' ');
                showToast({ title: 'Revealed', message: [`${d.request.credits_charged} credit(s) used.`, why].filter(Boolean).join(' '), kind: 'success' });
              },
              onError: (e) => showToast({ title: 'Could not reveal', message: getErrorMessage(e), kind: 'error' }),
              onSettled: () => setRevealing(false),
            },
          )
        }
      />
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Card padding="md" withBorder>
          <Stack>
            <Field label="Contact">
              <PersonContact person={p} />
            </Field>
            <Field label="Seniority and department">
              {optionLabel(p.seniority)} · {optionLabel(p.department)}
            </Field>
            <Field label="Location">{[p.city, p.region, p.country].filter(Boolean).join(', ')}</Field>
            {p.linkedin_url ? (
              <Field label="LinkedIn">
                <Anchor href={p.linkedin_url} target="_blank" rel="noreferrer">
                  {p.linkedin_url}
                </Anchor>
              </Field>
            ) : null}
            <Field label="In your lists">
              {profile.data.lists.length === 0
                ? 'None'
                : profile.data.lists.map((l) => (
                    <Anchor key={l.id} component={Link} to={`/prospect/lists/${l.id}`} mr="xs">
                      {l.name}
                    </Anchor>
                  ))}
            </Field>
          </Stack>
        </Card>
        {c ? (
          <Card padding="md" withBorder>
            <Stack>
              <Field label="Company">
                <Anchor component={Link} to={`/prospect/company/${c.id}`}>
                  {c.name}
                </Anchor>{' '}
                · {c.domain}
              </Field>
              <Field label="Industry">
                {c.industry} (NAICS {c.industry_code})
              </Field>
              <Field label="Size and revenue">
                {c.size_range} employees · {revenueLabel(c.revenue_range)} revenue
              </Field>
            </Stack>
          </Card>
        ) : null}
      </SimpleGrid>
      <AddToListModal personIds={[p.id]} opened={adding} onClose={() => setAdding(false)} />
    </>
  );
}

/** /prospect/company/:company_id */
export function CompanyProfileScreen() {
  const { company_id: id = '' } = useParams();
  const profile = useProfile('company', id);
  const [page, setPage] = useState(1);
  const people = useCompanyPeople(id, page);
  if (profile.isPending) return <LoadingScreen />;
  if (profile.isError) return <ErrorState error={profile.error} onRetry={() => void profile.refetch()} />;
  const c = profile.data.company!;
  return (
    <>
      <PageHeader title={c.name} description={`${c.domain} · ${c.industry}`} />
      <Stack>
        <Card padding="md" withBorder>
          <SimpleGrid cols={{ base: 2, md: 4 }}>
            <Field label="Employees">
              {formatNumber(c.employees)} ({c.size_range})
            </Field>
            <Field label="Revenue">{revenueLabel(c.revenue_range)}</Field>
            <Field label="Founded">{c.founded_year ?? 'Unknown'}</Field>
            <Field label="Headquarters">{[c.city, c.region, c.country].filter(Boolean).join(', ')}</Field>
          </SimpleGrid>
          <Group gap={4} mt="sm">
            {c.technologies.map((t) => (
              <Badge key={t} variant="light">
                {t}
              </Badge>
            ))}
          </Group>
        </Card>
        <Card padding="md" withBorder>
          <Text fw={600} mb="sm">
            People ({formatNumber(c.people_count ?? 0)})
          </Text>
          {people.isPending ? (
            <LoadingScreen />
          ) : people.isError ? (
            <ErrorState error={people.error} onRetry={() => void people.refetch()} />
          ) : people.data.items.length === 0 ? (
            <EmptyState title="Nobody from this company in the directory" />
          ) : (
            <Stack>
              <Table striped aria-label="People of the company">
                <Table.Tbody>
                  {people.data.items.map((p) => (
                    <Table.Tr key={p.id}>
                      <Table.Td>
                        <Anchor component={Link} to={`/prospect/people/${p.id}`}>
                          {p.full_name}
                        </Anchor>
                      </Table.Td>
                      <Table.Td>{p.title}</Table.Td>
                      <Table.Td>
                        <PersonContact person={p} />
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
              <Pagination total={Math.max(1, Math.ceil(people.data.total / 25))} value={page} onChange={setPage} />
            </Stack>
          )}
        </Card>
      </Stack>
    </>
  );
}
