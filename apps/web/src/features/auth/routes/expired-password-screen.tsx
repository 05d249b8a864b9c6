import { useState } from 'react';
import { Alert, Stack } from '@mantine/core';
import { IconClockExclamation } from '@tabler/icons-react';
import { useNavigate } from 'react-router';
import { useResetPassword } from '../api/auth-api';
import { AuthCard } from '../components/auth-card';
import { SetPasswordForm } from '../components/set-password-form';
import { TokenProblem } from '../components/token-problem';
import { clearExpiredPasswordTicket, readExpiredPasswordTicket } from '../stores/expired-password-store';

/** /expired_password: reached when login answers password_expired; the new password must be set first. */
export function ExpiredPasswordScreen() {
  const navigate = useNavigate();
  const reset = useResetPassword();
  const [ticket] = useState(readExpiredPasswordTicket);

  return (
    <AuthCard title="Your password has expired" subtitle={ticket ? `For ${ticket.email}` : undefined}>
      {ticket ? (
        <Stack gap="md">
          <Alert color="orange" variant="light" icon={<IconClockExclamation size={18} />}>
            For your security, passwords must be changed regularly. Choose a new password to continue.
          </Alert>
          <SetPasswordForm
            submitLabel="Change password"
            onSubmit={async ({ password }) => {
              await reset.mutateAsync({ token: ticket.token, password });
              clearExpiredPasswordTicket();
              navigate('/login', { state: { notice: 'Password changed. Log in with your new password.' } });
            }}
          />
        </Stack>
      ) : (
        <TokenProblem
          message="Log in first: when your password has expired we will ask you for a new one here."
          actionLabel="Go to login"
          actionTo="/login"
        />
      )}
    </AuthCard>
  );
}
