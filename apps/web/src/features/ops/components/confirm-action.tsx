import { useState } from 'react';
import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { getErrorMessage } from '../../../lib/api-error';
import { showToast } from '../../../lib/toast';
import { useOpsOrgAction } from '../api/ops-api';
import { FormAlert } from './ops-parts';

export type TPendingAction = { path: string; title: string; description: string; confirmLabel: string; color: string; askReason: boolean };

/** Confirms one organisation or user action (suspend, restore, reset sessions), with an optional reason for the log. */
export function ConfirmAction({ orgId, action, onClose }: { orgId: string; action: TPendingAction | null; onClose: () => void }) {
  const run = useOpsOrgAction(orgId);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const close = () => {
    setReason('');
    setError(null);
    onClose();
  };
  const confirm = async () => {
    if (!action) return;
    setError(null);
    try {
      const done = await run.mutateAsync({ path: action.path, reason: reason.trim() || undefined });
      showToast({ title: 'Done', message: done.message, kind: 'success' });
      close();
    } catch (cause) {
      setError(getErrorMessage(cause));
    }
  };
  return (
    <Modal opened={action !== null} onClose={close} title={action?.title} centered>
      <Stack>
        <Text size="sm">{action?.description}</Text>
        {action?.askReason ? <TextInput label="Reason (kept in the audit log)" value={reason} onChange={(e) => setReason(e.currentTarget.value)} maxLength={500} /> : null}
        <FormAlert message={error} />
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            Cancel
          </Button>
          <Button color={action?.color} loading={run.isPending} onClick={() => void confirm()}>
            {action?.confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
