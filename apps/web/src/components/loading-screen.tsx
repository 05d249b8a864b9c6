import { Center, Group, Loader, Text } from '@mantine/core';

/** What a lazy screen or a query shows while it loads. */
export function LoadingScreen({ label = 'Loading...', minHeight = 240 }: { label?: string; minHeight?: number | string }) {
  return (
    <Center mih={minHeight} role="status" aria-live="polite">
      <Group gap="sm">
        <Loader size="sm" />
        <Text c="dimmed" size="sm">
          {label}
        </Text>
      </Group>
    </Center>
  );
}
