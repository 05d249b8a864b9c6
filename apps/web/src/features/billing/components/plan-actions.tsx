import { useState } from 'react';
import { Alert, Button, Group, Loader, Modal, Stack, Table, Text, Textarea } from '@mantine/core';
import type { TPlan } from '@verilead/contracts';
import { getErrorMessage } from '../../../lib/api-error';
import { formatDate, formatNumber, humanizeKey } from '../../../lib/format';
import { showToast } from '../../../lib/toast';
import { useCancelSubscription, useStartSetupIntent, useUpgradePlan } from '../api/payments-api';
import { usePlanPreview, useResumeSubscription } from '../api/plans-api';
import { formatAmount } from './money';

const CHANGE_WORDS = { subscribe: 'Subscribe', upgrade: 'Upgrade', downgrade: 'Downgrade', resume: 'Resume' } as const;

/**
 * The confirmation shown before a plan is charged: the plan, what is charged today (the unused time of the current
 * plan credited), the credits granted and the renewal day, and the card charged. Without a saved card it offers card
 * entry on the checkout page, which comes back here (`subscribe=<plan>`) to confirm.
 */
export function PlanConfirmModal({ planId, returnTo, onClose }: { planId: string | null; returnTo: 'pricing' | 'plan'; onClose: () => void }) {
  const preview = usePlanPreview(planId);
  const upgrade = useUpgradePlan();
  const setup = useStartSetupIntent();
  const p = preview.data;
  const title = p ? `${CHANGE_WORDS[p.change]}: ${p.plan.name} (${humanizeKey(p.plan.interval)})` : 'Confirm your plan';
  const confirm = () => {
    if (!p || !planId) return;
    upgrade.mutate(
      { planId, expectedAmount: p.amount_due, prorationDate: p.proration_date },
      {
        onSuccess: (data) => {
          if (data.next_action_url) {
            window.location.assign(data.next_action_url);
            return;
          }
          if (data.payment.status === 'paid') {
            onClose();
            showToast({ title: 'Plan changed', message: `You are now on ${p.plan.name}. ${formatAmount(p.currency, data.payment.total)} charged.`, kind: 'success' });
          } else showToast({ title: 'Payment failed', message: data.payment.failure_message ?? 'The payment did not go through.', kind: 'error' });
        },
        onError: () => void preview.refetch(),
      },
    );
  };
  return (
    <Modal opened={Boolean(planId)} onClose={onClose} title={title} centered size="lg">
      {preview.isPending ? (
        <Group justify="center" py="lg">
          <Loader size="sm" />
          <Text size="sm">Working out what this costs today…</Text>
        </Group>
      ) : null}
      {preview.isError ? (
        <Alert color="red" role="alert">
          {getErrorMessage(preview.error)}
        </Alert>
      ) : null}
      {p ? (
        <Stack gap="sm">
          {p.lines.length > 0 ? (
            <Table aria-label="Charge today">
              <Table.Tbody>
                {p.lines.map((l, i) => (
                  <Table.Tr key={i}>
                    <Table.Td>{l.description}</Table.Td>
                    <Table.Td ta="right">{formatAmount(p.currency, l.amount)}</Table.Td>
                  </Table.Tr>
                ))}
                {p.balance_applied > 0 ? (
                  <Table.Tr>
                    <Table.Td>Credit from earlier changes</Table.Td>
                    <Table.Td ta="right">-{formatAmount(p.currency, p.balance_applied)}</Table.Td>
                  </Table.Tr>
                ) : null}
              </Table.Tbody>
            </Table>
          ) : null}
          <Group justify="space-between" wrap="nowrap">
            <Text fw={600}>Charged today</Text>
            <Text fw={700} fz="xl" data-testid="amount-due">
              {formatAmount(p.currency, p.amount_due)}
            </Text>
          </Group>
          {p.credit_carried > 0 ? <Text size="sm">{formatAmount(p.currency, p.credit_carried)} is kept as credit for your next invoices.</Text> : null}
          <Text size="sm">
            {p.change === 'resume'
              ? `Your plan continues: nothing is charged now; it renews on ${formatDate(p.renews_on)}.`
              : `${formatNumber(p.credits_granted)} credits are added once paid. The plan renews on ${formatDate(p.renews_on)} at ${formatAmount(p.currency, p.plan.price)} per ${p.plan.interval === 'annual' ? 'year' : 'month'}.`}
          </Text>
          {upgrade.isError ? (
            <Alert color="red" role="alert">
              {getErrorMessage(upgrade.error)}
            </Alert>
          ) : null}
          {p.card || p.amount_due === 0 ? (
            <>
              {p.card ? <Text size="sm" c="dimmed">{`Charged to your ${p.card.brand} card ending in ${p.card.last4}.`}</Text> : null}
              <Group justify="flex-end">
                <Button variant="default" onClick={onClose}>
                  Not now
                </Button>
                <Button loading={upgrade.isPending} onClick={confirm}>
                  {p.amount_due > 0 ? `Pay ${formatAmount(p.currency, p.amount_due)}` : `Confirm ${CHANGE_WORDS[p.change].toLowerCase()}`}
                </Button>
              </Group>
            </>
          ) : (
            <>
              <Alert color="blue">No card is saved yet. Enter a card on the secure checkout page: it is saved for this plan&apos;s renewals, and you come back here to confirm the charge.</Alert>
              {setup.isError ? (
                <Alert color="red" role="alert">
                  {getErrorMessage(setup.error)}
                </Alert>
              ) : null}
              <Group justify="flex-end">
                <Button variant="default" onClick={onClose}>
                  Not now
                </Button>
                <Button loading={setup.isPending} onClick={() => setup.mutate({ return_to: returnTo, plan_id: planId ?? undefined }, { onSuccess: (d) => window.location.assign(d.checkout_url) })}>
                  Enter a card
                </Button>
              </Group>
            </>
          )}
        </Stack>
      ) : null}
    </Modal>
  );
}

/** A plan card's action: "Current plan" on the plan subscribed to, "Resume" when it is set to end, else "Subscribe" / "Switch". */
export function PlanCardAction({ plan, currentPlanId, cancelling, onChoose }: { plan: TPlan; currentPlanId: string | null; cancelling: boolean; onChoose: (id: string) => void }) {
  const label = `${plan.name} (${humanizeKey(plan.interval)})`;
  if (plan.id === currentPlanId && !cancelling) {
    return (
      <Button size="xs" mt="sm" variant="light" disabled aria-label={`${label} is your current plan`}>
        Current plan
      </Button>
    );
  }
  const word = plan.id === currentPlanId ? 'Resume' : currentPlanId ? 'Switch' : 'Subscribe';
  return (
    <Button size="xs" mt="sm" aria-label={`${word} ${label}`} onClick={() => onChoose(plan.id)}>
      {word}
    </Button>
  );
}

/** Resumes a plan set to end at the period end. */
export function ResumeSubscriptionButton() {
  const resume = useResumeSubscription();
  return (
    <Button
      size="xs"
      variant="light"
      loading={resume.isPending}
      onClick={() =>
        resume.mutate(undefined, {
          onSuccess: (s) => showToast({ title: 'Subscription resumed', message: `It renews on ${formatDate(s.current_period_end)}.`, kind: 'success' }),
          onError: (err) => showToast({ title: 'Could not resume', message: getErrorMessage(err), kind: 'error' }),
        })
      }
    >
      Resume subscription
    </Button>
  );
}

/** Cancels the subscription at the end of the paid period, with the reason the spec asks for. */
export function CancelSubscriptionButton({ endsOn }: { endsOn: string | null }) {
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
          <Text size="sm">Your plan stays active until {endsOn ? formatDate(endsOn) : 'the end of the period you paid for'}; it is not renewed after that. You can resume it until then.</Text>
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
                    showToast({ title: 'Subscription cancelled', message: `It ends on ${formatDate(s.current_period_end)}.`, kind: 'success' });
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
