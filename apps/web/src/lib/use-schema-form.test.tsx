import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { ZLoginRequest } from '@verilead/contracts';
import { useSchemaForm } from './use-schema-form';

function LoginLikeForm({ onValid }: { onValid: (values: { email: string; password: string }) => Promise<void> }) {
  const form = useSchemaForm(ZLoginRequest, { email: '', password: '' });
  return (
    <form onSubmit={form.handleSubmit(onValid)} noValidate>
      <label htmlFor="email">Email</label>
      <input id="email" {...form.register('email')} />
      <output data-testid="email-error">{form.formState.errors.email?.message ?? ''}</output>
      <label htmlFor="password">Password</label>
      <input id="password" {...form.register('password')} />
      <output data-testid="password-error">{form.formState.errors.password?.message ?? ''}</output>
      <button type="button" onClick={() => form.setError('password', { type: 'server', message: 'Wrong password' })}>
        Server says no
      </button>
      <button type="submit">{form.formState.isSubmitting ? 'Sending' : 'Log in'}</button>
    </form>
  );
}

describe('useSchemaForm', () => {
  it('checks on submit, focuses the first field with a problem, then re-checks a field as it changes', async () => {
    const onValid = vi.fn(async () => undefined);
    render(<LoginLikeForm onValid={onValid} />);
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'not-an-email' } });
    expect(screen.getByTestId('email-error').textContent).toBe('');
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }));
    await waitFor(() => expect(screen.getByTestId('email-error').textContent).toBe('Please enter a valid email address'));
    expect(screen.getByTestId('password-error').textContent).toBe('Password is required');
    expect(document.activeElement).toBe(screen.getByLabelText('Email'));
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'Olivia@Acme.test ' } });
    await waitFor(() => expect(screen.getByTestId('email-error').textContent).toBe(''));
    expect(screen.getByTestId('password-error').textContent).toBe('Password is required');
    expect(onValid).not.toHaveBeenCalled();
  });

  it('hands the parsed values (trimmed, lower-cased) to the submit handler and takes server messages', async () => {
    const onValid = vi.fn(async () => undefined);
    render(<LoginLikeForm onValid={onValid} />);
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: ' Olivia@Acme.test' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'Secret-1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }));
    await waitFor(() => expect(onValid).toHaveBeenCalledWith({ email: 'olivia@acme.test', password: 'Secret-1' }));
    fireEvent.click(screen.getByRole('button', { name: 'Server says no' }));
    expect(screen.getByTestId('password-error').textContent).toBe('Wrong password');
  });
});
