import type { ReactNode } from 'react';
import { Badge, Card, Group, Stack, Text, Title } from '@mantine/core';
import { IconClockEdit } from '@tabler/icons-react';
import { formatDateTime } from '../../../lib/format';

/** When the organisation default was last changed, or that it still has the product defaults. */
export function LastModifiedNote({ value }: { value: string | null }) {
  return (
    <Group gap={6} wrap="nowrap">
      <IconClockEdit size={14} color="var(--mantine-color-dimmed)" />
      <Text size="xs" c="dimmed" data-testid="setting-last-modified">
        {value ? `Last modified on ${formatDateTime(value)}` : 'Never changed: the product defaults apply'}
      </Text>
    </Group>
  );
}

/** A card holding one group of organisation defaults. */
export function SettingsPanel({
  title,
  description,
  lastModified,
  children,
}: {
  title: string;
  description: string;
  lastModified?: string | null;
  children: ReactNode;
}) {
  return (
    <Card>
      <Stack gap="md">
        <Group justify="space-between" align="flex-start" wrap="wrap" gap="xs">
          <Stack gap={2} maw={520}>
            <Group gap="xs">
              <Title order={4} fz={16}>
                {title}
              </Title>
              <Badge size="xs" variant="light" color="gray">
                Organisation default
              </Badge>
            </Group>
            <Text size="sm" c="dimmed">
              {description}
            </Text>
          </Stack>
          {lastModified !== undefined ? <LastModifiedNote value={lastModified} /> : null}
        </Group>
        {children}
      </Stack>
    </Card>
  );
}
