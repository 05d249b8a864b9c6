import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Alert, Anchor, Button, Paper, SegmentedControl, Stack, Text, TextInput, Title } from '@mantine/core';
import { PUBLIC_REVERSE_LOOKUP_DAILY_LIMIT } from '@verilead/contracts';
import { getErrorMessage, isApiError } from '../../../lib/api-error';
import { usePublicLookup } from '../api/prospect-api';

/** /public/reverse-lookup: who is behind an e-mail or a LinkedIn URL, no login, a few lookups a day per IP address. */
export function PublicReverseLookupScreen() {
  const [kind, setKind] = useState<'email' | 'linkedin'>('email');
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const lookup = usePublicLookup();
  const limited = lookup.isError && isApiError(lookup.error) && lookup.error.status === 429;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    if (!value.trim()) return setError(kind === 'email' ? 'Please enter an email address' : 'Please enter a LinkedIn URL');
    lookup.mutate(kind === 'email' ? { email: value.trim() } : { linkedin_url: value.trim() }, {
      onError: (err) => {
        if (!(isApiError(err) && err.status === 429)) setError(getErrorMessage(err));
      },
    });
  };
  return (
    <Stack gap="md">
      <Title order={2}>Reverse lookup</Title>
      <Text size="sm" c="dimmed">
        Find out who is behind an email address or a LinkedIn profile. {PUBLIC_REVERSE_LOOKUP_DAILY_LIMIT} free lookups a day.
      </Text>
      <form onSubmit={submit}>
        <Stack>
          <SegmentedControl
            value={kind}
            onChange={(v) => setKind(v as 'email' | 'linkedin')}
            data={[
              { value: 'email', label: 'Email' },
              { value: 'linkedin', label: 'LinkedIn URL' },
            ]}
          />
          <TextInput label={kind === 'email' ? 'Email address' : 'LinkedIn URL'} value={value} onChange={(e) => setValue(e.currentTarget.value)} error={error} />
          <Button type="submit" loading={lookup.isPending}>
            Look up
          </Button>
        </Stack>
      </form>
      {limited ? (
        <Alert color="orange" title="Daily limit reached" data-testid="public-limit">
          You have used today&apos;s {PUBLIC_REVERSE_LOOKUP_DAILY_LIMIT} free lookups. <Anchor component={Link} to="/signup">Sign up</Anchor> for more, with contact data.
        </Alert>
      ) : null}
      {lookup.data ? (
        <Paper withBorder p="md" data-testid="public-result">
          {lookup.data.person ? (
            <Stack gap={2}>
              <Text fw={600}>{lookup.data.person.full_name}</Text>
              <Text size="sm">
                {lookup.data.person.title}
                {lookup.data.person.company_name ? ` at ${lookup.data.person.company_name}` : ''}
              </Text>
              <Text size="xs" c="dimmed">
                {[lookup.data.person.city, lookup.data.person.country].filter(Boolean).join(', ')}
              </Text>
            </Stack>
          ) : (
            <Text size="sm">No match in the directory.</Text>
          )}
        </Paper>
      ) : null}
    </Stack>
  );
}
