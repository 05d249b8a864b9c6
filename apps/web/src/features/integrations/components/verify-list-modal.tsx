import { useState } from 'react';
import { Alert, Button, Checkbox, Group, Modal, Stack, Text } from '@mantine/core';
import { INTEGRATION_CATALOG, type TIntegration, type TRemoteList } from '@verilead/contracts';
import { getErrorMessage } from '../../../lib/api-error';
import { showToast } from '../../../lib/toast';
import { useVerifyList } from '../api/integrations-api';

/** Verify a platform list: choose what is written back, then the import starts. */
export function VerifyListModal({ platform, accountId, list, onClose }: { platform: TIntegration; accountId: string; list: TRemoteList | null; onClose: () => void }) {
  const info = INTEGRATION_CATALOG[platform];
  const verify = useVerifyList(platform);
  const [unsubscribe, setUnsubscribe] = useState(false);
  const [append, setAppend] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const start = async () => {
    if (!list) return;
    setError(null);
    try {
      await verify.mutateAsync({ account_id: accountId, list_id: list.id, write_back: { unsubscribe, append } });
      showToast({ title: 'Import started', message: `"${list.name}" is being imported; it is verified and written back as it finishes`, kind: 'success' });
      onClose();
    } catch (err) {
      setError(getErrorMessage(err));
    }
  };
  return (
    <Modal opened={list !== null} onClose={onClose} title={list ? `Verify "${list.name}"` : ''} centered>
      <Stack gap="md">
        <Text size="sm">The list is imported as a verifier list, verified (credits are used as for an upload), then the results go back to {info.label}:</Text>
        <Checkbox label="Unsubscribe undeliverable contacts" description={info.unsubscribe_means} checked={unsubscribe} onChange={(e) => setUnsubscribe(e.currentTarget.checked)} />
        <Checkbox label="Add the results as fields" description="Verilead Status, Verilead Safe To Send and Verilead Reason (created when missing)" checked={append} onChange={(e) => setAppend(e.currentTarget.checked)} />
        {error ? (
          <Alert color="red" variant="light" role="alert">
            {error}
          </Alert>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={() => void start()} loading={verify.isPending}>
            Import and verify
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
