import { useState } from 'react';
import { Alert, Badge, Button, Card, Group, Select, Stack, Text, Title } from '@mantine/core';
import { SUPPORT_ACCESS_HOURS } from '@verilead/contracts';
import { LoadingScreen } from '../../../components/loading-screen';
import { ErrorState } from '../../../components/state-views';
import { getErrorMessage } from '../../../lib/api-error';
import { formatDateTime } from '../../../lib/format';
import { useSetSupportAccess, useSupportAccess } from '../api/support-access-api';

const LABELS: Record<number, string> = { 1: '1 hour', 24: '1 day', 72: '3 days', 168: '7 days' };

/**
 * The owner's support access: Verilead support never sees the organisation's lists, verification results or contacts
 * unless the owner grants it here, for a limited time (each view is in the audit log).
 */
export function SupportAccessCard() {
  const access = useSupportAccess();
  const change = useSetSupportAccess();
  const [hours, setHours] = useState('24');
  const [error, setError] = useState<string | null>(null);
  const run = async (value: number | null) => {
    setError(null);
    try {
      await change.mutateAsync(value);
    } catch (cause) {
      setError(getErrorMessage(cause));
    }
  };
  return (
    <Card aria-labelledby="support-access-title">
      <Stack gap="md">
        <Group justify="space-between">
          <Title order={4} fz={16} id="support-access-title">
            Support access
          </Title>
          {access.data?.active && access.data.until ? <Badge color="green">Granted until {formatDateTime(access.data.until)}</Badge> : access.data ? <Badge color="gray">Not granted</Badge> : null}
        </Group>
        <Text size="sm" c="dimmed">
          Verilead support cannot see your lists, verification results or contacts. To let them look into a problem, grant access for a limited time; every view is recorded in your audit log.
        </Text>
        {access.isPending ? <LoadingScreen /> : null}
        {access.isError ? <ErrorState error={access.error} onRetry={() => void access.refetch()} /> : null}
        {error ? (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        ) : null}
        {access.data ? (
          <Group align="flex-end" wrap="wrap">
            <Select label="Grant access for" data={SUPPORT_ACCESS_HOURS.map((h) => ({ value: String(h), label: LABELS[h] ?? `${h} hours` }))} value={hours} onChange={(v) => v && setHours(v)} allowDeselect={false} w={180} />
            <Button onClick={() => void run(Number(hours))} loading={change.isPending && change.variables !== null}>
              {access.data.active ? 'Extend access' : 'Grant access'}
            </Button>
            {access.data.active ? (
              <Button variant="default" color="red" onClick={() => void run(null)} loading={change.isPending && change.variables === null}>
                End access now
              </Button>
            ) : null}
          </Group>
        ) : null}
      </Stack>
    </Card>
  );
}
