import type { ReactNode } from 'react';
import { Anchor, Breadcrumbs, Card, Grid, Group, Progress, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { formatNumber } from '../lib/format';

/** One labelled count of an uploaded list (rows, unique, remaining…). */
export function ListCount({ label, value, testId }: { label: string; value: number; testId: string }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text fw={700} fz={20} data-testid={testId}>
        {formatNumber(value)}
      </Text>
    </Stack>
  );
}

/** Breadcrumbs back to the lists, the list's name with its state badge and details, and the list's actions. */
export function ListDetailHeader({ listsPath, name, badge, actions, children }: { listsPath: string; name: string; badge: ReactNode; actions: ReactNode; children: ReactNode }) {
  return (
    <>
      <Breadcrumbs mb="xs">
        <Anchor component={Link} to={listsPath} size="sm">
          Lists
        </Anchor>
        <Text size="sm" c="dimmed">
          {name}
        </Text>
      </Breadcrumbs>
      <Group justify="space-between" align="flex-end" mb="lg" wrap="wrap" gap="md">
        <Stack gap={4}>
          <Group gap="sm">
            <Title order={2} fz={26}>
              {name}
            </Title>
            {badge}
          </Group>
          {children}
        </Stack>
        <Group gap="sm">{actions}</Group>
      </Group>
    </>
  );
}

/** The progress card of a bulk job: its title, the percentage, the bar (orange once cancelled) and a summary line. */
export function ListJobProgressCard({
  title,
  value,
  running,
  cancelled,
  percentTestId,
  progressLabel,
  summary,
}: {
  title: string;
  value: number;
  running: boolean;
  cancelled: boolean;
  percentTestId: string;
  progressLabel: string;
  summary: ReactNode;
}) {
  return (
    <Card padding="lg">
      <Group justify="space-between" mb="xs">
        <Text fw={600}>{title}</Text>
        <Text fw={700} data-testid={percentTestId}>
          {value}%
        </Text>
      </Group>
      <Progress value={value} size="xl" radius="xl" color={cancelled ? 'orange' : 'teal'} striped={running} animated={running} aria-label={progressLabel} />
      <Text size="sm" c="dimmed" mt="xs">
        {summary}
      </Text>
    </Card>
  );
}

/** The stat cards beside the result chart of a list. */
export function ListStatsRow({ cards, chart }: { cards: ReactNode; chart: ReactNode }) {
  return (
    <Grid gap="lg">
      <Grid.Col span={{ base: 12, lg: 8 }}>{cards}</Grid.Col>
      <Grid.Col span={{ base: 12, lg: 4 }}>{chart}</Grid.Col>
    </Grid>
  );
}
