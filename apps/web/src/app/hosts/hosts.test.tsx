import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { AppProviders } from '../providers';
import { createQueryClient } from '../../lib/query-client';
import { showToast } from '../../lib/toast';

function renderProviders() {
  return render(
    <AppProviders queryClient={createQueryClient()}>
      <div />
    </AppProviders>,
  );
}

describe('lazy hosts', () => {
  afterEach(() => {
    modals.closeAll();
    notifications.clean();
    cleanup();
  });

  it('holds a modals.* call made before the provider has loaded and opens the modal once it has', async () => {
    renderProviders();
    // The provider is not loaded yet (it loads with the first call): this call must not be lost.
    modals.openConfirmModal({ title: 'Remove the list?', children: 'It cannot be undone.', labels: { confirm: 'Remove', cancel: 'Cancel' } });
    expect((await screen.findByText('It cannot be undone.')).textContent).toBe('It cannot be undone.');
    expect(screen.getByRole('button', { name: 'Remove' })).toHaveProperty('disabled', false);
  });

  it('shows a toast asked for before its container has loaded', async () => {
    renderProviders();
    showToast({ title: 'Saved', message: 'Your settings were saved', kind: 'success' });
    expect((await screen.findByText('Your settings were saved')).textContent).toBe('Your settings were saved');
  });
});
