import { Alert, Anchor, Card, Grid, Group, SimpleGrid, Stack, Text, ThemeIcon, Title, UnstyledButton } from '@mantine/core';
import {
  IconAdjustmentsHorizontal,
  IconArrowRight,
  IconCalendar,
  IconCoins,
  IconKey,
  IconMailExclamation,
  IconReceipt,
  IconSunHigh,
  IconUserCircle,
  type Icon,
} from '@tabler/icons-react';
import { Link } from 'react-router';
import { findMenuEntry, isMenuAllowed, type TRole } from '@verilead/contracts';
import { ActivityTypeBadge } from '../../../components/activity-type-badge';
import { EmptyState, ErrorState } from '../../../components/state-views';
import { LoadingScreen } from '../../../components/loading-screen';
import { StatCard } from '../../../components/stat-card';
import { formatCompactNumber, formatDayLabel, formatDateTime, formatLimitUsage, formatNumber } from '../../../lib/format';
import { useSessionStore } from '../../../lib/session-store';
import { useActivities, useCreditsAndLimits } from '../../../lib/user-queries';

type TQuickLink = { label: string; description: string; to: string; icon: Icon; menu?: ['account' | 'settings', string] };

const QUICK_LINKS: TQuickLink[] = [
  { label: 'Credits & transactions', description: 'Balance, limits and ledger', to: '/account/credits', icon: IconReceipt },
  { label: 'Profile', description: 'Name, email, password, timezone', to: '/account/profile', icon: IconUserCircle, menu: ['account', 'profile'] },
  { label: 'API key', description: 'Connect your own systems', to: '/account/api', icon: IconKey, menu: ['account', 'api'] },
  { label: 'Settings', description: 'Low-credit alerts', to: '/settings', icon: IconAdjustmentsHorizontal, menu: ['settings', 'settings'] },
];

function canOpen(link: TQuickLink, role: TRole | undefined): boolean {
  if (!link.menu) return true;
  const entry = findMenuEntry(link.menu[0], link.menu[1]);
  return Boolean(role && entry && isMenuAllowed(entry, role));
}

function greet(hour: number): string {
  if (hour < 12) return 'Good morning';
  if (hour < 18) return 'Good afternoon';
  return 'Good evening';
}

/** `/`: credits balance, limits, recent activity and quick links. */
export function OverviewScreen() {
  const name = useSessionStore((state) => state.name);
  const role = useSessionStore((state) => state.user_role);
  const isEmailVerified = useSessionStore((state) => state.isEmailVerified);
  const email = useSessionStore((state) => state.email);
  const credits = useCreditsAndLimits();
  const activities = useActivities({ page: 1, limit: 25 });
  const recent = activities.data?.items.slice(0, 6) ?? [];

  return (
    <Stack gap="lg">
      <Stack gap={2}>
        <Title order={2} fz={26}>
          {greet(new Date().getHours())}, {name.split(' ')[0]}
        </Title>
        <Text c="dimmed" size="sm">
          Here is where your account stands today.
        </Text>
      </Stack>

      {!isEmailVerified ? (
        <Alert color="orange" variant="light" icon={<IconMailExclamation size={18} />} title="Verify your email">
          We sent a verification link to {email}. Open it to confirm your address.
        </Alert>
      ) : null}

      {credits.isPending ? <LoadingScreen minHeight={120} /> : null}
      {credits.isError ? <ErrorState error={credits.error} onRetry={() => void credits.refetch()} /> : null}
      {credits.data ? (
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="lg">
          <StatCard
            label="Credits balance"
            value={formatNumber(credits.data.credits)}
            icon={<IconCoins size={22} />}
            hint={
              <Anchor component={Link} to="/account/credits" size="xs">
                View transactions
              </Anchor>
            }
          />
          <StatCard
            label="Daily limit"
            value={credits.data.limits.daily.limit === null ? 'Unlimited' : formatCompactNumber(credits.data.limits.daily.remaining ?? 0)}
            icon={<IconSunHigh size={22} />}
            color="orange"
            hint={credits.data.limits.daily.limit === null ? 'No daily cap on your spending' : formatLimitUsage(credits.data.limits.daily)}
          />
          <StatCard
            label="Lifetime limit"
            value={credits.data.limits.life_time.limit === null ? 'Unlimited' : formatCompactNumber(credits.data.limits.life_time.remaining ?? 0)}
            icon={<IconCalendar size={22} />}
            color="grape"
            hint={credits.data.limits.life_time.limit === null ? 'No lifetime cap on your spending' : formatLimitUsage(credits.data.limits.life_time)}
          />
        </SimpleGrid>
      ) : null}

      <Grid gap="lg">
        <Grid.Col span={{ base: 12, lg: 8 }}>
        <Card h="100%">
          <Group justify="space-between" mb="sm">
            <Title order={4} fz={16}>
              Recent activity
            </Title>
            <Anchor component={Link} to="/activities" size="sm">
              View all
            </Anchor>
          </Group>
          {activities.isPending ? <LoadingScreen minHeight={120} /> : null}
          {activities.isError ? <ErrorState error={activities.error} onRetry={() => void activities.refetch()} /> : null}
          {activities.data && recent.length === 0 ? (
            <EmptyState title="No activity yet" description="Your logins, changes and jobs will show up here." />
          ) : null}
          <Stack gap={0}>
            {recent.map((row) => (
              <Group
                key={row.id}
                justify="space-between"
                wrap="nowrap"
                py="sm"
                style={{ borderTop: '1px solid var(--mantine-color-gray-2)' }}
              >
                <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
                  <ActivityTypeBadge type={row.type} />
                  <Text size="sm" truncate>
                    {row.description}
                  </Text>
                </Group>
                <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }} title={formatDateTime(row.created_at)}>
                  {formatDayLabel(row.created_at)}
                </Text>
              </Group>
            ))}
          </Stack>
        </Card>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 4 }}>
        <Card h="100%">
          <Title order={4} fz={16} mb="sm">
            Quick links
          </Title>
          <Stack gap="xs">
            {QUICK_LINKS.filter((link) => canOpen(link, role)).map((link) => (
              <UnstyledButton
                key={link.to}
                component={Link}
                to={link.to}
                p="sm"
                style={{ borderRadius: 10, border: '1px solid var(--mantine-color-gray-2)' }}
              >
                <Group justify="space-between" wrap="nowrap">
                  <Group gap="sm" wrap="nowrap">
                    <ThemeIcon variant="light" radius="md" size={36}>
                      <link.icon size={18} />
                    </ThemeIcon>
                    <Stack gap={0}>
                      <Text size="sm" fw={600}>
                        {link.label}
                      </Text>
                      <Text size="xs" c="dimmed">
                        {link.description}
                      </Text>
                    </Stack>
                  </Group>
                  <IconArrowRight size={16} color="var(--mantine-color-gray-5)" />
                </Group>
              </UnstyledButton>
            ))}
          </Stack>
        </Card>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
