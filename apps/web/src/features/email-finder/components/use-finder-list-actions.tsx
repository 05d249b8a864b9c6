import { useState } from 'react';
import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { CREDITS_PER_FIND, type TFinderList } from '@verilead/contracts';
import { getErrorMessage } from '../../../lib/api-error';
import { formatNumber } from '../../../lib/format';
import { showToast } from '../../../lib/toast';
import { startFinderResultDownload, useCancelFinderList, useFindEmails, useRemoveFinderList } from '../api/email-finder-api';
import { FinderDownloadModal } from './finder-download-modal';

/** Find / cancel / download / remove for a finder list, with their dialogs; render `dialogs` once. */
export function useFinderListActions(options: { onRemoved?: () => void } = {}) {
  const [downloading, setDownloading] = useState<TFinderList | null>(null);
  const find = useFindEmails();
  const cancel = useCancelFinderList();
  const remove = useRemoveFinderList();

  const findEmails = (list: TFinderList) =>
    modals.openConfirmModal({
      title: list.state === 'cancelled' ? 'Resume finding addresses?' : 'Find addresses?',
      children: (
        <Text size="sm" data-testid="find-cost-note">
          {formatNumber(list.counts.remaining)} people of {list.name} will be searched. Only found addresses are charged ({CREDITS_PER_FIND} credit each, at most{' '}
          {formatNumber(list.counts.remaining * CREDITS_PER_FIND)} credits); people not found cost nothing.
        </Text>
      ),
      labels: { confirm: 'Find addresses', cancel: 'Not now' },
      onConfirm: () =>
        find.mutate(list.id, {
          onSuccess: () => showToast({ title: 'Search started', message: `Finding addresses for ${list.name}.`, kind: 'success' }),
          onError: (error) => showToast({ title: 'Could not start', message: getErrorMessage(error), kind: 'error' }),
        }),
    });

  const cancelList = (list: TFinderList) =>
    modals.openConfirmModal({
      title: 'Cancel the search?',
      children: <Text size="sm">The search of {list.name} stops now. Only addresses already found are billed; you can resume later.</Text>,
      labels: { confirm: 'Cancel search', cancel: 'Keep searching' },
      confirmProps: { color: 'red' },
      onConfirm: () =>
        cancel.mutate(list.id, {
          onSuccess: () => showToast({ title: 'Search cancelled', message: `${list.name} was stopped.`, kind: 'info' }),
          onError: (error) => showToast({ title: 'Could not cancel', message: getErrorMessage(error), kind: 'error' }),
        }),
    });

  const removeList = (list: TFinderList) =>
    modals.openConfirmModal({
      title: 'Remove list?',
      children: <Text size="sm">{list.name} and its results will be deleted. This cannot be undone.</Text>,
      labels: { confirm: 'Remove', cancel: 'Keep list' },
      confirmProps: { color: 'red' },
      onConfirm: () =>
        remove.mutate(list.id, {
          onSuccess: (data) => {
            showToast({ title: 'List removed', message: data.message, kind: 'success' });
            options.onRemoved?.();
          },
          onError: (error) => showToast({ title: 'Could not remove', message: getErrorMessage(error), kind: 'error' }),
        }),
    });

  const dialogs = (
    <FinderDownloadModal
      title={downloading ? `Download results: ${downloading.name}` : 'Download results'}
      opened={downloading !== null}
      onClose={() => setDownloading(null)}
      withFormats
      start={({ format, fileType }, signal) => startFinderResultDownload({ list_id: downloading?.id ?? '', format, file_type: fileType }, signal)}
    />
  );

  return { find: findEmails, cancel: cancelList, remove: removeList, download: (list: TFinderList) => setDownloading(list), dialogs };
}
