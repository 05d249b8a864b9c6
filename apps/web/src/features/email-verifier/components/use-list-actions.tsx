import { useState } from 'react';
import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import type { TVerifyList } from '@verilead/contracts';
import { getErrorMessage } from '../../../lib/api-error';
import { showToast } from '../../../lib/toast';
import { checkListRemovable, useCancelList, useRemoveList } from '../api/email-verifier-api';
import { ExportListModal } from './export-list-modal';
import { VerifyListModal } from './verify-list-modal';

/** Verify / cancel / export / remove for a list, with their modals; render `dialogs` once. */
export function useListActions(options: { onRemoved?: () => void } = {}) {
  const [verifying, setVerifying] = useState<TVerifyList | null>(null);
  const [exporting, setExporting] = useState<TVerifyList | null>(null);
  const cancel = useCancelList();
  const remove = useRemoveList();

  const cancelList = (list: TVerifyList) =>
    modals.openConfirmModal({
      title: 'Cancel verification?',
      children: <Text size="sm">Verification of {list.name} stops now. Only addresses already verified are billed; you can resume later.</Text>,
      labels: { confirm: 'Cancel verification', cancel: 'Keep verifying' },
      confirmProps: { color: 'red' },
      onConfirm: () => {
        cancel.mutate(
          { list_id: list.id },
          {
            onSuccess: () => showToast({ title: 'Verification cancelled', message: `${list.name} was stopped.`, kind: 'info' }),
            onError: (error) => showToast({ title: 'Could not cancel', message: getErrorMessage(error), kind: 'error' }),
          },
        );
      },
    });

  const removeList = async (list: TVerifyList) => {
    try {
      const check = await checkListRemovable(list.id);
      if (!check.can_remove) {
        showToast({ title: 'This list cannot be removed now', message: check.reason ?? 'Try again when its job has finished.', kind: 'warning' });
        return;
      }
    } catch (error) {
      showToast({ title: 'Could not check the list', message: getErrorMessage(error), kind: 'error' });
      return;
    }
    modals.openConfirmModal({
      title: 'Remove list?',
      children: <Text size="sm">{list.name} and its results will be deleted. This cannot be undone.</Text>,
      labels: { confirm: 'Remove', cancel: 'Keep list' },
      confirmProps: { color: 'red' },
      onConfirm: () => {
        remove.mutate(list.id, {
          onSuccess: (data) => {
            showToast({ title: 'List removed', message: data.message, kind: 'success' });
            options.onRemoved?.();
          },
          onError: (error) => showToast({ title: 'Could not remove', message: getErrorMessage(error), kind: 'error' }),
        });
      },
    });
  };

  const dialogs = (
    <>
      <VerifyListModal list={verifying} onClose={() => setVerifying(null)} />
      <ExportListModal list={exporting} onClose={() => setExporting(null)} />
    </>
  );

  return {
    verify: (list: TVerifyList) => setVerifying(list),
    exportList: (list: TVerifyList) => setExporting(list),
    cancel: cancelList,
    remove: (list: TVerifyList) => void removeList(list),
    dialogs,
  };
}
