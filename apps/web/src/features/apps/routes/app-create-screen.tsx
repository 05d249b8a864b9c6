import { useState } from 'react';
import { Link } from 'react-router';
import { Alert, Button, Group, Stack } from '@mantine/core';
import type { TApp } from '@verilead/contracts';
import { PageHeader } from '../../../components/page-header';
import { getErrorMessage } from '../../../lib/api-error';
import { useCreateApp } from '../api/apps-api';
import { AppForm, EMPTY_APP_FORM } from '../components/app-form';
import { TokenReveal } from '../components/token-reveal';

/** Create an app; its token is shown once with a copy button. */
export function AppCreateScreen() {
  const create = useCreateApp();
  const [created, setCreated] = useState<TApp | null>(null);
  if (created?.token) {
    return (
      <>
        <PageHeader title="App created" description={`"${created.name}" is ready. Its status stays "Yet to Activate" until its first call.`} />
        <Stack gap="lg">
          <TokenReveal token={created.token} title="Your app token" />
          <Group>
            <Button component={Link} to={`/apps/${created.id}/edit`} variant="default">
              Edit the app
            </Button>
            <Button component={Link} to="/apps">
              Back to Apps
            </Button>
          </Group>
        </Stack>
      </>
    );
  }
  return (
    <>
      <PageHeader title="Create App" description="Give the app a name, a type and its limits." />
      <Stack gap="md">
        {create.isError ? (
          <Alert color="red" variant="light" role="alert">
            {getErrorMessage(create.error)}
          </Alert>
        ) : null}
        <AppForm
          initial={EMPTY_APP_FORM}
          submitLabel="Create App"
          pending={create.isPending}
          onSubmit={(values) => void create.mutateAsync({ ...values, description: values.description || undefined }).then(setCreated)}
        />
      </Stack>
    </>
  );
}
