import { useState } from 'react';
import { useLocation, useParams } from 'react-router';
import { Alert, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import type { TAppUpdateRequest } from '@verilead/contracts';
import { ErrorState } from '../../../components/state-views';
import { LoadingScreen } from '../../../components/loading-screen';
import { PageHeader } from '../../../components/page-header';
import { getErrorMessage } from '../../../lib/api-error';
import { formatDateTime } from '../../../lib/format';
import { useFormGuard, useUpdateFormGuard } from '../api/form-guard-api';
import { EmbedSnippet } from '../components/embed-snippet';
import { FormGuardSettingsForm } from '../components/form-guard-settings-form';

/** One guard: its snippet, its settings, activate / deactivate. */
export function FormGuardEditScreen() {
  const { app_id: appId = '' } = useParams();
  const location = useLocation();
  const created = (location.state as { token?: string } | null)?.token ?? null;
  const guard = useFormGuard(appId);
  const update = useUpdateFormGuard();
  const [token, setToken] = useState<string | null>(created);
  const [saved, setSaved] = useState(false);

  if (guard.isPending) return <LoadingScreen />;
  if (guard.isError) return <ErrorState error={guard.error} onRetry={() => void guard.refetch()} />;
  const g = guard.data;
  if (!g.form_guard) return <ErrorState error={new Error('This app is not a form guard')} />;
  const run = async (body: Omit<TAppUpdateRequest, 'app_id'>) => {
    setSaved(false);
    const res = await update.mutateAsync({ app_id: g.id, ...body });
    if (res.token) setToken(res.token);
    setSaved(true);
  };
  return (
    <>
      <PageHeader title={`Form guard: ${g.name}`} description={`Created ${formatDateTime(g.created_at)} · token ${g.token_hint}`} />
      <Stack gap="lg">
        {update.isError ? (
          <Alert color="red" variant="light" role="alert">
            {getErrorMessage(update.error)}
          </Alert>
        ) : saved ? (
          <Alert color="teal" variant="light">
            Saved.
          </Alert>
        ) : null}
        {g.status === 'removed' ? (
          <Alert color="gray">This guard was removed; its snippet no longer works.</Alert>
        ) : (
          <>
            <EmbedSnippet token={token} tokenHint={g.token_hint} onRotate={() => void run({ rotate_token: true })} />
            <FormGuardSettingsForm
              key={g.updated_at}
              initial={{ name: g.name, allowed_origins: g.allowed_origins, settings: g.form_guard }}
              submitLabel="Save settings"
              pending={update.isPending}
              onSubmit={(v) => void run({ name: v.name, allowed_origins: v.allowed_origins, form_guard: v.settings })}
            />
            <Card>
              <Title order={4} fz={16} mb="xs">
                Status
              </Title>
              <Text size="sm" c="dimmed" mb="md">
                An inactive guard checks nothing: forms on your site are accepted unchecked.
              </Text>
              <Group>
                {g.status === 'inactive' ? (
                  <Button variant="light" color="teal" onClick={() => void run({ status: 'active' })}>
                    Activate
                  </Button>
                ) : (
                  <Button variant="light" color="gray" onClick={() => void run({ status: 'inactive' })}>
                    Deactivate
                  </Button>
                )}
              </Group>
            </Card>
          </>
        )}
      </Stack>
    </>
  );
}
