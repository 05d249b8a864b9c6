import { useState } from 'react';
import { Alert, Anchor, Button, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { Link, useLocation, useNavigate } from 'react-router';
import { ZLoginRequest } from '@verilead/contracts';
import { takeFlashNotice } from '../../../lib/flash-notice';
import { applyServerErrors } from '../../../lib/form-errors';
import { useSessionStore } from '../../../lib/session-store';
import { useSchemaForm } from '../../../lib/use-schema-form';
import { AuthCard } from '../components/auth-card';
import { DemoNoticeSlot } from '../components/demo-notice-slot';
import { saveExpiredPasswordTicket } from '../stores/expired-password-store';

/** The log-in call and its response schemas: fetched when the form is first touched, not with the page. */
const loadLoginCall = () => import('../api/login-call');

export function LoginScreen() {
  const location = useLocation();
  const navigate = useNavigate();
  const startLogin = useSessionStore((state) => state.startLogin);
  const fillSession = useSessionStore((state) => state.fillSession);
  const failLogin = useSessionStore((state) => state.failLogin);
  const [formError, setFormError] = useState<string | null>(null);
  const [flashNotice] = useState(takeFlashNotice);
  const state = location.state as { notice?: string; email?: string } | null;
  const notice = state?.notice ?? flashNotice;
  // Coming from a verified e-mail link, the address is filled in and the password is what is left to type.
  const knownEmail = typeof state?.email === 'string' ? state.email : '';
  const form = useSchemaForm(ZLoginRequest, { email: knownEmail, password: '' });

  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(null);
    startLogin();
    try {
      const { logIn } = await loadLoginCall();
      const outcome = await logIn(values);
      if (outcome.kind === 'password-expired') {
        failLogin();
        saveExpiredPasswordTicket({ token: outcome.changeToken, email: values.email });
        navigate(`/expired_password${location.search}`);
        return;
      }
      // The guard on /login sends the now logged-in user to ?redirect= or /.
      fillSession(outcome.data, { firstLogin: outcome.firstLogin });
    } catch (error) {
      failLogin();
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
      <form onSubmit={onSubmit} onFocus={() => void loadLoginCall()} noValidate>
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
            autoFocus={knownEmail !== ''}
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
          {/* Last: the notice loads after the page, and below the form it moves nothing a person is about to click. */}
          <DemoNoticeSlot />
        </Stack>
      </form>
    </AuthCard>
  );
}
