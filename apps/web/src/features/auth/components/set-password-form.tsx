import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, PasswordInput, Stack, TextInput } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { applyServerErrors } from '../../../lib/form-errors';
import { PASSWORD_HINT, ZNewPasswordForm, type TNewPasswordForm } from './new-password-form';

/** New password + confirmation; `withName` adds the optional name field of invited members. */
export function SetPasswordForm({
  submitLabel,
  withName = false,
  onSubmit,
}: {
  submitLabel: string;
  withName?: boolean;
  onSubmit: (values: { password: string; name?: string }) => Promise<void>;
}) {
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<TNewPasswordForm>({
    resolver: zodResolver(ZNewPasswordForm),
    defaultValues: { name: '', password: '', confirm_password: '' },
  });
  const submit = form.handleSubmit(async (values) => {
    setFormError(null);
    try {
      await onSubmit({ password: values.password, name: values.name ? values.name : undefined });
    } catch (error) {
      setFormError(applyServerErrors(error, form.setError, ['password', 'name']));
    }
  });
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        {formError ? (
          <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} role="alert">
            {formError}
          </Alert>
        ) : null}
        {withName ? (
          <TextInput
            label="Your name"
            autoComplete="name"
            placeholder="Optional"
            error={form.formState.errors.name?.message}
            {...form.register('name')}
          />
        ) : null}
        <PasswordInput
          label="New password"
          autoComplete="new-password"
          description={PASSWORD_HINT}
          error={form.formState.errors.password?.message}
          {...form.register('password')}
        />
        <PasswordInput
          label="Confirm new password"
          autoComplete="new-password"
          error={form.formState.errors.confirm_password?.message}
          {...form.register('confirm_password')}
        />
        <Button type="submit" fullWidth size="md" loading={form.formState.isSubmitting}>
          {submitLabel}
        </Button>
      </Stack>
    </form>
  );
}
