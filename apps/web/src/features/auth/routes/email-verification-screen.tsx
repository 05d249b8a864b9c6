import { useEffect } from 'react';
import { Button, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';
import { Link, useSearchParams } from 'react-router';
import { LoadingScreen } from '../../../components/loading-screen';
import { getErrorMessage } from '../../../lib/api-error';
import { useSessionStore } from '../../../lib/session-store';
import { useEmailConfirmation } from '../api/auth-api';
import { AuthCard } from '../components/auth-card';
import { TokenProblem } from '../components/token-problem';

/** /emailverification?token= : activates the account (or confirms a changed address) and shows the outcome. */
export function EmailVerificationScreen() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const isLogged = useSessionStore((state) => state.isLogged);
  const sessionEmail = useSessionStore((state) => state.email);
  const setEmail = useSessionStore((state) => state.setEmail);
  const setPendingEmail = useSessionStore((state) => state.setPendingEmail);
  const setEmailVerified = useSessionStore((state) => state.setEmailVerified);
  const outcome = useEmailConfirmation(token);

  useEffect(() => {
    if (!isLogged || !outcome.data) return;
    if (outcome.data.kind === 'email_change') {
      setEmail(outcome.data.email);
      setPendingEmail(null);
      setEmailVerified(true);
    } else if (outcome.data.email === sessionEmail) {
      setEmailVerified(true);
    }
  }, [isLogged, outcome.data, sessionEmail, setEmail, setPendingEmail, setEmailVerified]);

  const next = isLogged ? { label: 'Go to dashboard', to: '/' } : { label: 'Log in', to: '/login' };

  let body;
  if (!token) {
    body = <TokenProblem message="This verification link is incomplete." actionLabel={next.label} actionTo={next.to} />;
  } else if (outcome.isPending) {
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
        <Button component={Link} to={next.to} fullWidth>
          {next.label}
        </Button>
      </Stack>
    );
  }

  return <AuthCard title="Email verification">{body}</AuthCard>;
}
