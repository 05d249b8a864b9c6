import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { IconShieldLock } from '@tabler/icons-react';
import { usePaymentList } from '../api/payments-api';
import { formatAmount } from './money';

/**
 * The payments waiting for the payer's bank: a subscription renewal charged to a card that asks for authentication.
 * Each links to the provider's page where the owner confirms it (the same link the e-mail sends). Shows nothing otherwise.
 */
export function PaymentActionAlert() {
  const pending = usePaymentList('invoice/pending_list', 1, 25);
  const waiting = (pending.data?.items ?? []).filter((p) => p.status === 'requires_action' && p.action_url);
  if (waiting.length === 0) return null;
  return (
    <Stack gap="xs">
      {waiting.map((p) => (
        <Alert key={p.id} color="orange" icon={<IconShieldLock size={18} />} title="Your bank asks you to confirm a payment">
          <Group justify="space-between" wrap="nowrap">
            <Text size="sm">
              The {p.kind === 'plan' ? 'subscription renewal' : 'payment'} of {formatAmount(p.currency, p.total)} ({p.number}) waits for your confirmation. Its credits are added once you confirm it.
            </Text>
            <Button component="a" href={p.action_url ?? undefined} size="xs" color="orange">
              Confirm payment
            </Button>
          </Group>
        </Alert>
      ))}
    </Stack>
  );
}
