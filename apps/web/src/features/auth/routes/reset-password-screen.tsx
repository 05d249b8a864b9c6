import { Anchor, Stack, Text } from '@mantine/core';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useResetPassword } from '../api/auth-api';
import { AuthCard } from '../components/auth-card';
import { SetPasswordForm } from '../components/set-password-form';
import { TokenProblem } from '../components/token-problem';

/** /resetpassword?token= : sets a new password with the mailed single-use token. */
export function ResetPasswordScreen() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const reset = useResetPassword();
  const navigate = useNavigate();

  return (
    <AuthCard title="Reset your password" subtitle="Choose a new password for your account.">
      {token ? (
        <Stack gap="md">
          <SetPasswordForm
            submitLabel="Reset password"
            onSubmit={async ({ password }) => {
              await reset.mutateAsync({ token, password });
              navigate('/login', { state: { notice: 'Your password has been changed. Log in with it now.' } });
            }}
          />
          <Text size="sm" c="dimmed" ta="center">
            Link expired or already used?{' '}
            <Anchor component={Link} to="/forgot_password" size="sm">
              Request a new link
            </Anchor>
          </Text>
        </Stack>
      ) : (
        <TokenProblem message="This reset link is incomplete." actionLabel="Request a new link" actionTo="/forgot_password" />
      )}
    </AuthCard>
  );
}
