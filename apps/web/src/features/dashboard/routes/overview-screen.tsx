import { Anchor, Card, Grid, Group, Select, SimpleGrid, Stack, Text, ThemeIcon, Title, UnstyledButton } from '@mantine/core';
import { useState } from 'react';
import {
  IconAdjustmentsHorizontal,
  IconArrowRight,
  IconCalendar,
  IconChecks,
  IconCoins,
  IconUserSearch,
  IconKey,
  IconReceipt,
  IconSunHigh,
  IconUserCircle,
  type Icon,
} from '@tabler/icons-react';
import { Link } from 'react-router';
import { DATE_PRESET_LABELS, DATE_PRESETS, findMenuEntry, isMenuAllowed, type TActivityType, type TDashboardData, type TDatePreset, type TRole } from '@verilead/contracts';
import { BillableSplitCard } from '../../../components/billable-split-card';
import { UsageTrendChart } from '../../../components/usage-trend-chart';
import { useDashboard } from '../api/dashboard-api';
import { useShownWidgets, WIDGET_LABELS, WidgetPicker } from './dashboard-widgets';
import { finderFigures, verifierFigures } from './usage-figures';
import { VerifyEmailReminder } from './verify-email-reminder';
import { ActivityTypeBadge } from '../../../components/activity-type-badge';
import { EmptyState, ErrorState } from '../../../components/state-views';
import { LoadingScreen } from '../../../components/loading-screen';
import { StatCard } from '../../../components/stat-card';
import { formatCompactNumber, formatDayLabel, formatDateTime, formatLimitUsage, formatNumber, getDisplayHour } from '../../../lib/format';
import { useSessionStore } from '../../../lib/session-store';
import { useCreditsAndLimits } from '../../../lib/user-queries';

type TQuickLink = { label: string; description: string; to: string; icon: Icon; menu?: ['account' | 'settings', string] };

const QUICK_LINKS: TQuickLink[] = [
  { label: 'Credits & transactions', description: 'Balance, limits and ledger', to: '/account/credits', icon: IconReceipt },
  { label: 'Profile', description: 'Name, email, password, timezone', to: '/account/profile', icon: IconUserCircle, menu: ['account', 'profile'] },
  { label: 'API key', description: 'Connect your own systems', to: '/account/api', icon: IconKey, menu: ['account', 'api'] },
  { label: 'Settings', description: 'Low-credit alerts', to: '/settings', icon: IconAdjustmentsHorizontal, menu: ['settings', 'settings'] },
];

function VerifierFigureCards({ ev }: { ev: NonNullable<TDashboardData['email_verifier']> }) {
  const { verified, deliverability } = verifierFigures(ev);
  return (
    <>
      <StatCard label="Emails verified" value={verified.value} icon={<IconChecks size={22} />} hint={verified.hint} />
      <StatCard label="Deliverability" value={deliverability.value} icon={<IconChecks size={22} />} color="grape" hint={deliverability.hint} />
    </>
  );
}

function FinderFigureCards({ ef }: { ef: NonNullable<TDashboardData['email_finder']> }) {
  const { found, confidence } = finderFigures(ef);
  return (
    <>
      <StatCard label="Emails found" value={found.value} icon={<IconUserSearch size={22} />} color="teal" hint={found.hint} />
      <StatCard label="Finder confidence" value={confidence.value} icon={<IconUserSearch size={22} />} color="orange" hint={confidence.hint} />
    </>
  );
}

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

/** `/`: the dashboard: the widgets the user chose (GET /dashboard?show_widgets), limits and quick links. */
export function OverviewScreen() {
  const name = useSessionStore((state) => state.name);
  const role = useSessionStore((state) => state.user_role);
  const isEmailVerified = useSessionStore((state) => state.isEmailVerified);
  const email = useSessionStore((state) => state.email);
  const credits = useCreditsAndLimits();
  const [widgets, setWidgets] = useShownWidgets();
  const [range, setRange] = useState<TDatePreset>('last_30_days');
  const dashboard = useDashboard(widgets, range);
  const show = new Set(widgets);
  const data = dashboard.data;
  const recent = data?.recent_activity ?? [];

  return (
    <Stack gap="lg">
      <Stack gap={2}>
        <Group justify="space-between" align="flex-end" wrap="wrap">
          <Stack gap={2}>
            <Title order={2} fz={26}>
              {greet(getDisplayHour())}, {name.split(' ')[0]}
            </Title>
            <Text c="dimmed" size="sm">
              Here is where your account stands today.
            </Text>
          </Stack>
          <Group gap="sm">
            <Select
              aria-label="Dashboard period"
              data={DATE_PRESETS.map((p) => ({ value: p, label: DATE_PRESET_LABELS[p] }))}
              value={range}
              onChange={(v) => v && setRange(v as TDatePreset)}
              allowDeselect={false}
              w={170}
            />
            <WidgetPicker shown={widgets} onChange={setWidgets} />
          </Group>
        </Group>
      </Stack>

      {!isEmailVerified ? <VerifyEmailReminder email={email} /> : null}

      {show.has('credits') && credits.isPending ? <LoadingScreen minHeight={120} /> : null}
      {show.has('credits') && credits.isError ? <ErrorState error={credits.error} onRetry={() => void credits.refetch()} /> : null}
      {show.has('credits') && credits.data ? (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="lg" role="region" aria-label={WIDGET_LABELS.credits}>
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
          <StatCard
            label="Used in period"
            value={data?.credits ? formatNumber(data.credits.used_in_range) : '…'}
            icon={<IconReceipt size={22} />}
            color="teal"
            hint={`${DATE_PRESET_LABELS[range]}, ${data?.scope === 'organisation' ? 'whole organisation' : 'your own usage'}`}
          />
        </SimpleGrid>
      ) : null}

      {widgets.length === 0 ? <EmptyState title="No widgets shown" description="Choose what to show with the Widgets button." /> : null}
      {dashboard.isError ? <ErrorState error={dashboard.error} onRetry={() => void dashboard.refetch()} /> : null}
      {widgets.length > 0 && dashboard.isPending ? <LoadingScreen minHeight={160} /> : null}
      {data && (show.has('usage_trend') || show.has('usage_split')) ? (
        <Grid gap="lg">
          {show.has('usage_trend') && data.usage_trend ? (
            <Grid.Col span={{ base: 12, lg: show.has('usage_split') ? 8 : 12 }} role="region" aria-label={WIDGET_LABELS.usage_trend}>
              <UsageTrendChart points={data.usage_trend} fileName="dashboard-credits-over-time.csv" />
            </Grid.Col>
          ) : null}
          {show.has('usage_split') && data.usage_split ? (
            <Grid.Col span={{ base: 12, lg: show.has('usage_trend') ? 4 : 12 }} role="region" aria-label={WIDGET_LABELS.usage_split}>
              <BillableSplitCard split={data.usage_split} fileName="dashboard-billable-split.csv" />
            </Grid.Col>
          ) : null}
        </Grid>
      ) : null}
      {data && (show.has('email_verifier') || show.has('email_finder')) ? (
        // Each widget is a region (named as in the Widgets picker): two figures side by side, the two widgets in one row on wide screens.
        <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="lg">
          {data.email_verifier ? (
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg" role="region" aria-label={WIDGET_LABELS.email_verifier}>
              <VerifierFigureCards ev={data.email_verifier} />
            </SimpleGrid>
          ) : null}
          {data.email_finder ? (
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg" role="region" aria-label={WIDGET_LABELS.email_finder}>
              <FinderFigureCards ef={data.email_finder} />
            </SimpleGrid>
          ) : null}
        </SimpleGrid>
      ) : null}

      <Grid gap="lg">
        {show.has('recent_activity') ? (
        <Grid.Col span={{ base: 12, lg: 8 }} role="region" aria-label={WIDGET_LABELS.recent_activity}>
        <Card h="100%">
          <Group justify="space-between" mb="sm">
            <Title order={4} fz={16}>
              Recent activity
            </Title>
            <Anchor component={Link} to="/activities" size="sm">
              View all
            </Anchor>
          </Group>
          {data && recent.length === 0 ? (
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
                  <ActivityTypeBadge type={row.type as TActivityType} />
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
        ) : null}
        <Grid.Col span={{ base: 12, lg: show.has('recent_activity') ? 4 : 12 }}>
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
