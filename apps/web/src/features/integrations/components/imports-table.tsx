import { Anchor, Badge, Button, Card, Progress, Stack, Table, Text, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconPlayerStop } from '@tabler/icons-react';
import { Link } from 'react-router';
import { INTEGRATION_CATALOG, type TIntegration, type TIntegrationImport } from '@verilead/contracts';
import { EmptyState, ErrorState } from '../../../components/state-views';
import { LoadingScreen } from '../../../components/loading-screen';
import { getErrorMessage } from '../../../lib/api-error';
import { formatDateTime } from '../../../lib/format';
import { showToast } from '../../../lib/toast';
import { useCancelImport, useImports } from '../api/integrations-api';

const STATE_LABELS: Record<TIntegrationImport['state'], { label: string; color: string }> = {
  importing: { label: 'Importing', color: 'blue' },
  verifying: { label: 'Verifying', color: 'blue' },
  writing_back: { label: 'Writing back', color: 'violet' },
  completed: { label: 'Completed', color: 'teal' },
  failed: { label: 'Failed', color: 'red' },
  cancelled: { label: 'Cancelled', color: 'gray' },
};

/** The states in which an import can still be cancelled. */
const RUNNING: ReadonlySet<TIntegrationImport['state']> = new Set(['importing', 'verifying', 'writing_back']);

/** How far an import is, and what the bar says. */
function progressOf(i: TIntegrationImport): { value: number; text: string; animated: boolean } {
  const p = phaseProgressOf(i);
  // waiting for an operator to restore a suspended account: where it stands, and why it does not move
  return i.paused_reason ? { ...p, text: i.paused_reason, animated: false } : p;
}

function phaseProgressOf(i: TIntegrationImport): { value: number; text: string; animated: boolean } {
  if (i.state === 'importing') {
    const value = i.total ? Math.min(100, (i.imported / Math.max(1, i.total)) * 100) : 0;
    return { value, text: `${i.imported.toLocaleString()}${i.total ? ` of ${i.total.toLocaleString()}` : ''} contacts imported`, animated: true };
  }
  if (i.state === 'verifying') return { value: 100, text: `${i.imported.toLocaleString()} contacts being verified`, animated: true };
  if (i.state === 'writing_back') return { value: (i.written_back / Math.max(1, i.imported)) * 100, text: `${i.written_back.toLocaleString()} of ${i.imported.toLocaleString()} written back`, animated: true };
  if (i.state === 'completed') return { value: 100, text: i.error ?? `${i.imported.toLocaleString()} verified, ${i.written_back.toLocaleString()} written back`, animated: false };
  return { value: 0, text: i.error ?? '', animated: false };
}

/** Recent imports (optionally of one platform) with their progress; polls while one runs. */
export function ImportsTable({ platform }: { platform?: TIntegration }) {
  const imports = useImports();
  const cancel = useCancelImport();
  const items = imports.data?.items.filter((i) => !platform || i.integration === platform) ?? [];
  const cancelImport = (i: TIntegrationImport) =>
    modals.openConfirmModal({
      title: 'Cancel import?',
      children: (
        <Text size="sm">
          The import of {i.remote_list_name} stops now, with its verification and write-back. What was imported, verified and written back stays; only addresses already verified are billed.
        </Text>
      ),
      labels: { confirm: 'Cancel import', cancel: 'Keep importing' },
      confirmProps: { color: 'red' },
      onConfirm: () =>
        cancel.mutate(i.id, {
          onSuccess: () => showToast({ title: 'Import cancelled', message: `${i.remote_list_name} was stopped.`, kind: 'info' }),
          onError: (error) => showToast({ title: 'Could not cancel', message: getErrorMessage(error), kind: 'error' }),
        }),
    });
  return (
    <Card>
      <Title order={4} fz={16} mb="sm">
        Imports
      </Title>
      {imports.isPending ? (
        <LoadingScreen />
      ) : imports.isError ? (
        <ErrorState error={imports.error} onRetry={() => void imports.refetch()} />
      ) : items.length === 0 ? (
        <EmptyState title="No imports yet" description="Pick a list of a connected account and verify it." />
      ) : (
        <Table verticalSpacing="sm" data-testid="imports-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>List</Table.Th>
              <Table.Th>Account</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th w="35%">Progress</Table.Th>
              <Table.Th>Started</Table.Th>
              <Table.Th aria-label="Actions" />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.map((i) => {
              const p = progressOf(i);
              const s = STATE_LABELS[i.state];
              return (
                <Table.Tr key={i.id} data-testid={`import-${i.id}`}>
                  <Table.Td>
                    {i.verify_list_id ? (
                      <Anchor component={Link} to={`/email_verifier/lists/${i.verify_list_id}`}>
                        {i.remote_list_name}
                      </Anchor>
                    ) : (
                      i.remote_list_name
                    )}
                  </Table.Td>
                  <Table.Td>
                    {i.integration === 'leads' ? 'Leads' : INTEGRATION_CATALOG[i.integration].label} · {i.account_name}
                  </Table.Td>
                  <Table.Td>
                    <Badge color={s.color} variant="light">
                      {s.label}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    <Stack gap={4}>
                      <Progress value={p.value} animated={p.animated} striped={p.animated} aria-label={`${i.remote_list_name} progress`} />
                      <Text size="xs" c={i.state === 'failed' ? 'red' : 'dimmed'}>
                        {p.text}
                      </Text>
                    </Stack>
                  </Table.Td>
                  <Table.Td>{formatDateTime(i.created_at)}</Table.Td>
                  <Table.Td>
                    {RUNNING.has(i.state) && (
                      <Button size="xs" color="red" variant="light" leftSection={<IconPlayerStop size={14} />} onClick={() => cancelImport(i)} aria-label={`Cancel the import of ${i.remote_list_name}`}>
                        Cancel
                      </Button>
                    )}
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
