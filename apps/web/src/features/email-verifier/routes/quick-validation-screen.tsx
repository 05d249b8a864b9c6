import { useState, type FormEvent } from 'react';
import { Badge, Button, Card, Grid, Group, Loader, Stack, Table, Text, TextInput, Title, UnstyledButton } from '@mantine/core';
import { IconAt, IconBolt } from '@tabler/icons-react';
import type { TInstantVerifyData } from '@verilead/contracts';
import { EmptyState, ErrorState } from '../../../components/state-views';
import { PageHeader } from '../../../components/page-header';
import { getCreditRefusalTitle, isApiError } from '../../../lib/api-error';
import { formatDateTime } from '../../../lib/format';
import { useInstantVerify, useRecentInstant } from '../api/email-verifier-api';
import { CatchAllScoreBadge } from '../components/catch-all-score-badge';
import { VerdictCard } from '../components/verdict-card';
import { STATUS_LOOKS, toScorePercent } from '../utils/verdict-format';

function RecentResults({ onPick, activeId }: { onPick: (item: TInstantVerifyData) => void; activeId: string | null }) {
  const recent = useRecentInstant();
  return (
    <Card padding="lg">
      <Group justify="space-between" mb="sm">
        <Title order={4} fz={16}>
          Recent results
        </Title>
        {recent.isFetching ? <Loader size="xs" /> : null}
      </Group>
      {recent.isPending ? (
        <Text size="sm" c="dimmed">
          Loading...
        </Text>
      ) : recent.isError ? (
        <ErrorState error={recent.error} onRetry={() => void recent.refetch()} title="Could not load recent results" />
      ) : recent.data.items.length === 0 ? (
        <EmptyState title="No checks yet" description="Addresses you verify here are listed for quick reference." />
      ) : (
        <Table verticalSpacing={6} highlightOnHover aria-label="Recent results">
          <Table.Tbody>
            {recent.data.items.map((item) => {
              const look = STATUS_LOOKS[item.status];
              return (
                <Table.Tr key={item.id} bg={item.id === activeId ? 'indigo.0' : undefined}>
                  <Table.Td>
                    <UnstyledButton onClick={() => onPick(item)} style={{ display: 'block', width: '100%' }} aria-label={`Show result for ${item.email}`}>
                      <Text size="sm" fw={500} truncate maw={220}>
                        {item.email}
                      </Text>
                      <Text size="xs" c="dimmed">
                        {formatDateTime(item.verified_on)}
                      </Text>
                    </UnstyledButton>
                  </Table.Td>
                  <Table.Td ta="right">
                    <Stack gap={2} align="flex-end">
                      <Badge color={look.color} variant="light" radius="sm">
                        {look.label}
                      </Badge>
                      {item.catch_all_score ? <CatchAllScoreBadge value={item.catch_all_score} /> : null}
                      <Text size="xs" c="dimmed">
                        {toScorePercent(item.deliverability_score)}%
                      </Text>
                    </Stack>
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      )}
    </Card>
  );
}

/** /email_verifier/quick_validation: verify one address in real time. */
export function QuickValidationScreen() {
  const [email, setEmail] = useState('');
  const [shown, setShown] = useState<TInstantVerifyData | null>(null);
  const verify = useInstantVerify();

  const run = async (address: string) => {
    const value = address.trim();
    if (!value) return;
    setEmail(value);
    setShown(null);
    try {
      setShown(await verify.mutateAsync(value));
    } catch {
      // The error is shown from the mutation state (402 also toasts and redirects to pricing).
    }
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void run(email);
  };

  const paymentRequired = isApiError(verify.error) && verify.error.status === 402;

  return (
    <>
      <PageHeader title="Quick Validation" description="Instantly verify emails in real time: one address, every detail of the verdict." />
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 8 }}>
          <Stack gap="lg">
            <Card padding="lg">
              <form onSubmit={onSubmit} noValidate>
                <Group align="flex-end" gap="sm" wrap="nowrap">
                  <TextInput
                    label="Email address"
                    placeholder="name@company.com"
                    leftSection={<IconAt size={16} />}
                    value={email}
                    onChange={(event) => setEmail(event.currentTarget.value)}
                    style={{ flex: 1 }}
                    size="md"
                    autoComplete="off"
                    spellCheck={false}
                    data-autofocus
                  />
                  <Button type="submit" size="md" leftSection={<IconBolt size={18} />} loading={verify.isPending} disabled={email.trim() === ''}>
                    Verify
                  </Button>
                </Group>
              </form>
              <Text size="xs" c="dimmed" mt="xs">
                Valid, invalid and catch-all results cost one credit; unknown results are free.
              </Text>
            </Card>

            {verify.isPending ? (
              <Card padding="xl">
                <Group gap="sm" role="status" aria-live="polite">
                  <Loader size="sm" />
                  <Text size="sm" c="dimmed">
                    Checking {email.trim()} with its mail server...
                  </Text>
                </Group>
              </Card>
            ) : null}
            {verify.isError && !verify.isPending ? (
              <ErrorState
                error={verify.error}
                title={getCreditRefusalTitle(verify.error) ?? 'Verification failed'}
                onRetry={paymentRequired ? undefined : () => void run(email)}
              />
            ) : null}
            {shown && !verify.isPending ? <VerdictCard result={shown} onRecheck={(address) => void run(address)} /> : null}
            {!shown && !verify.isPending && !verify.isError ? (
              <Card padding="xl">
                <EmptyState title="Enter an address to verify" description="See whether it exists, if it is safe to send to, and why." />
              </Card>
            ) : null}
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 4 }}>
          <RecentResults onPick={(item) => setShown(item)} activeId={shown?.id ?? null} />
        </Grid.Col>
      </Grid>
    </>
  );
}
