import { useState } from 'react';
import { Alert, Button, Stack } from '@mantine/core';
import { Link, useSearchParams } from 'react-router';
import { LoadingScreen } from '../../../components/loading-screen';
import { getErrorMessage } from '../../../lib/api-error';
import { describeTokenProblem, useSetupPassword, useVerifyToken } from '../api/auth-api';
import { AuthCard } from '../components/auth-card';
import { SetPasswordForm } from '../components/set-password-form';
import { TokenProblem } from '../components/token-problem';

/** /setup_password?token= : an invited member chooses a password. */
export function SetupPasswordScreen() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const check = useVerifyToken(token, 'setup_password');
  const setup = useSetupPassword();
  const [done, setDone] = useState(false);

  let body;
  if (!token) {
    body = <TokenProblem message="This invitation link is incomplete." actionLabel="Go to login" actionTo="/login" />;
  } else if (check.isPending) {
    body = <LoadingScreen minHeight={120} />;
  } else if (check.isError) {
    body = <TokenProblem message={getErrorMessage(check.error)} actionLabel="Go to login" actionTo="/login" />;
  } else if (!check.data.valid) {
    body = (
      <TokenProblem
        message={`${describeTokenProblem(check.data.reason)} Ask your team owner to send a new invitation.`}
        actionLabel="Go to login"
        actionTo="/login"
      />
    );
  } else if (done) {
    body = (
      <Stack gap="md">
        <Alert color="teal" variant="light" role="status">
          Your password is set. Log in to join your team.
        </Alert>
        <Button component={Link} to="/login" fullWidth>
          Go to login
        </Button>
      </Stack>
    );
  } else {
    body = (
      <SetPasswordForm
        submitLabel="Set password"
        withName
        onSubmit={async ({ password, name }) => {
          await setup.mutateAsync({ token, password, name });
          setDone(true);
        }}
      />
    );
  }

  return (
    <AuthCard title="Set up your password" subtitle={check.data?.email ? `You were invited as ${check.data.email}` : 'Welcome to Verilead'}>
      {body}
    </AuthCard>
  );
}
