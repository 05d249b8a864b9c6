import { Alert, Badge, Button, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconCoins, IconInfoCircle, IconReceipt } from '@tabler/icons-react';
import { Link } from 'react-router';
import { ErrorState } from '../../../components/state-views';
import { LoadingScreen } from '../../../components/loading-screen';
import { PageHeader } from '../../../components/page-header';
import { StatCard } from '../../../components/stat-card';
import { formatDate, formatNumber, humanizeKey } from '../../../lib/format';
import { useSessionStore } from '../../../lib/session-store';
import { useCreditsAndLimits, useCurrentPlan } from '../../../lib/user-queries';

/** /pricing: the balance and current plan; buying credits arrives with billing. */
export function PricingScreen() {
  const credits = useCreditsAndLimits();
  const plan = useCurrentPlan();
  const isOwner = useSessionStore((state) => state.user_role === 'owner');

  return (
    <>
      <PageHeader title="Pricing" description="Credits power every verification, lookup and enrichment." />
      <Stack gap="lg">
        <Alert color="indigo" variant="light" icon={<IconInfoCircle size={18} />} title="Purchasing credits arrives with billing">
          Online purchase of credit packs and plans is not available in this version yet.{' '}
          {isOwner
            ? 'To add credits now, ask the administrator of this Verilead installation.'
            : 'To get more credits, ask the owner of your organisation.'}
        </Alert>
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
                  {formatNumber(plan.data.credits)} credits · {formatNumber(plan.data.user_create_limit)} member seats
                  {plan.data.renews_on ? ` · renews ${formatDate(plan.data.renews_on)}` : ''}
                </Text>
              </Stack>
            ) : null}
          </Card>
        </SimpleGrid>
        <Group>
          <Button component={Link} to="/account/credits" variant="default" leftSection={<IconReceipt size={16} />}>
            View credit transactions
          </Button>
        </Group>
      </Stack>
    </>
  );
}
