import { Button } from '@mantine/core';
import { modals } from '@mantine/modals';
import { INTEGRATION_CATALOG, type TLinkedAccount } from '@verilead/contracts';
import { getErrorMessage } from '../../../lib/api-error';
import { showToast } from '../../../lib/toast';
import { useDisconnectAccount } from '../api/integrations-api';

/** Disconnects an account after a confirmation. */
export function DisconnectButton({ account, onDone }: { account: TLinkedAccount; onDone?: () => void }) {
  const disconnect = useDisconnectAccount();
  const label = INTEGRATION_CATALOG[account.integration].label;
  const ask = () =>
    modals.openConfirmModal({
      title: 'Disconnect account',
      children: `Disconnect the ${label} account "${account.name}"? Lists already imported stay.`,
      labels: { confirm: 'Disconnect', cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: () =>
        void disconnect
          .mutateAsync({ platform: account.integration, accountId: account.id })
          .then(() => {
            showToast({ title: 'Disconnected', message: `${label} account "${account.name}" was disconnected`, kind: 'success' });
            onDone?.();
          })
          .catch((err: unknown) => showToast({ title: 'Could not disconnect', message: getErrorMessage(err), kind: 'error' })),
    });
  return (
    <Button size="xs" color="red" variant="subtle" onClick={ask} loading={disconnect.isPending}>
      Disconnect
    </Button>
  );
}
