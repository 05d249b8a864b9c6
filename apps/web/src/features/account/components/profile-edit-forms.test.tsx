import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { AppProviders } from '../../../app/providers';
import { createQueryClient } from '../../../lib/query-client';
import { stubApi, answerOk } from '../../../test/render-app';
import { buildProfile } from '../../../test/fixtures';
import { EditPasswordForm } from './profile-edit-forms';

describe('change password form', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('asks to confirm the new password and says so on the field when it does not match', async () => {
    const bodies = stubApi({ 'POST /api/v1/user/password/edit': answerOk(buildProfile()) });
    const onDone = vi.fn();
    render(
      <AppProviders queryClient={createQueryClient()}>
        <MemoryRouter>
          <EditPasswordForm onDone={onDone} />
        </MemoryRouter>
      </AppProviders>,
    );
    fireEvent.change(screen.getByLabelText('Current password'), { target: { value: 'Old-Password-1' } });
    fireEvent.change(screen.getByLabelText('New password'), { target: { value: 'New-Password-2' } });
    fireEvent.change(screen.getByLabelText('Confirm new password'), { target: { value: 'New-Password-3' } });
    fireEvent.click(screen.getByRole('button', { name: 'Change password' }));
    const confirm = screen.getByLabelText('Confirm new password');
    const errorText = () => {
      const errorId = (confirm.getAttribute('aria-describedby') ?? '').split(' ').find((id) => id.endsWith('-error'));
      return errorId ? document.getElementById(errorId)?.textContent : undefined;
    };
    await waitFor(() => expect(errorText()).toBe('Passwords do not match'));
    expect(Object.keys(bodies)).toEqual([]);

    fireEvent.change(confirm, { target: { value: 'New-Password-2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Change password' }));
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    expect(Object.values(bodies)).toEqual([{ current_password: 'Old-Password-1', new_password: 'New-Password-2' }]);
  });
});
