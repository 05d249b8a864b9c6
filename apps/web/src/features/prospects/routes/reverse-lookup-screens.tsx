import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Alert, Anchor, Badge, Button, Card, Group, Stack, Table, Text, TextInput } from '@mantine/core';
import { PROSPECT_CREDITS, type TReverseLookupData } from '@verilead/contracts';
import { EmptyState, ErrorState } from '../../../components/state-views';
import { LoadingScreen } from '../../../components/loading-screen';
import { PageHeader } from '../../../components/page-header';
import { getErrorMessage } from '../../../lib/api-error';
import { formatDateTime } from '../../../lib/format';
import { useReverseHistory, useReverseLookup } from '../api/prospect-api';
import { PersonContact } from '../components/person-contact';

function LookupResult({ data }: { data: TReverseLookupData }) {
  if (!data.found || !data.person) {
    return (
      <Alert color="gray" title="No match" data-testid="lookup-result">
        Nobody in the directory matches {data.query}. Nothing was charged.
      </Alert>
    );
  }
  const p = data.person;
  return (
    <Card padding="md" withBorder data-testid="lookup-result">
      <Group justify="space-between" align="flex-start">
        <Stack gap={4}>
          <Anchor component={Link} to={`/prospect/people/${p.id}`} fw={600}>
            {p.full_name}
          </Anchor>
          <Text size="sm">
            {p.title}
            {data.company ? ` at ${data.company.name} (${data.company.domain})` : ''}
          </Text>
          <Text size="sm" c="dimmed">
            {[p.city, p.country].filter(Boolean).join(', ')}
          </Text>
          <PersonContact person={p} />
        </Stack>
        <Badge variant="light">{data.credits_charged ? `${data.credits_charged} credit` : 'No charge (seen before)'}</Badge>
      </Group>
    </Card>
  );
}

function ReverseLookupScreen({ kind }: { kind: 'email' | 'linkedin' }) {
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const lookup = useReverseLookup();
  const history = useReverseHistory(kind);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    if (!value.trim()) return setError(kind === 'email' ? 'Please enter an email address' : 'Please enter a LinkedIn URL');
    lookup.mutate(kind === 'email' ? { email: value.trim() } : { linkedin_url: value.trim() }, { onError: (err) => setError(getErrorMessage(err)) });
  };
  return (
    <>
      <PageHeader
        title={kind === 'email' ? 'Reverse lookup by email' : 'Reverse lookup by LinkedIn URL'}
        description={`Find who is behind ${kind === 'email' ? 'an email address' : 'a LinkedIn profile'}. A match costs ${PROSPECT_CREDITS.lookup} credit, once per person; no match is free.`}
      />
      <Stack maw={860}>
        <Card padding="md" withBorder>
          <form onSubmit={submit}>
            <Group align="flex-start">
              <TextInput
                style={{ flex: 1 }}
                label={kind === 'email' ? 'Email address' : 'LinkedIn URL'}
                placeholder={kind === 'email' ? 'jane.doe@company.com' : 'https://www.linkedin.com/in/jane-doe'}
                value={value}
                onChange={(e) => setValue(e.currentTarget.value)}
                error={error}
              />
              <Button type="submit" mt={25} loading={lookup.isPending}>
                Look up
              </Button>
            </Group>
          </form>
        </Card>
        {lookup.data ? <LookupResult data={lookup.data} /> : null}
        <Card padding="md" withBorder>
          <Text fw={600} mb="sm">
            History
          </Text>
          {history.isPending ? (
            <LoadingScreen />
          ) : history.isError ? (
            <ErrorState error={history.error} onRetry={() => void history.refetch()} />
          ) : history.data.items.length === 0 ? (
            <EmptyState title="No lookups yet" />
          ) : (
            <Table striped aria-label="Lookup history">
              <Table.Tbody>
                {history.data.items.map((h) => (
                  <Table.Tr key={h.lookup_id} data-testid="lookup-history-row">
                    <Table.Td>{h.query}</Table.Td>
                    <Table.Td>{h.found ? `${h.full_name ?? ''}${h.company_name ? `, ${h.company_name}` : ''}` : 'No match'}</Table.Td>
                    <Table.Td>
                      <Text size="xs">{formatDateTime(h.created_at)}</Text>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
        </Card>
      </Stack>
    </>
  );
}

export const ReverseLookupEmailScreen = () => <ReverseLookupScreen kind="email" />;
export const ReverseLookupLinkedinScreen = () => <ReverseLookupScreen kind="linkedin" />;
