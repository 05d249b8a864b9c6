import { Alert, Button, Group, Text } from '@mantine/core';
import { IconMailExclamation } from '@tabler/icons-react';
import { getErrorMessage } from '../../../lib/api-error';
import { useResendVerification } from '../api/dashboard-api';

/** The reminder an unverified account sees, with a way to get a new link (at most one a minute, said by the server). */
export function VerifyEmailReminder({ email }: { email: string | null | undefined }) {
  const resend = useResendVerification();
  return (
    <Alert color="orange" variant="light" icon={<IconMailExclamation size={18} />} title="Verify your email" data-testid="verify-email-reminder">
      <Text size="sm">We sent a verification link to {email}. Open it to confirm your address.</Text>
      {resend.isSuccess ? (
        <Text size="sm" mt="xs" role="status">
          {resend.data.message}
        </Text>
      ) : null}
      {resend.isError ? (
        <Text size="sm" mt="xs" c="red" role="alert">
          {getErrorMessage(resend.error)}
        </Text>
      ) : null}
      <Group mt="xs">
        <Button size="xs" variant="light" color="orange" loading={resend.isPending} onClick={() => resend.mutate()}>
          Send a new link
        </Button>
      </Group>
    </Alert>
  );
}
