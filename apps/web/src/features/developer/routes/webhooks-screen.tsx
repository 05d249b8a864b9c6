import { useState } from 'react';
import { ActionIcon, Alert, Badge, Button, Card, Group, Select, Stack, Table, Text, Title, Tooltip } from '@mantine/core';
import { IconEdit, IconPlus, IconRefresh, IconSend, IconTrash } from '@tabler/icons-react';
import { WEBHOOK_EVENTS, WEBHOOK_SIGNATURE_HEADER, WEBHOOK_TIMESTAMP_HEADER, WEBHOOK_TEST_EVENT, type TDeliveryStatus, type TWebhook } from '@verilead/contracts';
import { EmptyState, ErrorState } from '../../../components/state-views';
import { LoadingScreen } from '../../../components/loading-screen';
import { PageHeader } from '../../../components/page-header';
import { PagedTableFooter, usePaging } from '../../../components/paged-table-footer';
import { getErrorMessage } from '../../../lib/api-error';
import { formatDateTime } from '../../../lib/format';
import { useDeleteWebhook, useEventLogs, useGenerateSecret, useRedeliver, useTestWebhook, useWebhookSecret, useWebhooks } from '../api/developer-api';
import { CopyField } from '../components/copy-field';
import { WebhookFormModal } from '../components/webhook-form-modal';

const STATUS_COLORS: Record<TDeliveryStatus, string> = { success: 'teal', failed: 'red', pending: 'yellow' };

function SecretCard() {
  const secret = useWebhookSecret();
  const generate = useGenerateSecret();
  const [shown, setShown] = useState(false);
  return (
    <Card>
      <Group justify="space-between" mb="xs">
        <Title order={4} fz={16}>
          Signing secret
        </Title>
        <Group gap="xs">
          {secret.data?.secret ? (
            <Button size="xs" variant="default" onClick={() => setShown((s) => !s)}>
              {shown ? 'Hide' : 'Show'}
            </Button>
          ) : null}
          <Button size="xs" variant="light" leftSection={<IconRefresh size={14} />} loading={generate.isPending} onClick={() => void generate.mutateAsync().then(() => setShown(true))}>
            Generate new secret
          </Button>
        </Group>
      </Group>
      <Text size="sm" c="dimmed" mb="sm">
        Every delivery carries <code>{WEBHOOK_TIMESTAMP_HEADER}</code> and <code>{WEBHOOK_SIGNATURE_HEADER}</code> = <code>sha256=</code>HMAC-SHA256(secret, “timestamp.body”). Verify it
        before trusting a delivery.
      </Text>
      {secret.isPending ? (
        <LoadingScreen />
      ) : secret.isError ? (
        <ErrorState error={secret.error} onRetry={() => void secret.refetch()} />
      ) : secret.data.secret ? (
        shown ? (
          <CopyField value={secret.data.secret} label="Copy secret" testId="webhook-secret" />
        ) : (
          <Text ff="monospace">whsec_••••••••••••••••</Text>
        )
      ) : (
        <Text size="sm">No secret yet: it is created with your first webhook, or generate one now.</Text>
      )}
    </Card>
  );
}

function EventLogs({ webhooks }: { webhooks: TWebhook[] }) {
  const { page, limit, setPage, changeLimit } = usePaging();
  const [webhookId, setWebhookId] = useState<string | null>(null);
  const [eventType, setEventType] = useState<string | null>(null);
  const [status, setStatus] = useState<TDeliveryStatus | null>(null);
  const logs = useEventLogs({ page, limit, webhook_id: webhookId ?? undefined, event_type: eventType ?? undefined, status: status ?? undefined });
  const redeliver = useRedeliver();
  const reset = () => setPage(1);
  return (
    <Card>
      <Group justify="space-between" mb="sm">
        <Title order={4} fz={16}>
          Event logs
        </Title>
        <Button size="xs" variant="subtle" leftSection={<IconRefresh size={14} />} onClick={() => void logs.refetch()}>
          Refresh
        </Button>
      </Group>
      <Group gap="sm" mb="md">
        <Select aria-label="Filter by webhook" placeholder="All webhooks" clearable value={webhookId} data={webhooks.map((w) => ({ value: w.id, label: w.name }))} onChange={(v) => (setWebhookId(v), reset())} />
        <Select aria-label="Filter by event" placeholder="All events" clearable value={eventType} data={[WEBHOOK_TEST_EVENT, ...WEBHOOK_EVENTS]} onChange={(v) => (setEventType(v), reset())} />
        <Select
          aria-label="Filter by status"
          placeholder="Any status"
          clearable
          value={status}
          data={[
            { value: 'success', label: 'Delivered' },
            { value: 'failed', label: 'Failed' },
            { value: 'pending', label: 'Retrying' },
          ]}
          onChange={(v) => (setStatus(v as TDeliveryStatus | null), reset())}
        />
      </Group>
      {redeliver.isError ? (
        <Alert color="red" mb="sm">
          {getErrorMessage(redeliver.error)}
        </Alert>
      ) : null}
      {logs.isPending ? (
        <LoadingScreen />
      ) : logs.isError ? (
        <ErrorState error={logs.error} onRetry={() => void logs.refetch()} />
      ) : logs.data.items.length === 0 ? (
        <EmptyState title="No deliveries yet" description="Deliveries appear here when an event fires or you send a test event." />
      ) : (
        <>
          <Table.ScrollContainer minWidth={800}>
            <Table verticalSpacing="xs" data-testid="event-logs">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Time</Table.Th>
                  <Table.Th>Webhook</Table.Th>
                  <Table.Th>Event</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th>Attempts (HTTP status · latency)</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {logs.data.items.map((log) => (
                  <Table.Tr key={log.id}>
                    <Table.Td>{formatDateTime(log.created_at)}</Table.Td>
                    <Table.Td>{log.webhook_name}</Table.Td>
                    <Table.Td ff="monospace" fz="sm">
                      {log.event_type}
                    </Table.Td>
                    <Table.Td>
                      <Badge color={STATUS_COLORS[log.status]} variant="light">
                        {log.status === 'success' ? 'Delivered' : log.status === 'failed' ? 'Failed' : 'Retrying'}
                      </Badge>
                    </Table.Td>
                    <Table.Td>
                      <Stack gap={0}>
                        {log.attempts.map((a) => (
                          <Text key={a.attempt} size="xs" c={a.status_code && a.status_code < 300 ? undefined : 'red'}>
                            #{a.attempt} · {a.status_code ?? a.error ?? 'no answer'} · {a.latency_ms} ms
                          </Text>
                        ))}
                        {log.next_attempt_at ? (
                          <Text size="xs" c="dimmed">
                            next try {formatDateTime(log.next_attempt_at)}
                          </Text>
                        ) : null}
                      </Stack>
                    </Table.Td>
                    <Table.Td>
                      <Button size="xs" variant="light" loading={redeliver.isPending && redeliver.variables === log.id} onClick={() => void redeliver.mutateAsync(log.id)}>
                        Redeliver
                      </Button>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <PagedTableFooter page={page} limit={limit} total={logs.data.total} onPageChange={setPage} onLimitChange={changeLimit} />
        </>
      )}
    </Card>
  );
}

/** Webhooks: endpoints, the signing secret, test events and the delivery logs with redelivery. */
export function WebhooksScreen() {
  const webhooks = useWebhooks();
  const remove = useDeleteWebhook();
  const test = useTestWebhook();
  const [editing, setEditing] = useState<TWebhook | 'new' | null>(null);
  return (
    <>
      <PageHeader
        title="Webhooks"
        description="Verilead POSTs a signed JSON body to your URL when an event happens; failed deliveries are retried for about a day."
        actions={
          <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')}>
            Create webhook
          </Button>
        }
      />
      <Stack gap="lg">
        <Card>
          {webhooks.isPending ? (
            <LoadingScreen />
          ) : webhooks.isError ? (
            <ErrorState error={webhooks.error} onRetry={() => void webhooks.refetch()} />
          ) : webhooks.data.items.length === 0 ? (
            <EmptyState title="No webhooks yet" description="Create one to receive events such as a finished bulk verification." />
          ) : (
            <Table verticalSpacing="sm">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Name</Table.Th>
                  <Table.Th>URL</Table.Th>
                  <Table.Th>Events</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {webhooks.data.items.map((w) => (
                  <Table.Tr key={w.id}>
                    <Table.Td fw={600}>{w.name}</Table.Td>
                    <Table.Td ff="monospace" fz="sm">
                      {w.url}
                    </Table.Td>
                    <Table.Td>
                      <Group gap={4}>
                        {w.events.map((e) => (
                          <Badge key={e} size="xs" variant="outline">
                            {e}
                          </Badge>
                        ))}
                      </Group>
                    </Table.Td>
                    <Table.Td>
                      <Badge color={w.status === 'active' ? 'teal' : 'gray'} variant="light">
                        {w.status}
                      </Badge>
                    </Table.Td>
                    <Table.Td>
                      <Group gap={4} wrap="nowrap">
                        <Tooltip label="Send a test event">
                          <ActionIcon variant="light" aria-label={`Send a test event to ${w.name}`} loading={test.isPending && test.variables === w.id} onClick={() => void test.mutateAsync(w.id)}>
                            <IconSend size={16} />
                          </ActionIcon>
                        </Tooltip>
                        <Tooltip label="Edit">
                          <ActionIcon variant="light" color="gray" aria-label={`Edit ${w.name}`} onClick={() => setEditing(w)}>
                            <IconEdit size={16} />
                          </ActionIcon>
                        </Tooltip>
                        <Tooltip label="Delete">
                          <ActionIcon variant="light" color="red" aria-label={`Delete ${w.name}`} onClick={() => void remove.mutateAsync(w.id)}>
                            <IconTrash size={16} />
                          </ActionIcon>
                        </Tooltip>
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
          {test.data ? (
            <Alert mt="md" color={test.data.status === 'success' ? 'teal' : 'red'} variant="light" data-testid="test-result">
              Test event {test.data.status === 'success' ? 'delivered' : 'failed'}: {test.data.attempts[0]?.status_code ?? test.data.attempts[0]?.error ?? 'no answer'} in{' '}
              {test.data.attempts[0]?.latency_ms ?? 0} ms
            </Alert>
          ) : test.isError ? (
            <Alert mt="md" color="red">
              {getErrorMessage(test.error)}
            </Alert>
          ) : null}
        </Card>
        <SecretCard />
        <EventLogs webhooks={webhooks.data?.items ?? []} />
      </Stack>
      {editing !== null ? <WebhookFormModal opened webhook={editing === 'new' ? null : editing} onClose={() => setEditing(null)} /> : null}
    </>
  );
}
