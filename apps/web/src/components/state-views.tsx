import type { ReactNode } from 'react';
import { Alert, Button, Center, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconAlertTriangle, IconInbox } from '@tabler/icons-react';
import { getErrorMessage } from '../lib/api-error';

/** Failure state with the server's message and an optional retry. */
export function ErrorState({ error, onRetry, title = 'Could not load this' }: { error: unknown; onRetry?: () => void; title?: string }) {
  return (
    <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} title={title} role="alert">
      <Stack gap="xs" align="flex-start">
        <Text size="sm">{getErrorMessage(error)}</Text>
        {onRetry ? (
          <Button size="xs" variant="white" color="red" onClick={onRetry}>
            Try again
          </Button>
        ) : null}
      </Stack>
    </Alert>
  );
}

/** Empty state: an icon, a title and a hint. */
export function EmptyState({ title, description, action }: { title: string; description?: string; action?: ReactNode }) {
  return (
    <Center py="xl">
      <Stack align="center" gap={6} maw={360} ta="center">
        <ThemeIcon size={48} radius="xl" variant="light" color="gray">
          <IconInbox size={24} />
        </ThemeIcon>
        <Text fw={600}>{title}</Text>
        {description ? (
          <Text size="sm" c="dimmed">
            {description}
          </Text>
        ) : null}
        {action}
      </Stack>
    </Center>
  );
}
