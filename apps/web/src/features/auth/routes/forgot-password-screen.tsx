import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import { IconAlertCircle, IconArrowLeft } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { z } from 'zod';
import { ZForgotPasswordRequest } from '@verilead/contracts';
import { applyServerErrors } from '../../../lib/form-errors';
import { useForgotPassword } from '../api/auth-api';
import { AuthCard } from '../components/auth-card';

type TForgotForm = z.input<typeof ZForgotPasswordRequest>;

export function ForgotPasswordScreen() {
  const forgot = useForgotPassword();
  const [formError, setFormError] = useState<string | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const form = useForm<TForgotForm, unknown, z.output<typeof ZForgotPasswordRequest>>({
    resolver: zodResolver(ZForgotPasswordRequest),
    defaultValues: { email: '' },
  });

  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(null);
    try {
      await forgot.mutateAsync(values);
      setSentTo(values.email);
    } catch (error) {
      setFormError(applyServerErrors(error, form.setError, ['email']));
    }
  });

  const back = (
    <Anchor component={Link} to="/login" size="sm">
      <IconArrowLeft size={14} style={{ verticalAlign: 'middle' }} /> Back to login
    </Anchor>
  );

  if (sentTo) {
    return (
      <AuthCard title="Check your inbox">
        <Stack gap="md">
          <Alert color="teal" variant="light" role="status">
            If an account exists for <strong>{sentTo}</strong>, we sent it a link to reset the password. The link works once
            and expires soon.
          </Alert>
          {back}
        </Stack>
      </AuthCard>
    );
  }

  return (
    <AuthCard title="Forgot your password?" subtitle="Enter your account's email and we will send you a reset link.">
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          {formError ? (
            <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} role="alert">
              {formError}
            </Alert>
          ) : null}
          <TextInput
            label="Email"
            type="email"
            autoComplete="email"
            placeholder="you@company.com"
            error={form.formState.errors.email?.message}
            {...form.register('email')}
          />
          <Button type="submit" fullWidth size="md" loading={form.formState.isSubmitting}>
            Send reset link
          </Button>
          <Text ta="center">{back}</Text>
        </Stack>
      </form>
    </AuthCard>
  );
}
