import { useState } from 'react';
import { useParams } from 'react-router';
import { Alert, Button, Card, Group, Modal, Stack, Text, Title } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import type { TAppUpdateRequest } from '@verilead/contracts';
import { ErrorState } from '../../../components/state-views';
import { LoadingScreen } from '../../../components/loading-screen';
import { PageHeader } from '../../../components/page-header';
import { getErrorMessage } from '../../../lib/api-error';
import { formatDateTime } from '../../../lib/format';
import { useApp, useUpdateApp } from '../api/apps-api';
import { AppForm } from '../components/app-form';
import { AppStatusBadge } from '../components/app-status-badge';
import { TokenReveal } from '../components/token-reveal';

/** Edit an app: settings and limits, activate / deactivate / remove, rotate its token. */
export function AppEditScreen() {
  const { app_id: appId = '' } = useParams();
  const app = useApp(appId);
  const update = useUpdateApp();
  const [token, setToken] = useState<string | null>(null);
  const [confirm, setConfirm] = useState<'rotate' | 'remove' | null>(null);
  const [saved, setSaved] = useState(false);

  if (app.isPending) return <LoadingScreen />;
  if (app.isError) return <ErrorState error={app.error} onRetry={() => void app.refetch()} />;
  const a = app.data;
  const run = async (body: Omit<TAppUpdateRequest, 'app_id'>) => {
    setSaved(false);
    const res = await update.mutateAsync({ app_id: a.id, ...body });
    if (res.token) setToken(res.token);
    setSaved(true);
  };

  return (
    <>
      <PageHeader title={`Edit App: ${a.name}`} description={`Created ${formatDateTime(a.created_at)} · token ${a.token_hint}`} actions={<AppStatusBadge status={a.status} />} />
      <Stack gap="lg">
        {token ? <TokenReveal token={token} title="The new token" /> : null}
        {update.isError ? (
          <Alert color="red" variant="light" role="alert">
            {getErrorMessage(update.error)}
          </Alert>
        ) : saved ? (
          <Alert color="teal" variant="light">
            Saved.
          </Alert>
        ) : null}
        {a.status === 'removed' ? (
          <Alert color="gray">This app was removed; its token no longer works.</Alert>
        ) : (
          <>
            <AppForm
              key={a.updated_at}
              typeLocked
              initial={{ name: a.name, description: a.description, type: a.type, allowed_origins: a.allowed_origins, credit_limit: a.credit_limit, rate_limit: a.rate_limit }}
              submitLabel="Save changes"
              pending={update.isPending}
              onSubmit={(v) => void run({ name: v.name, description: v.description, allowed_origins: v.allowed_origins, credit_limit: v.credit_limit, rate_limit: v.rate_limit })}
            />
            <Card>
              <Title order={4} fz={16} mb="xs">
                Token and status
              </Title>
              <Text size="sm" c="dimmed" mb="md">
                Rotating issues a new token and stops the old one at once. An inactive app&apos;s token is refused until you activate it again.
              </Text>
              <Group>
                <Button variant="default" leftSection={<IconRefresh size={16} />} onClick={() => setConfirm('rotate')}>
                  Rotate token
                </Button>
                {a.status === 'inactive' ? (
                  <Button variant="light" color="teal" onClick={() => void run({ status: 'active' })}>
                    Activate
                  </Button>
                ) : (
                  <Button variant="light" color="gray" onClick={() => void run({ status: 'inactive' })}>
                    Deactivate
                  </Button>
                )}
                <Button variant="light" color="red" onClick={() => setConfirm('remove')}>
                  Remove
                </Button>
              </Group>
            </Card>
          </>
        )}
      </Stack>
      <Modal opened={confirm !== null} onClose={() => setConfirm(null)} title={confirm === 'rotate' ? 'Rotate the token?' : 'Remove the app?'}>
        <Text size="sm" mb="md">
          {confirm === 'rotate' ? 'Calls with the current token will fail at once.' : 'The token stops working and the app can no longer be changed.'}
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={() => setConfirm(null)}>
            Cancel
          </Button>
          <Button
            color={confirm === 'remove' ? 'red' : 'indigo'}
            onClick={() => {
              const action = confirm;
              setConfirm(null);
              void run(action === 'rotate' ? { rotate_token: true } : { status: 'removed' });
            }}
          >
            {confirm === 'rotate' ? 'Rotate' : 'Remove'}
          </Button>
        </Group>
      </Modal>
    </>
  );
}
