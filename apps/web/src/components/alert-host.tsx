import { useState } from 'react';
import { Button, Group, Modal, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconLock, IconRefresh } from '@tabler/icons-react';
import { useAlertStore } from '../lib/alert-store';
import { reloadApp } from '../lib/reload-app';

/** Renders the one open alert (modal priority decides which). */
export function AlertHost() {
  const current = useAlertStore((state) => state.current);
  const closeAlert = useAlertStore((state) => state.closeAlert);
  const [reloading, setReloading] = useState(false);

  if (!current) return null;

  if (current.kind === 'version_update') {
    return (
      <Modal
        opened
        onClose={() => undefined}
        withCloseButton={false}
        closeOnClickOutside={false}
        closeOnEscape={false}
        title="Update available"
        zIndex={1000}
      >
        <Stack gap="md">
          <Group gap="sm" wrap="nowrap" align="flex-start">
            <ThemeIcon variant="light" size={40} radius="xl">
              <IconRefresh size={22} />
            </ThemeIcon>
            <Stack gap={4}>
              <Text size="sm">{current.message}</Text>
              <Text size="xs" c="dimmed" data-testid="update-code">
                Update code: {current.code}
              </Text>
            </Stack>
          </Group>
          <Group justify="flex-end">
            <Button
              loading={reloading}
              onClick={() => {
                setReloading(true);
                void reloadApp(current.code);
              }}
            >
              Update Now
            </Button>
          </Group>
        </Stack>
      </Modal>
    );
  }

  return (
    <Modal opened onClose={closeAlert} title={current.title} zIndex={1000}>
      <Stack gap="md">
        <Group gap="sm" wrap="nowrap">
          {current.kind === 'session_expired' ? (
            <ThemeIcon variant="light" color="orange" size={40} radius="xl">
              <IconLock size={22} />
            </ThemeIcon>
          ) : null}
          <Text size="sm">{current.message}</Text>
        </Group>
        <Group justify="flex-end">
          <Button onClick={closeAlert}>Ok</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
