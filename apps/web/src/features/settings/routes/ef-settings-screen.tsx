import { Card, Group, Stack, Switch, Text, Title } from '@mantine/core';
import type { TEfSettingsRequest } from '@verilead/contracts';
import { ErrorState } from '../../../components/state-views';
import { LoadingScreen } from '../../../components/loading-screen';
import { PageHeader } from '../../../components/page-header';
import { getErrorMessage } from '../../../lib/api-error';
import { formatDateTime } from '../../../lib/format';
import { showToast } from '../../../lib/toast';
import { useEfSettingsUpdate } from '../api/ef-settings-api';
import { useUserPreferences } from '../../../lib/user-queries';

/** /settings/email_finder: include role addresses (default on) and strict domain check (default off). */
export function EfSettingsScreen() {
  const preferences = useUserPreferences();
  const update = useEfSettingsUpdate();

  if (preferences.isPending) return <LoadingScreen />;
  if (preferences.isError) return <ErrorState error={preferences.error} onRetry={() => void preferences.refetch()} />;
  const settings = preferences.data.ef_settings;

  const save = (body: TEfSettingsRequest) =>
    update.mutate(body, {
      onSuccess: () => showToast({ title: 'Settings saved', message: 'Email finder settings updated.', kind: 'success' }),
      onError: (error) => showToast({ title: 'Could not save', message: getErrorMessage(error), kind: 'error' }),
    });

  const rows = [
    {
      key: 'include_role_email' as const,
      title: 'Include role addresses',
      description: 'Return shared addresses such as info@ or sales@ when they are the only match. On by default.',
      checked: settings.include_role_email,
    },
    {
      key: 'strict_domain_check' as const,
      title: 'Strict domain check',
      description: 'Answer "not found" on catch-all domains instead of returning the most likely address with a lower confidence. Off by default.',
      checked: settings.strict_domain_check,
    },
  ];

  return (
    <>
      <PageHeader title="Email Finder settings" description="How addresses are found for you, instant and in bulk." />
      <Stack gap="lg" maw={860}>
        <Text size="xs" c="dimmed" data-testid="ef-last-modified">
          Last modified: {settings.setting_last_modified_on ? formatDateTime(settings.setting_last_modified_on) : 'never (default settings)'}
        </Text>
        {rows.map((row) => (
          <Card padding="lg" key={row.key}>
            <Group justify="space-between" align="flex-start" wrap="wrap" gap="md">
              <Stack gap={2} maw={520}>
                <Title order={4} fz={16}>
                  {row.title}
                </Title>
                <Text size="sm" c="dimmed">
                  {row.description}
                </Text>
              </Stack>
              <Switch label={row.title} checked={row.checked} onChange={(event) => save({ [row.key]: event.currentTarget.checked })} disabled={update.isPending} />
            </Group>
          </Card>
        ))}
      </Stack>
    </>
  );
}
