import { Anchor, Stack, Text } from '@mantine/core';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { LoadingScreen } from '../../../components/loading-screen';
import { getErrorMessage } from '../../../lib/api-error';
import { describeTokenProblem, useResetPassword, useVerifyToken } from '../api/auth-api';
import { AuthCard } from '../components/auth-card';
import { SetPasswordForm } from '../components/set-password-form';
import { TokenProblem } from '../components/token-problem';

/** /resetpassword?token= : sets a new password with the mailed single-use token; a used or expired link says so (no form). */
export function ResetPasswordScreen() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const check = useVerifyToken(token, 'password_reset');
  const reset = useResetPassword();
  const navigate = useNavigate();

  let body;
  if (!token) {
    body = <TokenProblem message="This reset link is incomplete." actionLabel="Request a new link" actionTo="/forgot_password" />;
  } else if (check.isPending) {
    body = <LoadingScreen minHeight={120} />;
  } else if (check.isError) {
    body = <TokenProblem message={getErrorMessage(check.error)} actionLabel="Request a new link" actionTo="/forgot_password" />;
  } else if (!check.data.valid) {
    body = <TokenProblem message={describeTokenProblem(check.data.reason)} actionLabel="Request a new link" actionTo="/forgot_password" />;
  } else {
    body = (
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
    );
  }

  return (
    <AuthCard title="Reset your password" subtitle="Choose a new password for your account.">
      {body}
    </AuthCard>
  );
}
