import { useState } from 'react';
import { Alert, Button, Card, Grid, Group, Loader, Stack, Text, TextInput } from '@mantine/core';
import { IconAlertTriangle, IconSearch } from '@tabler/icons-react';
import { CREDITS_PER_FIND, type TFinderResult } from '@verilead/contracts';
import { PageHeader } from '../../../components/page-header';
import { getErrorMessage } from '../../../lib/api-error';
import { useInstantFind, useInstantQueueStatus } from '../api/email-finder-api';
import { FinderHistoryTable } from '../components/finder-history-table';
import { FinderResultCard } from '../components/finder-result-card';
import { splitDomainOrCompany } from '../utils/finder-format';

type TFields = { first: string; last: string; domain: string };
type TFieldErrors = Partial<Record<keyof TFields, string>>;

/** Browser-side checks before a search (the server checks again). */
export function checkFinderFields(fields: TFields): TFieldErrors {
  const errors: TFieldErrors = {};
  if (fields.first.trim() === '') errors.first = 'Please enter the first name';
  if (fields.domain.trim() === '') errors.domain = 'Please enter a domain or a company name';
  return errors;
}

/** /email_finder/quick: a person's name and a domain or company in, the address and how sure we are out. */
export function QuickFinderScreen() {
  const [fields, setFields] = useState<TFields>({ first: '', last: '', domain: '' });
  const [errors, setErrors] = useState<TFieldErrors>({});
  const [result, setResult] = useState<{ result: TFinderResult; credits: number } | null>(null);
  const [qid, setQid] = useState<string | null>(null);
  const find = useInstantFind();
  const queued = useInstantQueueStatus(qid);

  const queuedResult = queued.data?.state === 'completed' && queued.data.result ? queued.data.result : null;
  const queuedFailed = queued.data?.state === 'failed' ? (queued.data.error ?? 'The search failed.') : null;
  const shown = queuedResult ? { result: queuedResult, credits: queuedResult.credits_charged } : result;
  const waiting = find.isPending || (qid !== null && !queuedResult && !queuedFailed && !queued.isError);

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const problems = checkFinderFields(fields);
    setErrors(problems);
    if (Object.keys(problems).length > 0) return;
    setResult(null);
    setQid(null);
    find.mutate(
      { first_name: fields.first.trim(), last_name: fields.last.trim() || undefined, ...splitDomainOrCompany(fields.domain) },
      {
        onSuccess: (data) => {
          if (data.queued) setQid(data.qid);
          else setResult({ result: data, credits: data.credits_charged });
        },
      },
    );
  };

  const set = (key: keyof TFields) => (event: React.ChangeEvent<HTMLInputElement>) => {
    const value = event.currentTarget.value;
    setFields((current) => ({ ...current, [key]: value }));
  };

  return (
    <>
      <PageHeader title="Quick Email Finder" description="Enter a person's name and their company's domain (or the company name): we find the address and say how sure we are." />
      <Stack gap="lg">
        <Card padding="lg" component="form" onSubmit={submit} noValidate>
          <Grid align="flex-end">
            <Grid.Col span={{ base: 12, sm: 6, md: 3 }}>
              <TextInput label="First name" placeholder="Jane" value={fields.first} onChange={set('first')} error={errors.first} maxLength={100} required />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6, md: 3 }}>
              <TextInput label="Last name" placeholder="Doe" value={fields.last} onChange={set('last')} error={errors.last} maxLength={100} />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 8, md: 4 }}>
              <TextInput label="Domain or company" placeholder="acme.com or Acme Inc" value={fields.domain} onChange={set('domain')} error={errors.domain} maxLength={253} required />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 4, md: 2 }}>
              <Button type="submit" fullWidth leftSection={<IconSearch size={16} />} loading={find.isPending}>
                Find
              </Button>
            </Grid.Col>
          </Grid>
          <Text size="xs" c="dimmed" mt="sm">
            {CREDITS_PER_FIND} credit per address found. Nothing is charged when no address is found.
          </Text>
        </Card>
        {find.isError ? (
          <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} title="The search could not run" role="alert" data-testid="finder-error">
            {getErrorMessage(find.error)}
          </Alert>
        ) : null}
        {queuedFailed || queued.isError ? (
          <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} title="The search failed" role="alert">
            {queuedFailed ?? getErrorMessage(queued.error)}
          </Alert>
        ) : null}
        {waiting && qid !== null ? (
          <Card padding="lg" data-testid="finder-queued">
            <Group gap="sm">
              <Loader size="sm" />
              <Text size="sm">The mail server is slow to answer; the search continues and the result appears here when ready.</Text>
            </Group>
          </Card>
        ) : null}
        {shown ? <FinderResultCard result={shown.result} creditsCharged={shown.credits} /> : null}
        <FinderHistoryTable />
      </Stack>
    </>
  );
}
