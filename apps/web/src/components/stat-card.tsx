import type { ReactNode } from 'react';
import { Card, Group, Stack, Text, ThemeIcon } from '@mantine/core';

/** A figure with its label, an icon and an optional hint line. */
export function StatCard({
  label,
  value,
  hint,
  icon,
  color = 'indigo',
}: {
  label: string;
  value: ReactNode;
  hint?: ReactNode;
  icon: ReactNode;
  color?: string;
}) {
  return (
    <Card padding="lg" role="group" aria-label={label}>
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <Stack gap={4}>
          <Text size="xs" c="dimmed" tt="uppercase" fw={600} style={{ letterSpacing: 0.5 }}>
            {label}
          </Text>
          <Text fz={28} fw={700} lh={1.1} data-testid="stat-value">
            {value}
          </Text>
          {hint ? (
            <Text size="xs" c="dimmed" data-testid="stat-hint">
              {hint}
            </Text>
          ) : null}
        </Stack>
        <ThemeIcon variant="light" color={color} size={44} radius="md">
          {icon}
        </ThemeIcon>
      </Group>
    </Card>
  );
}
