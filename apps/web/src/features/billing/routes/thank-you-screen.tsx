import { useEffect, useRef, useState } from 'react';
import { Alert, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { IconCircleCheck, IconCircleX } from '@tabler/icons-react';
import { Link, useSearchParams } from 'react-router';
import type { z } from 'zod';
import type { ZPaymentOutcomeData } from '@verilead/contracts';
import { ErrorState } from '../../../components/state-views';
import { PageHeader } from '../../../components/page-header';
import { formatNumber } from '../../../lib/format';
import { settlePayPalReturn, useConfirmPayment } from '../api/payments-api';
import { formatAmount } from '../components/money';

const POLL_MS = 1_000;
const MAX_POLLS = 15;

/** /payment/thank-you?payment_id=…: where the checkout page returns; settles the payment and shows the outcome. */
export function ThankYouScreen() {
  const [params] = useSearchParams();
  const paymentId = params.get('payment_id') ?? '';
  const confirm = useConfirmPayment();
  const [outcome, setOutcome] = useState<z.infer<typeof ZPaymentOutcomeData> | null>(null);
  const polls = useRef(0);

  useEffect(() => {
    if (!paymentId) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const run = () =>
      confirm.mutate(paymentId, {
        onSuccess: (data) => {
          if (stopped) return;
          setOutcome(data);
          const open = data.payment.status === 'pending' || data.payment.status === 'requires_action';
          if (open && polls.current < MAX_POLLS) {
            polls.current += 1;
            timer = setTimeout(run, POLL_MS);
          }
        },
      });
    // Back from PayPal: capture the approved order (or activate the subscription) first; a refusal shows on the payment.
    if (params.get('provider') === 'paypal') void settlePayPalReturn(params).catch(() => undefined).finally(run);
    else run();
    return () => {
      stopped = true;
      if (timer) clearTimeout(timer);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- runs once per payment
  }, [paymentId]);

  const p = outcome?.payment;
  return (
    <>
      <PageHeader title="Payment" />
      <Card maw={560}>
        {!paymentId ? <Alert color="red">This page needs a payment.</Alert> : null}
        {confirm.isError ? <ErrorState error={confirm.error} /> : null}
        {paymentId && !p && !confirm.isError ? <Text>Loading...</Text> : null}
        {p?.status === 'paid' ? (
          <Stack gap="xs">
            <Group gap="xs">
              <IconCircleCheck color="var(--mantine-color-teal-6)" />
              <Title order={3}>Thank you!</Title>
            </Group>
            <Text>
              {formatNumber(p.credits + p.bonus_credits)} credits were added ({p.number}, {formatAmount(p.currency, p.total)}).
            </Text>
            <Text data-testid="balance-after">Your balance is now {formatNumber(outcome?.balance ?? 0)} credits.</Text>
            <Group>
              <Button component={Link} to="/account/billing" variant="default">
                View receipt
              </Button>
              <Button component={Link} to="/">
                Back to the dashboard
              </Button>
            </Group>
          </Stack>
        ) : null}
        {p && (p.status === 'failed' || p.status === 'cancelled') ? (
          <Stack gap="xs">
            <Group gap="xs">
              <IconCircleX color="var(--mantine-color-red-6)" />
              <Title order={3}>The payment did not go through</Title>
            </Group>
            <Text role="alert">{p.failure_message ?? 'The payment was cancelled.'}</Text>
            <Text size="sm" c="dimmed">
              No credits were added and nothing was charged.
            </Text>
            <Group>
              <Button component={Link} to="/pricing?buy=1">
                Try again
              </Button>
            </Group>
          </Stack>
        ) : null}
        {p && (p.status === 'pending' || p.status === 'requires_action') ? <Text>Waiting for the payment to be confirmed...</Text> : null}
      </Card>
    </>
  );
}
