import { Badge, Card, Code, Group, SegmentedControl, Table, Text, Title } from '@mantine/core';
import { FilterSelect, PagedQueryTable, usePagedFilter, usePaging } from '../../../components/paged-table-footer';
import { formatDateTime } from '../../../lib/format';
import { usePaymentEvents } from '../api/infra-api';

const PROVIDER_OPTIONS = [
  { value: 'stripe', label: 'Stripe' },
  { value: 'paypal', label: 'PayPal' },
];

const money = (minor: number | null, currency: string | null): string => {
  if (minor === null) return '—';
  const code = (currency ?? 'usd').toUpperCase();
  try {
    return new Intl.NumberFormat(undefined, { style: 'currency', currency: code }).format(minor / 100);
  } catch {
    return `${(minor / 100).toFixed(2)} ${code}`;
  }
};

/** Payment provider events (Stripe and PayPal webhooks) and the failures among them, newest first. */
export function PaymentsScreen() {
  const paging = usePaging();
  const { page, limit, setPage } = paging;
  const [view, setView] = usePagedFilter<'all' | 'failures'>('all', setPage);
  const [provider, setProvider] = usePagedFilter<string | null>(null, setPage);
  const events = usePaymentEvents({ page, limit, failures: view === 'failures', provider: provider ?? undefined });
  return (
    <>
      <Title order={2} mb="xs">
        Payments
      </Title>
      <Text c="dimmed" size="sm" mb="md">
        Events the payment providers sent, with the organisation each belongs to. Failures: declined payments and events not processed within 10 minutes. No card details are kept or shown.
      </Text>
      <Card>
        <Group justify="space-between" mb="md" wrap="wrap" gap="sm">
          <SegmentedControl
            aria-label="Events shown"
            data={[
              { value: 'all', label: 'All events' },
              { value: 'failures', label: 'Failures' },
            ]}
            value={view}
            onChange={(value) => setView(value as 'all' | 'failures')}
          />
          <FilterSelect label="Provider" placeholder="Both providers" data={PROVIDER_OPTIONS} value={provider} onChange={setProvider} width={180} />
        </Group>
        <PagedQueryTable
          query={events}
          paging={paging}
          loadingHeight={160}
          empty={{
            title: view === 'failures' ? 'No failures' : 'No payment events',
            description: view === 'failures' ? 'No payment failed and every event was processed.' : 'Events appear here as Stripe and PayPal send them.',
          }}
          label="Payment events"
          minWidth={860}
          head={
            <>
              <Table.Th>Received</Table.Th>
              <Table.Th>Event</Table.Th>
              <Table.Th>Organisation</Table.Th>
              <Table.Th ta="right">Amount</Table.Th>
              <Table.Th>State</Table.Th>
            </>
          }
        >
          {(items) =>
            items.map((e) => (
              <Table.Tr key={`${e.provider}:${e.event_id}`} data-testid="payment-event" data-type={e.type}>
                <Table.Td>
                  <Text size="sm">{formatDateTime(e.received_at)}</Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm" fw={500}>
                    {e.type}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {e.provider === 'paypal' ? 'PayPal' : 'Stripe'} · <Code fz="xs">{e.event_id}</Code>
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{e.org_name ?? '—'}</Text>
                </Table.Td>
                <Table.Td ta="right">
                  <Text size="sm">{money(e.amount_minor, e.currency)}</Text>
                </Table.Td>
                <Table.Td>
                  {e.failure ? (
                    <Badge color="red" variant="light" title={e.failure_message ?? undefined}>
                      {e.processed_at ? 'Failed' : 'Not processed'}
                    </Badge>
                  ) : (
                    <Badge color={e.processed_at ? 'green' : 'gray'} variant="light">
                      {e.processed_at ? 'Processed' : 'Waiting'}
                    </Badge>
                  )}
                  {e.failure_message ? (
                    <Text size="xs" c="red.8" mt={4}>
                      {e.failure_message}
                    </Text>
                  ) : null}
                </Table.Td>
              </Table.Tr>
            ))
          }
        </PagedQueryTable>
      </Card>
    </>
  );
}
