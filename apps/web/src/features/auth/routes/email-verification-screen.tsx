import { useEffect, useRef, useState } from 'react';
import { Button, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { LoadingScreen } from '../../../components/loading-screen';
import { getErrorMessage } from '../../../lib/api-error';
import { useSessionStore } from '../../../lib/session-store';
import { showToast } from '../../../lib/toast';
import { useEmailConfirmation } from '../api/auth-api';
import { AuthCard } from '../components/auth-card';
import { TokenProblem } from '../components/token-problem';
import { clearSignupSignIn, readSignupSignIn } from '../stores/signup-sign-in-store';

/**
 * /emailverification?token= : activates the account (or confirms a changed address). In the browser that signed up
 * (it kept the sign-up's key) the link also signs the person in and lands on the dashboard; logged out elsewhere, it
 * goes to the login screen with the address filled in and a notice that it is verified.
 */
export function EmailVerificationScreen() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const token = params.get('token') ?? '';
  const isLogged = useSessionStore((state) => state.isLogged);
  const sessionEmail = useSessionStore((state) => state.email);
  const setEmail = useSessionStore((state) => state.setEmail);
  const setPendingEmail = useSessionStore((state) => state.setPendingEmail);
  const setEmailVerified = useSessionStore((state) => state.setEmailVerified);
  const fillSession = useSessionStore((state) => state.fillSession);
  // Read once, as the page opens: someone already signed in here needs no new session.
  const [signIn] = useState(() => (useSessionStore.getState().isLogged ? null : readSignupSignIn()));
  const outcome = useEmailConfirmation(token, signIn?.key);
  // The outcome is acted on once: filling the session below changes isLogged, which must not act on it again.
  const handled = useRef(false);

  useEffect(() => {
    if (!outcome.data || handled.current) return;
    handled.current = true;
    const data = outcome.data;
    if (data.kind === 'email_verification' && signIn) clearSignupSignIn();
    if (data.login) {
      fillSession(data.login.data, { firstLogin: data.login.firstLogin });
      showToast({ kind: 'success', title: 'Email verified', message: `${data.email} is confirmed. You are signed in.` });
      navigate('/', { replace: true });
      return;
    }
    if (!isLogged) {
      if (data.kind === 'email_verification') {
        navigate('/login', { replace: true, state: { notice: `${data.email} is verified. Log in to start verifying.`, email: data.email } });
      }
      return;
    }
    if (data.kind === 'email_change') {
      setEmail(data.email);
      setPendingEmail(null);
      setEmailVerified(true);
    } else if (data.email === sessionEmail) {
      setEmailVerified(true);
    }
  }, [outcome.data, signIn, isLogged, sessionEmail, fillSession, navigate, setEmail, setPendingEmail, setEmailVerified]);

  const next = isLogged ? { label: 'Go to dashboard', to: '/' } : { label: 'Log in', to: '/login' };

  let body;
  if (!token) {
    body = <TokenProblem message="This verification link is incomplete." actionLabel={next.label} actionTo={next.to} />;
  } else if (outcome.isPending || (outcome.data && (outcome.data.login || (!isLogged && outcome.data.kind === 'email_verification')))) {
    body = <LoadingScreen label="Verifying your email..." minHeight={120} />;
  } else if (outcome.isError) {
    body = <TokenProblem message={getErrorMessage(outcome.error)} actionLabel={next.label} actionTo={next.to} />;
  } else {
    body = (
      <Stack align="center" gap="md" ta="center">
        <ThemeIcon size={56} radius="xl" variant="light" color="teal">
          <IconCircleCheck size={30} />
        </ThemeIcon>
        <Text fw={600}>
          {outcome.data.kind === 'email_change' ? 'Your email address has been changed' : 'Your email is verified'}
        </Text>
        <Text size="sm" c="dimmed" data-testid="email-verification-detail">
          {outcome.data.kind === 'email_change'
            ? `From now on you log in with ${outcome.data.email}.`
            : `${outcome.data.email} is confirmed.${isLogged ? '' : ' Log in to start verifying.'}`}
        </Text>
        <Button component={Link} to={next.to} state={isLogged ? undefined : { email: outcome.data.email }} fullWidth>
          {next.label}
        </Button>
      </Stack>
    );
  }

  return <AuthCard title="Email verification">{body}</AuthCard>;
}
