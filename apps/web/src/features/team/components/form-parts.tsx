import { Alert, Button, Group } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';

/** A form-level failure (anything that did not land on a field). */
export function FormError({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} role="alert">
      {message}
    </Alert>
  );
}

/** Cancel and submit at the foot of a modal form. */
export function FormActions({ onCancel, submitting, label, disabled }: { onCancel: () => void; submitting: boolean; label: string; disabled?: boolean }) {
  return (
    <Group justify="flex-end" mt="xs">
      <Button variant="default" onClick={onCancel}>
        Cancel
      </Button>
      <Button type="submit" loading={submitting} disabled={disabled}>
        {label}
      </Button>
    </Group>
  );
}
