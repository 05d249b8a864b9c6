import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Anchor, Button, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { Link, useLocation, useNavigate } from 'react-router';
import type { z } from 'zod';
import { ZLoginRequest, ZPasswordExpiredInfo } from '@verilead/contracts';
import { isApiError } from '../../../lib/api-error';
import { takeFlashNotice } from '../../../lib/flash-notice';
import { applyServerErrors } from '../../../lib/form-errors';
import { useSessionStore } from '../../../lib/session-store';
import { isFirstLogin, useLogin } from '../api/auth-api';
import { AuthCard } from '../components/auth-card';
import { saveExpiredPasswordTicket } from '../stores/expired-password-store';

type TLoginForm = z.input<typeof ZLoginRequest>;

export function LoginScreen() {
  const location = useLocation();
  const navigate = useNavigate();
  const login = useLogin();
  const startLogin = useSessionStore((state) => state.startLogin);
  const fillSession = useSessionStore((state) => state.fillSession);
  const failLogin = useSessionStore((state) => state.failLogin);
  const [formError, setFormError] = useState<string | null>(null);
  const [flashNotice] = useState(takeFlashNotice);
  const notice = (location.state as { notice?: string } | null)?.notice ?? flashNotice;
  const form = useForm<TLoginForm, unknown, z.output<typeof ZLoginRequest>>({
    resolver: zodResolver(ZLoginRequest),
    defaultValues: { email: '', password: '' },
  });

  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(null);
    startLogin();
    try {
      const data = await login.mutateAsync(values);
      const firstLogin = await isFirstLogin(data.token);
      // The guard on /login sends the now logged-in user to ?redirect= or /.
      fillSession(data, { firstLogin });
    } catch (error) {
      failLogin();
      if (isApiError(error) && error.code === 'password_expired') {
        const info = ZPasswordExpiredInfo.safeParse(error.additionalInfo);
        if (info.success) {
          saveExpiredPasswordTicket({ token: info.data.change_token, email: values.email });
          navigate(`/expired_password${location.search}`);
          return;
        }
      }
      setFormError(applyServerErrors(error, form.setError, ['email', 'password']));
    }
  });

  return (
    <AuthCard
      title="Log in to Verilead"
      subtitle={
        <>
          New here?{' '}
          <Anchor component={Link} to={`/signup${location.search}`} size="sm">
            Create an account
          </Anchor>
        </>
      }
    >
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          {notice ? (
            <Alert color="teal" variant="light">
              {notice}
            </Alert>
          ) : null}
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
          <PasswordInput
            label="Password"
            autoComplete="current-password"
            placeholder="Your password"
            error={form.formState.errors.password?.message}
            {...form.register('password')}
          />
          <Group justify="flex-end" mt={-6}>
            <Anchor component={Link} to="/forgot_password" size="sm">
              Forgot password?
            </Anchor>
          </Group>
          <Button type="submit" fullWidth size="md" loading={form.formState.isSubmitting}>
            Log in
          </Button>
          <Button component={Link} to={`/sso/signin${location.search}`} variant="default" fullWidth>
            Sign in with SSO
          </Button>
          <Text size="xs" c="dimmed" ta="center">
            By logging in you agree to the{' '}
            <Anchor component={Link} to="/terms" size="xs">
              Terms of service
            </Anchor>{' '}
            and{' '}
            <Anchor component={Link} to="/terms#privacy" size="xs">
              Privacy policy
            </Anchor>
            .
          </Text>
        </Stack>
      </form>
    </AuthCard>
  );
}
