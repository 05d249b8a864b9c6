import { Alert, Button, Stack } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { Link } from 'react-router';

/** What a token screen shows when its link cannot be used. */
export function TokenProblem({ message, actionLabel, actionTo }: { message: string; actionLabel: string; actionTo: string }) {
  return (
    <Stack gap="md">
      <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} role="alert">
        {message}
      </Alert>
      <Button component={Link} to={actionTo} variant="light" fullWidth>
        {actionLabel}
      </Button>
    </Stack>
  );
}
