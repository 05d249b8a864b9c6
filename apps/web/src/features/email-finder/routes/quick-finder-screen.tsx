import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Box, Button, Card, Grid, Group, Input, Loader, Stack, Text, TextInput } from '@mantine/core';
import { IconAlertTriangle, IconSearch } from '@tabler/icons-react';
import { CREDITS_PER_FIND, ZQuickFinderForm, type TFinderResult, type TQuickFinderForm, type TQuickFinderFormInput } from '@verilead/contracts';
import { PageHeader } from '../../../components/page-header';
import { getErrorMessage } from '../../../lib/api-error';
import { useInstantFind, useInstantQueueStatus } from '../api/email-finder-api';
import { FinderHistoryTable } from '../components/finder-history-table';
import { FinderResultCard } from '../components/finder-result-card';

/**
 * /email_finder/quick: a person's first and last name and their company's domain in, the address and how sure we
 * are out. The form checks with the contract's ZQuickFinderForm, the rule the server applies (a company name
 * cannot be searched until a companies directory exists).
 */
export function QuickFinderScreen() {
  const [result, setResult] = useState<{ result: TFinderResult; credits: number } | null>(null);
  const [qid, setQid] = useState<string | null>(null);
  const find = useInstantFind();
  const queued = useInstantQueueStatus(qid);
  const form = useForm<TQuickFinderFormInput, unknown, TQuickFinderForm>({
    resolver: zodResolver(ZQuickFinderForm),
    defaultValues: { first_name: '', last_name: '', domain: '' },
  });
  const errors = form.formState.errors;

  const queuedResult = queued.data?.state === 'completed' && queued.data.result ? queued.data.result : null;
  const queuedFailed = queued.data?.state === 'failed' ? (queued.data.error ?? 'The search failed.') : null;
  const shown = queuedResult ? { result: queuedResult, credits: queuedResult.credits_charged } : result;
  const waiting = find.isPending || (qid !== null && !queuedResult && !queuedFailed && !queued.isError);

  const submit = form.handleSubmit((body) => {
    setResult(null);
    setQid(null);
    find.mutate(body, {
      onSuccess: (data) => {
        if (data.queued) setQid(data.qid);
        else setResult({ result: data, credits: data.credits_charged });
      },
    });
  });

  return (
    <>
      <PageHeader title="Quick Email Finder" description="Enter a person's first and last name and their company's domain: we find the address and say how sure we are." />
      <Stack gap="lg">
        <Card padding="lg" component="form" onSubmit={submit} noValidate>
          {/* Top-aligned: a field's error grows below it and never pushes the other labels down. */}
          <Grid align="flex-start">
            <Grid.Col span={{ base: 12, sm: 6, md: 3 }}>
              <TextInput label="First name" placeholder="Jane" {...form.register('first_name')} error={errors.first_name?.message} maxLength={100} required />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6, md: 3 }}>
              <TextInput label="Last name" placeholder="Doe" {...form.register('last_name')} error={errors.last_name?.message} maxLength={100} required />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 8, md: 4 }}>
              <TextInput label="Company domain" placeholder="acme.com" {...form.register('domain')} error={errors.domain?.message} maxLength={253} required />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 4, md: 2 }}>
              {/* A label-high spacer, so the button lines up with the inputs. */}
              <Box visibleFrom="sm" aria-hidden style={{ visibility: 'hidden' }}>
                <Input.Label>&nbsp;</Input.Label>
              </Box>
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
