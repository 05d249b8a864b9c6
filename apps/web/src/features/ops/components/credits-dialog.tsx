import { useState } from 'react';
import { Alert, Button, Group, Modal, NumberInput, SegmentedControl, Stack, Text, Textarea } from '@mantine/core';
import { OPERATOR_ADJUSTMENT_LABEL } from '@verilead/contracts';
import { getErrorMessage } from '../../../lib/api-error';
import { formatNumber } from '../../../lib/format';
import { showToast } from '../../../lib/toast';
import { useOpsCreditAdjustment } from '../api/ops-api';
import { resultingBalance } from '../utils/credits';
import { FormAlert } from './ops-parts';

function newKey(): string {
  return typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : `${Date.now()}-${Math.random().toString(36).slice(2)}`;
}

/**
 * Grant or remove credits: the form, then a confirmation with the amount and the resulting balance. One idempotency
 * key per opening of the dialog, so a double click or a retried request never adjusts twice.
 */
export function CreditsDialog({ orgId, orgName, balance, opened, onClose }: { orgId: string; orgName: string; balance: number; opened: boolean; onClose: () => void }) {
  const adjust = useOpsCreditAdjustment(orgId);
  const [direction, setDirection] = useState<'grant' | 'remove'>('grant');
  const [amount, setAmount] = useState<number | ''>('');
  const [reason, setReason] = useState('');
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [key, setKey] = useState(newKey);
  const after = resultingBalance(balance, direction, typeof amount === 'number' ? amount : 0);
  const formError =
    amount === '' || amount < 1 ? 'Enter at least 1 credit.' : reason.trim().length < 3 ? 'Give the reason (the customer sees it in their ledger).' : after < 0 ? `At most ${formatNumber(balance)} can be removed (the balance).` : null;

  const close = () => {
    setDirection('grant');
    setAmount('');
    setReason('');
    setConfirming(false);
    setError(null);
    setKey(newKey());
    onClose();
  };
  const submit = async () => {
    setError(null);
    try {
      const done = await adjust.mutateAsync({ direction, amount: Number(amount), reason: reason.trim(), idempotency_key: key });
      showToast({ title: 'Credits adjusted', message: `${orgName} now has ${formatNumber(done.balance_after)} credits.`, kind: 'success' });
      close();
    } catch (cause) {
      setError(getErrorMessage(cause));
      setConfirming(false);
    }
  };

  return (
    <Modal opened={opened} onClose={close} title={`Adjust credits of ${orgName}`} centered>
      <Stack>
        <FormAlert message={error} />
        {!confirming ? (
          <>
            <SegmentedControl
              aria-label="Grant or remove"
              value={direction}
              onChange={(v) => setDirection(v as 'grant' | 'remove')}
              data={[
                { value: 'grant', label: 'Grant' },
                { value: 'remove', label: 'Remove' },
              ]}
            />
            <NumberInput label="Credits" min={1} max={10_000_000} allowDecimal={false} thousandSeparator="," value={amount} onChange={(v) => setAmount(typeof v === 'number' ? v : '')} />
            <Textarea label="Reason" description={`The customer's ledger shows “${OPERATOR_ADJUSTMENT_LABEL}: <reason>”.`} value={reason} onChange={(e) => setReason(e.currentTarget.value)} maxLength={300} minRows={2} />
            <Text size="sm" c="dimmed">
              Balance now {formatNumber(balance)}; after: {after < 0 ? '—' : formatNumber(after)}
            </Text>
            {formError && amount !== '' ? (
              <Text size="sm" c="red">
                {formError}
              </Text>
            ) : null}
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                Cancel
              </Button>
              <Button disabled={formError !== null} onClick={() => setConfirming(true)}>
                Review
              </Button>
            </Group>
          </>
        ) : (
          <>
            <Alert color={direction === 'grant' ? 'indigo' : 'orange'} title="Please confirm">
              {direction === 'grant' ? 'Grant' : 'Remove'} {formatNumber(Number(amount))} credits {direction === 'grant' ? 'to' : 'from'} {orgName}. The balance goes from {formatNumber(balance)} to{' '}
              <b>{formatNumber(after)}</b>. Reason: “{reason.trim()}”.
            </Alert>
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setConfirming(false)}>
                Back
              </Button>
              <Button color={direction === 'grant' ? 'indigo' : 'orange'} loading={adjust.isPending} onClick={() => void submit()}>
                {direction === 'grant' ? 'Grant' : 'Remove'} {formatNumber(Number(amount))} credits
              </Button>
            </Group>
          </>
        )}
      </Stack>
    </Modal>
  );
}
