import { useState } from 'react';
import { Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { getErrorMessage } from '../../../lib/api-error';
import { showToast } from '../../../lib/toast';
import { useCancelSubscription, useUpgradePlan } from '../api/payments-api';

/** Subscribes to a plan with the default card; authentication, if the bank asks, continues on the checkout page. */
export function SubscribeButton({ planId, label }: { planId: string; label: string }) {
  const upgrade = useUpgradePlan();
  return (
    <Button
      size="xs"
      mt="sm"
      loading={upgrade.isPending}
      aria-label={`Subscribe to ${label}`}
      onClick={() =>
        upgrade.mutate(planId, {
          onSuccess: (data) => {
            if (data.next_action_url) window.location.assign(data.next_action_url);
            else if (data.payment.status === 'paid') showToast({ title: 'Subscribed', message: `You are now on ${label}.`, kind: 'success' });
            else showToast({ title: 'Payment failed', message: data.payment.failure_message ?? 'The payment did not go through.', kind: 'error' });
          },
          onError: (err) => showToast({ title: 'Could not subscribe', message: getErrorMessage(err), kind: 'error' }),
        })
      }
    >
      Subscribe
    </Button>
  );
}

/** Cancels the subscription at the end of the paid period, with the reason the spec asks for. */
export function CancelSubscriptionButton() {
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const cancel = useCancelSubscription();
  return (
    <>
      <Button size="xs" variant="subtle" color="red" onClick={() => setOpen(true)}>
        Cancel subscription
      </Button>
      <Modal opened={open} onClose={() => setOpen(false)} title="Cancel subscription" centered>
        <Stack>
          <Text size="sm">Your plan stays active until the end of the period you paid for; it is not renewed after that.</Text>
          <Textarea label="Why do you cancel?" value={reason} onChange={(e) => setReason(e.currentTarget.value)} error={cancel.isError ? getErrorMessage(cancel.error) : null} autosize minRows={2} />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setOpen(false)}>
              Keep my plan
            </Button>
            <Button
              color="red"
              loading={cancel.isPending}
              onClick={() =>
                cancel.mutate(reason, {
                  onSuccess: (s) => {
                    setOpen(false);
                    showToast({ title: 'Subscription cancelled', message: `It ends on ${s.current_period_end.slice(0, 10)}.`, kind: 'success' });
                  },
                })
              }
            >
              Cancel subscription
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
