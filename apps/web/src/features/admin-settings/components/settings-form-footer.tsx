import { Alert, Button, Group } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';

/** Save / discard under a settings form, with the last failure. */
export function SettingsFormFooter({
  dirty,
  submitting,
  error,
  onReset,
}: {
  dirty: boolean;
  submitting: boolean;
  error: string | null;
  onReset: () => void;
}) {
  return (
    <>
      {error ? (
        <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} role="alert">
          {error}
        </Alert>
      ) : null}
      <Group gap="sm">
        <Button type="submit" loading={submitting} disabled={!dirty}>
          Save defaults
        </Button>
        <Button variant="default" onClick={onReset} disabled={!dirty || submitting}>
          Discard changes
        </Button>
      </Group>
    </>
  );
}
