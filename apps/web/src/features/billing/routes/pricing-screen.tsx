import { useState } from 'react';
import { Badge, Button, Card, Group, SegmentedControl, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { IconCoins, IconPlus, IconReceipt } from '@tabler/icons-react';
import { Link, useSearchParams } from 'react-router';
import type { TCurrency, TPlan } from '@verilead/contracts';
import { EmptyState, ErrorState } from '../../../components/state-views';
import { LoadingScreen } from '../../../components/loading-screen';
import { PageHeader } from '../../../components/page-header';
import { StatCard } from '../../../components/stat-card';
import { formatDate, formatNumber, humanizeKey } from '../../../lib/format';
import { useCreditsAndLimits, useCurrentPlan } from '../../../lib/user-queries';
import { useBuyCreditsInfo, usePlans, usePriceSlabs } from '../api/payments-api';
import { BuyCreditsModal } from '../components/buy-credits-modal';
import { describeAnnualSaving } from '../components/annual-saving';
import { formatAmount, formatUnitPrice } from '../components/money';
import { PaymentActionAlert } from '../components/payment-action-alert';
import { PaymentModeNotice } from '../components/payment-mode-notice';
import { CancelSubscriptionButton, PlanCardAction, PlanConfirmModal, ResumeSubscriptionButton } from '../components/plan-actions';
import { useChosenPlanWithCardReturn } from '../components/use-card-setup-return';

const INTERVAL_ORDER: Record<TPlan['interval'], number> = { monthly: 0, annual: 1, one_time: 2 };
const PRICE_PERIOD: Record<TPlan['interval'], string> = { monthly: ' / month', annual: ' / year', one_time: ' once' };

/** Plans as a buyer compares them: monthly, then annual, then one-time purchases, each cheapest first. */
function sortPlans(plans: readonly TPlan[]): TPlan[] {
  return [...plans].sort((a, b) => INTERVAL_ORDER[a.interval] - INTERVAL_ORDER[b.interval] || a.price - b.price);
}

/** /pricing: the balance, the price slabs per currency, plans, and the buy-credits modal (opened by ?buy=1 from the header). */
export function PricingScreen() {
  const credits = useCreditsAndLimits();
  const plan = useCurrentPlan();
  const [params, setParams] = useSearchParams();
  const [currency, setCurrency] = useState<TCurrency>('USD');
  const slabs = usePriceSlabs(currency);
  const plans = usePlans(currency);
  const payments = useBuyCreditsInfo();
  const [chosen, setChosen] = useChosenPlanWithCardReturn();
  const [oneTimeCredits, setOneTimeCredits] = useState<number | null>(null);
  const buyOpen = params.get('buy') === '1' || oneTimeCredits !== null;
  const setBuyOpen = (open: boolean) =>
    setParams(
      (p) => {
        if (open) p.set('buy', '1');
        else p.delete('buy');
        return p;
      },
      { replace: true },
    );

  return (
    <>
      <PageHeader
        title="Pricing"
        description="Credits power every verification, lookup and enrichment."
        actions={
          <Button leftSection={<IconPlus size={16} />} onClick={() => setBuyOpen(true)}>
            Buy credits
          </Button>
        }
      />
      <BuyCreditsModal
        key={oneTimeCredits ?? 'buy'}
        opened={buyOpen}
        initialCredits={oneTimeCredits ?? undefined}
        onClose={() => {
          setOneTimeCredits(null);
          setBuyOpen(false);
        }}
      />
      <PlanConfirmModal planId={chosen} returnTo="pricing" onClose={() => setChosen(null)} />
      <Stack gap="lg">
        <PaymentModeNotice info={payments.data} />
        <PaymentActionAlert />
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
          {credits.isPending ? <LoadingScreen minHeight={120} /> : null}
          {credits.isError ? <ErrorState error={credits.error} onRetry={() => void credits.refetch()} /> : null}
          {credits.data ? (
            <StatCard
              label="Credits balance"
              value={formatNumber(credits.data.credits)}
              icon={<IconCoins size={22} />}
              hint={`Organisation balance: ${formatNumber(credits.data.org_credits)}`}
            />
          ) : null}
          <Card>
            {plan.isPending ? <LoadingScreen minHeight={100} /> : null}
            {plan.isError ? <ErrorState error={plan.error} onRetry={() => void plan.refetch()} /> : null}
            {plan.data ? (
              <Stack gap={6}>
                <Group justify="space-between">
                  <Text size="xs" c="dimmed" tt="uppercase" fw={600} style={{ letterSpacing: 0.5 }}>
                    Current plan
                  </Text>
                  <Badge variant="light">{humanizeKey(plan.data.interval)}</Badge>
                </Group>
                <Title order={3} fz={24}>
                  {plan.data.name}
                </Title>
                <Text size="sm" c="dimmed">
                  {plan.data.price > 0 ? `${formatAmount(plan.data.currency, plan.data.price)} per ${plan.data.interval === 'annual' ? 'year' : 'month'} · ` : ''}
                  {formatNumber(plan.data.credits)} credits · {formatNumber(plan.data.seats ?? plan.data.user_create_limit)} member seat{(plan.data.seats ?? plan.data.user_create_limit) === 1 ? '' : 's'}
                  {plan.data.renews_on ? ` · renews ${formatDate(plan.data.renews_on)}` : ''}
                </Text>
                {plan.data.ends_on ? (
                  <Text size="sm" c="orange.8" fw={600}>
                    Cancels on {formatDate(plan.data.ends_on)}
                  </Text>
                ) : null}
                {plan.data.interval === 'monthly' || plan.data.interval === 'annual' ? (
                  <Group>
                    {plan.data.cancel_at_period_end ? <ResumeSubscriptionButton /> : <CancelSubscriptionButton endsOn={plan.data.renews_on} />}
                    <Button component={Link} to="/account/plan" size="xs" variant="default">
                      Plan details
                    </Button>
                  </Group>
                ) : null}
              </Stack>
            ) : null}
          </Card>
        </SimpleGrid>

        <Card>
          <Group justify="space-between" mb="sm">
            <Title order={4}>Price per credit</Title>
            <SegmentedControl
              aria-label="Currency"
              size="xs"
              value={currency}
              onChange={(v) => setCurrency(v as TCurrency)}
              data={['USD', 'INR']}
            />
          </Group>
          {slabs.isPending ? <Text size="sm">Loading...</Text> : null}
          {slabs.isError ? <ErrorState error={slabs.error} onRetry={() => void slabs.refetch()} /> : null}
          {slabs.data && slabs.data.slabs.length === 0 ? <EmptyState title="No prices set" description="The operator has not set prices for this currency yet." /> : null}
          {slabs.data && slabs.data.slabs.length > 0 ? (
            <Table striped aria-label="Price slabs">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Credits</Table.Th>
                  <Table.Th>Price per credit</Table.Th>
                  <Table.Th>Kind</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {slabs.data.slabs.map((s) => (
                  <Table.Tr key={s.id}>
                    <Table.Td>
                      {formatNumber(s.min_credits)}
                      {s.max_credits ? ` – ${formatNumber(s.max_credits)}` : ' and more'}
                    </Table.Td>
                    <Table.Td data-testid="slab-unit-price">{formatUnitPrice(currency, s.unit_price)}</Table.Td>
                    <Table.Td>
                      <Badge variant="light" color={s.kind === 'standard' ? 'gray' : s.kind === 'discount' ? 'indigo' : 'teal'}>
                        {s.kind}
                        {s.kind === 'bonus' ? ` +${s.bonus_percent}%` : ''}
                      </Badge>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          ) : null}
          <Text size="xs" c="dimmed" mt="sm">
            {currency === 'INR' ? '18% GST is added to INR prices. ' : ''}
            {plans.data ? describeAnnualSaving(plans.data.items) : null}
          </Text>
        </Card>

        <Card>
          <Title order={4} mb="sm">
            Plans
          </Title>
          {plans.isPending ? <Text size="sm">Loading...</Text> : null}
          {plans.isError ? <ErrorState error={plans.error} onRetry={() => void plans.refetch()} /> : null}
          {plans.data && plans.data.items.length === 0 ? <EmptyState title="No plans on sale" /> : null}
          {plans.data && plans.data.items.length > 0 ? (
            <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }}>
              {sortPlans(plans.data.items).map((p) => (
                <Card key={p.id} withBorder data-testid="plan-card">
                  <Text fw={600}>{p.name}</Text>
                  <Badge variant="light" size="sm">
                    {humanizeKey(p.interval)}
                  </Badge>
                  <Title order={3} mt={6} data-testid="plan-price">
                    {formatAmount(p.currency, p.price)}
                    <Text span size="sm" c="dimmed" fw={500}>
                      {PRICE_PERIOD[p.interval]}
                    </Text>
                  </Title>
                  <Text size="sm" c="dimmed">
                    {formatNumber(p.credits)} credits · {p.seats} seat{p.seats === 1 ? '' : 's'}
                  </Text>
                  {p.interval === 'one_time' ? (
                    <Button size="xs" mt="sm" variant="light" aria-label={`Buy ${p.name} once`} onClick={() => setOneTimeCredits(p.credits)}>
                      Buy once
                    </Button>
                  ) : (
                    <PlanCardAction
                      plan={p}
                      currentPlanId={plan.data && (plan.data.interval === 'monthly' || plan.data.interval === 'annual') ? plan.data.plan_id : null}
                      cancelling={Boolean(plan.data?.cancel_at_period_end)}
                      onChoose={setChosen}
                    />
                  )}
                </Card>
              ))}
            </SimpleGrid>
          ) : null}
        </Card>

        <Group>
          <Button component={Link} to="/account/credits" variant="default" leftSection={<IconReceipt size={16} />}>
            View credit transactions
          </Button>
          <Button component={Link} to="/account/billing" variant="default">
            Invoices and cards
          </Button>
        </Group>
      </Stack>
    </>
  );
}
