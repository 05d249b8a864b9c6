import type { ReactNode } from 'react';
import { Card, Group, Stack, Text, ThemeIcon } from '@mantine/core';

/** A figure with its label, an icon and an optional hint line; as tall as its grid row, so a row's cards line up. */
export function StatCard({
  label,
  value,
  hint,
  icon,
  color = 'indigo',
  iconFrom,
}: {
  label: string;
  value: ReactNode;
  hint?: ReactNode;
  icon: ReactNode;
  color?: string;
  /** Shows the icon only from this breakpoint up (cards two to a row on a phone have no room for it). */
  iconFrom?: 'xs';
}) {
  return (
    <Card padding="lg" role="group" aria-label={label} h="100%">
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <Stack gap={4}>
          <Text size="xs" c="dimmed" tt="uppercase" fw={600} style={{ letterSpacing: 0.5 }}>
            {label}
          </Text>
          <Text fz={iconFrom ? { base: 22, xs: 28 } : 28} fw={700} lh={1.1} data-testid="stat-value" style={{ overflowWrap: 'anywhere' }}>
            {value}
          </Text>
          {hint ? (
            <Text size="xs" c="dimmed" data-testid="stat-hint">
              {hint}
            </Text>
          ) : null}
        </Stack>
        <ThemeIcon variant="light" color={color} size={44} radius="md" visibleFrom={iconFrom} style={{ flexShrink: 0 }}>
          {icon}
        </ThemeIcon>
      </Group>
    </Card>
  );
}
