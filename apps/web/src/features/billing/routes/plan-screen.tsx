import { Badge, Button, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconCreditCard } from '@tabler/icons-react';
import { Link } from 'react-router';
import { EmptyState, ErrorState } from '../../../components/state-views';
import { LoadingScreen } from '../../../components/loading-screen';
import { PageHeader } from '../../../components/page-header';
import { formatDate, formatNumber, humanizeKey } from '../../../lib/format';
import { useSessionStore } from '../../../lib/session-store';
import { usePlanStatus } from '../api/plans-api';
import { formatAmount } from '../components/money';
import { PaymentActionAlert } from '../components/payment-action-alert';
import { CancelSubscriptionButton, PlanConfirmModal, ResumeSubscriptionButton } from '../components/plan-actions';
import { useChosenPlanWithCardReturn } from '../components/use-card-setup-return';

function Fact({ label, value }: { label: string; value: string }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600} style={{ letterSpacing: 0.5 }}>
        {label}
      </Text>
      <Text fw={600}>{value}</Text>
    </Stack>
  );
}

/**
 * /account/plan (owners and managers): the plan's name, price, seats, credits, period, renewal or end, and what pays
 * for it. The owner cancels, resumes or changes it; a manager sees it.
 */
export function PlanScreen() {
  const status = usePlanStatus();
  const isOwner = useSessionStore((state) => state.user_role) === 'owner';
  const [chosen, setChosen] = useChosenPlanWithCardReturn();
  const s = status.data;
  const per = s?.plan?.interval === 'annual' ? 'year' : 'month';
  return (
    <>
      <PageHeader title="Plan" description="Your organisation's plan, its renewal and how it is paid." />
      <PlanConfirmModal planId={chosen} returnTo="plan" onClose={() => setChosen(null)} />
      <Stack gap="lg">
        <PaymentActionAlert />
        {status.isPending ? <LoadingScreen minHeight={160} /> : null}
        {status.isError ? <ErrorState error={status.error} onRetry={() => void status.refetch()} /> : null}
        {s && !s.plan ? (
          <Card>
            <EmptyState
              title="You are on the free plan"
              description="Credits you buy never expire. A plan adds credits every period and more member seats."
              action={
                isOwner ? (
                  <Button component={Link} to="/pricing">
                    See plans
                  </Button>
                ) : undefined
              }
            />
          </Card>
        ) : null}
        {s?.plan ? (
          <Card>
            <Group justify="space-between" align="flex-start" mb="md">
              <Stack gap={4}>
                <Group gap="xs">
                  <Title order={2} fz={26}>
                    {s.plan.name}
                  </Title>
                  <Badge variant="light">{humanizeKey(s.plan.interval)}</Badge>
                  {s.status === 'past_due' ? <Badge color="red">Payment due</Badge> : null}
                  {s.cancel_at_period_end ? <Badge color="orange">Cancelled</Badge> : null}
                </Group>
                <Text size="lg">
                  {formatAmount(s.plan.currency, s.plan.price)} per {per}
                </Text>
              </Stack>
              {isOwner ? (
                <Group gap="xs">
                  {s.cancel_at_period_end ? <ResumeSubscriptionButton /> : <CancelSubscriptionButton endsOn={s.renews_on} />}
                  <Button component={Link} to="/pricing" size="xs" variant="default">
                    Change plan
                  </Button>
                </Group>
              ) : null}
            </Group>
            <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="lg">
              <Fact label="Credits" value={`${formatNumber(s.plan.credits)} per ${per}`} />
              <Fact label="Member seats" value={formatNumber(s.plan.seats)} />
              <Fact label="Current period" value={`${formatDate(s.current_period_start)} – ${formatDate(s.current_period_end)}`} />
              {s.cancels_on ? <Fact label="Cancels on" value={formatDate(s.cancels_on)} /> : <Fact label="Renews on" value={formatDate(s.renews_on)} />}
            </SimpleGrid>
            <Group gap="xs" mt="lg">
              <IconCreditCard size={18} />
              <Text size="sm">
                {s.payment_method?.kind === 'paypal'
                  ? 'Paid with PayPal'
                  : s.payment_method
                    ? `Paid with the ${s.payment_method.brand ?? 'card'} card${s.payment_method.last4 ? ` ending in ${s.payment_method.last4}` : ''}`
                    : 'No card saved: the next renewal cannot be charged.'}
              </Text>
              {isOwner ? (
                <Button component={Link} to="/account/billing" size="compact-xs" variant="subtle">
                  Manage cards
                </Button>
              ) : null}
            </Group>
            {s.cancels_on ? (
              <Text size="sm" c="dimmed" mt="sm">
                Cancels on {formatDate(s.cancels_on)}: the plan is not renewed after this period.{isOwner ? ' Resume it to keep it.' : ''}
              </Text>
            ) : null}
            {!isOwner ? (
              <Text size="sm" c="dimmed" mt="sm">
                Only the owner can change or cancel the plan.
              </Text>
            ) : null}
          </Card>
        ) : null}
      </Stack>
    </>
  );
}
