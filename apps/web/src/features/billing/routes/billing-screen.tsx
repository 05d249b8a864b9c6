import { useEffect, useRef, useState } from 'react';
import { Alert, Badge, Button, Card, Group, Stack, Table, Tabs, Text, Title } from '@mantine/core';
import { IconCreditCard, IconDownload, IconPlus } from '@tabler/icons-react';
import { useSearchParams } from 'react-router';
import { EmptyState, ErrorState } from '../../../components/state-views';
import { PageHeader } from '../../../components/page-header';
import { PagedTableFooter } from '../../../components/paged-table-footer';
import { getErrorMessage } from '../../../lib/api-error';
import { formatDate, formatNumber } from '../../../lib/format';
import { showToast } from '../../../lib/toast';
import {
  downloadPaymentDocument,
  useBuyCreditsInfo,
  useCards,
  useConfirmSetupIntent,
  useDeleteCard,
  usePaymentList,
  useSetDefaultCard,
  useStartSetupIntent,
} from '../api/payments-api';
import { PaymentActionAlert } from '../components/payment-action-alert';
import { PaymentModeNotice } from '../components/payment-mode-notice';
import { formatAmount } from '../components/money';
import { BillingDetailsForm } from '../components/billing-details-form';

function CardsSection({ canAddCard }: { canAddCard: boolean }) {
  const cards = useCards();
  const start = useStartSetupIntent();
  const confirm = useConfirmSetupIntent();
  const setDefault = useSetDefaultCard();
  const remove = useDeleteCard();
  const [params, setParams] = useSearchParams();
  const setupId = params.get('setup_intent');
  const handled = useRef<string | null>(null);

  useEffect(() => {
    if (!setupId || handled.current === setupId) return;
    handled.current = setupId;
    confirm.mutate(setupId, {
      onSuccess: (card) => showToast({ title: 'Card saved', message: `${card.brand} ending in ${card.last4} was saved.`, kind: 'success' }),
      onSettled: () =>
        setParams(
          (p) => {
            p.delete('setup_intent');
            p.delete('redirect_status');
            return p;
          },
          { replace: true },
        ),
    });
  }, [setupId, confirm, setParams]);

  const failure = start.error ?? confirm.error ?? setDefault.error ?? remove.error;
  return (
    <Card>
      <Group justify="space-between" mb="sm">
        <Title order={4}>Cards</Title>
        <Button size="xs" leftSection={<IconPlus size={14} />} loading={start.isPending} disabled={!canAddCard} onClick={() => start.mutate(undefined, { onSuccess: (d) => window.location.assign(d.checkout_url) })}>
          Add a card
        </Button>
      </Group>
      {failure ? (
        <Alert color="red" mb="sm" role="alert">
          {getErrorMessage(failure)}
        </Alert>
      ) : null}
      {cards.isPending ? <Text size="sm">Loading...</Text> : null}
      {cards.isError ? <ErrorState error={cards.error} onRetry={() => void cards.refetch()} /> : null}
      {cards.data && cards.data.items.length === 0 ? <EmptyState title="No saved cards" description="Save a card to buy credits in one click." /> : null}
      {cards.data && cards.data.items.length > 0 ? (
        <Table aria-label="Cards">
          <Table.Tbody>
            {cards.data.items.map((c) => (
              <Table.Tr key={c.id}>
                <Table.Td>
                  <Group gap="xs">
                    <IconCreditCard size={18} />
                    <Text tt="capitalize">{c.brand}</Text> •••• {c.last4}
                    {c.is_default ? <Badge size="sm">Default</Badge> : null}
                  </Group>
                </Table.Td>
                <Table.Td>
                  Expires {String(c.exp_month).padStart(2, '0')}/{c.exp_year}
                </Table.Td>
                <Table.Td ta="right">
                  <Group gap="xs" justify="flex-end">
                    {!c.is_default ? (
                      <Button size="xs" variant="default" onClick={() => setDefault.mutate(c.id)}>
                        Make default
                      </Button>
                    ) : null}
                    <Button size="xs" variant="subtle" color="red" onClick={() => remove.mutate(c.id)}>
                      Remove
                    </Button>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      ) : null}
    </Card>
  );
}

const LISTS = {
  all: { path: 'invoice/list', label: 'Invoices', doc: 'invoice' },
  pending: { path: 'invoice/pending_list', label: 'Awaiting payment', doc: 'invoice' },
  receipts: { path: 'receipt/list', label: 'Receipts', doc: 'receipt' },
} as const;

function PaymentsTable({ which }: { which: keyof typeof LISTS }) {
  const [page, setPage] = useState(1);
  const [limit, setLimit] = useState(25);
  const list = usePaymentList(LISTS[which].path, page, limit);
  const download = (id: string) =>
    downloadPaymentDocument(LISTS[which].doc, id).catch((err: unknown) => showToast({ title: 'Download failed', message: getErrorMessage(err), kind: 'error' }));
  if (list.isPending) return <Text size="sm">Loading...</Text>;
  if (list.isError) return <ErrorState error={list.error} onRetry={() => void list.refetch()} />;
  if (list.data.items.length === 0) return <EmptyState title={`No ${LISTS[which].label.toLowerCase()} yet`} />;
  return (
    <>
      <Table striped aria-label={LISTS[which].label}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Number</Table.Th>
            <Table.Th>Date</Table.Th>
            <Table.Th>Item</Table.Th>
            <Table.Th>Tax</Table.Th>
            <Table.Th>Total</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {list.data.items.map((p) => (
            <Table.Tr key={p.id}>
              <Table.Td>{p.number ?? 'Draft'}</Table.Td>
              <Table.Td>{formatDate(p.paid_at ?? p.created_at)}</Table.Td>
              <Table.Td>
                {p.plan_name ? `${p.plan_name} plan · ` : ''}
                {formatNumber(p.credits + p.bonus_credits)} credits
              </Table.Td>
              <Table.Td>{formatAmount(p.currency, p.tax)}</Table.Td>
              <Table.Td>{formatAmount(p.currency, p.total)}</Table.Td>
              <Table.Td>
                <Badge variant="light" color={p.status === 'paid' ? 'teal' : p.status === 'failed' ? 'red' : 'gray'}>
                  {p.status.replace('_', ' ')}
                </Badge>
              </Table.Td>
              <Table.Td ta="right">
                {p.action_url ? (
                  <Button component="a" href={p.action_url} size="xs" variant="light" color="orange" mr={4}>
                    Confirm payment
                  </Button>
                ) : null}
                <Button size="xs" variant="subtle" leftSection={<IconDownload size={14} />} onClick={() => void download(p.id)}>
                  PDF
                </Button>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <PagedTableFooter
        page={page}
        limit={limit}
        total={list.data.total}
        onPageChange={setPage}
        onLimitChange={(l) => {
          setLimit(l);
          setPage(1);
        }}
      />
    </>
  );
}

/** /account/billing: saved cards, invoices (pending too) and receipts with their PDFs. */
export function BillingScreen() {
  const payments = useBuyCreditsInfo();
  return (
    <>
      <PageHeader title="Billing" description="Cards, billing details, invoices and receipts of your organisation." />
      <Stack gap="lg">
        <PaymentModeNotice info={payments.data} />
        <PaymentActionAlert />
        <CardsSection canAddCard={!payments.data || payments.data.providers.includes('stripe')} />
        <BillingDetailsForm />
        <Card>
          <Tabs defaultValue="all">
            <Tabs.List mb="sm">
              {Object.entries(LISTS).map(([k, v]) => (
                <Tabs.Tab key={k} value={k}>
                  {v.label}
                </Tabs.Tab>
              ))}
            </Tabs.List>
            {Object.keys(LISTS).map((k) => (
              <Tabs.Panel key={k} value={k}>
                <PaymentsTable which={k as keyof typeof LISTS} />
              </Tabs.Panel>
            ))}
          </Tabs>
        </Card>
      </Stack>
    </>
  );
}
