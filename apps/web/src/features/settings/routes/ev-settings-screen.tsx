import type { ReactNode } from 'react';
import { Card, Group, Radio, SegmentedControl, Stack, Switch, Text, Title } from '@mantine/core';
import { ZGibberishThreshold, type TEvSettings, type TVerificationMode } from '@verilead/contracts';
import { ErrorState } from '../../../components/state-views';
import { LoadingScreen } from '../../../components/loading-screen';
import { PageHeader } from '../../../components/page-header';
import { getErrorMessage } from '../../../lib/api-error';
import { formatDateTime } from '../../../lib/format';
import { showToast } from '../../../lib/toast';
import { useEvSettingsUpdate } from '../api/ev-settings-api';
import { useUserPreferences } from '../../../lib/user-queries';
import { WbListEditor } from '../components/wb-list-editor';

const MODES: { value: TVerificationMode; label: string; description: string }[] = [
  { value: 'highest_accuracy', label: 'Highest accuracy', description: 'Retries greylisting and slow servers for the clearest verdict. Slower on large lists.' },
  { value: 'fastest_turnaround', label: 'Fastest turnaround', description: 'Shorter waits and fewer retries: results sooner, a few more unknowns.' },
];

function SettingCard({ title, description, children }: { title: string; description: string; children: ReactNode }) {
  return (
    <Card padding="lg">
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="md">
        <Stack gap={2} maw={480}>
          <Title order={4} fz={16}>
            {title}
          </Title>
          <Text size="sm" c="dimmed">
            {description}
          </Text>
        </Stack>
        {children}
      </Group>
    </Card>
  );
}

/** /settings/email_verifier: verification mode, auto-pilot, gibberish threshold and the allow / block list. */
export function EvSettingsScreen() {
  const preferences = useUserPreferences();
  const update = useEvSettingsUpdate();

  if (preferences.isPending) return <LoadingScreen />;
  if (preferences.isError) return <ErrorState error={preferences.error} onRetry={() => void preferences.refetch()} />;
  const settings: TEvSettings = preferences.data.ev_settings;

  const save = (change: Parameters<typeof update.mutate>[0]) =>
    update.mutate(change, {
      onSuccess: () => showToast({ title: 'Settings saved', message: 'Email verifier settings updated.', kind: 'success' }),
      onError: (error) => showToast({ title: 'Could not save', message: getErrorMessage(error), kind: 'error' }),
    });

  return (
    <>
      <PageHeader title="Email Verifier settings" description="How addresses are verified for you, instant and in bulk." />
      <Stack gap="lg" maw={860}>
        <Text size="xs" c="dimmed" data-testid="ev-last-modified">
          Last modified: {settings.setting_last_modified_on ? formatDateTime(settings.setting_last_modified_on) : 'never (default settings)'}
        </Text>
        <SettingCard title="Verification mode" description="Choose per list between accuracy and speed, or keep the default.">
          <Switch
            label="Show the mode choice"
            checked={settings.can_show_email_verify_mode}
            onChange={(event) => save({ path: 'accuracy', body: { default_email_verify_mode: settings.default_email_verify_mode, can_show_email_verify_mode: event.currentTarget.checked } })}
            disabled={update.isPending}
          />
        </SettingCard>
        {settings.can_show_email_verify_mode ? (
          <Card padding="lg">
            <Radio.Group
              label="Default verification mode"
              value={settings.default_email_verify_mode}
              onChange={(value) => save({ path: 'accuracy', body: { default_email_verify_mode: value === 'fastest_turnaround' ? 'fastest_turnaround' : 'highest_accuracy' } })}
            >
              <Stack gap="sm" mt="sm">
                {MODES.map((mode) => (
                  <Radio key={mode.value} value={mode.value} label={mode.label} description={mode.description} disabled={update.isPending} />
                ))}
              </Stack>
            </Radio.Group>
          </Card>
        ) : null}
        <SettingCard title="Auto-pilot" description="Start verification automatically as soon as an uploaded list has been analysed.">
          <Switch
            label="Auto-pilot"
            checked={settings.auto_pilot_status}
            onChange={(event) => save({ path: 'autopilot', body: { auto_pilot_status: event.currentTarget.checked } })}
            disabled={update.isPending}
          />
        </SettingCard>
        <SettingCard
          title="Gibberish threshold"
          description="How random a name part must look to be flagged as gibberish. Low flags more addresses, high only the clearly random ones."
        >
          <SegmentedControl
            aria-label="Gibberish threshold"
            value={settings.gibberish_threshold_value}
            onChange={(value) => save({ path: 'gibberish_threshold', body: { gibberish_threshold_value: ZGibberishThreshold.parse(value) } })}
            data={[
              { value: 'low', label: 'Low' },
              { value: 'medium', label: 'Medium' },
              { value: 'high', label: 'High' },
            ]}
            disabled={update.isPending}
          />
        </SettingCard>
        <WbListEditor />
      </Stack>
    </>
  );
}
