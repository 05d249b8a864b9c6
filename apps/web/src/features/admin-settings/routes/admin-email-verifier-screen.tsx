import { useMemo, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { Radio, Select, Stack, Switch } from '@mantine/core';
import { ZGibberishThreshold, type TEvSettings, type TGibberishThreshold, type TOrgDefaultSettings, type TVerificationMode } from '@verilead/contracts';
import { getErrorMessage } from '../../../lib/api-error';
import { humanizeKey } from '../../../lib/format';
import { showToast } from '../../../lib/toast';
import { useUpdateOrgDefaultSettings } from '../api/admin-settings-api';
import { OrgSettingsFrame } from '../components/org-settings-frame';
import { SettingsFormFooter } from '../components/settings-form-footer';
import { SettingsPanel } from '../components/settings-panel';
import { pickChangedFields } from '../utils/changed-fields';

type TEvValues = Omit<TEvSettings, 'setting_last_modified_on'>;

const MODE_CHOICES: Array<{ value: TVerificationMode; label: string; description: string }> = [
  { value: 'highest_accuracy', label: 'Highest accuracy', description: 'Retries greylisted and slow servers before answering: best verdicts, slower lists.' },
  { value: 'fastest_turnaround', label: 'Fastest turnaround', description: 'Answers as soon as possible: quicker lists, more unknown verdicts.' },
];

const THRESHOLD_OPTIONS = ZGibberishThreshold.options.map((value) => ({ value, label: humanizeKey(value) }));

function toValues(settings: TEvSettings): TEvValues {
  return {
    default_email_verify_mode: settings.default_email_verify_mode,
    can_show_email_verify_mode: settings.can_show_email_verify_mode,
    auto_pilot_status: settings.auto_pilot_status,
    gibberish_threshold_value: settings.gibberish_threshold_value,
  };
}

function EvDefaultsForm({ settings }: { settings: TOrgDefaultSettings }) {
  const update = useUpdateOrgDefaultSettings();
  const [error, setError] = useState<string | null>(null);
  const saved = useMemo(() => toValues(settings.ev_settings), [settings.ev_settings]);
  const form = useForm<TEvValues>({ values: saved });
  const submit = form.handleSubmit(async (values) => {
    setError(null);
    const body = pickChangedFields(saved, values);
    if (Object.keys(body).length === 0) return;
    try {
      const data = await update.mutateAsync({ section: 'email_verifier', body });
      showToast({ title: data.message, message: 'Members without their own choice now use these email verifier defaults.', kind: 'success' });
    } catch (failure) {
      setError(getErrorMessage(failure));
    }
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="lg">
        <SettingsPanel
          title="Verification mode"
          description="How bulk lists are verified unless a member picks otherwise."
          lastModified={settings.ev_settings.setting_last_modified_on}
        >
          <Controller
            control={form.control}
            name="default_email_verify_mode"
            render={({ field }) => (
              <Radio.Group label="Default mode" value={field.value} onChange={(value) => field.onChange(value as TVerificationMode)}>
                <Stack gap="sm" mt="xs">
                  {MODE_CHOICES.map((choice) => (
                    <Radio key={choice.value} value={choice.value} label={choice.label} description={choice.description} />
                  ))}
                </Stack>
              </Radio.Group>
            )}
          />
          <Controller
            control={form.control}
            name="can_show_email_verify_mode"
            render={({ field }) => (
              <Switch
                label="Let members choose the mode for each list"
                description="When off, every list uses the default mode."
                checked={field.value}
                onChange={(event) => field.onChange(event.currentTarget.checked)}
              />
            )}
          />
        </SettingsPanel>
        <SettingsPanel title="Automation and checks" description="Auto-pilot and how strict the gibberish check is.">
          <Controller
            control={form.control}
            name="auto_pilot_status"
            render={({ field }) => (
              <Switch
                label="Auto-pilot"
                description="Members start with auto-pilot turned on for email verification."
                checked={field.value}
                onChange={(event) => field.onChange(event.currentTarget.checked)}
              />
            )}
          />
          <Controller
            control={form.control}
            name="gibberish_threshold_value"
            render={({ field }) => (
              <Select
                label="Gibberish threshold"
                description="How random a mailbox name must look before it is flagged as gibberish."
                data={THRESHOLD_OPTIONS}
                value={field.value}
                onChange={(value) => value && field.onChange(value as TGibberishThreshold)}
                allowDeselect={false}
                maw={280}
              />
            )}
          />
        </SettingsPanel>
        <SettingsFormFooter dirty={form.formState.isDirty} submitting={form.formState.isSubmitting} error={error} onReset={() => form.reset(saved)} />
      </Stack>
    </form>
  );
}

/** /admin/email_verifier: the organisation's email verifier defaults. */
export function AdminEmailVerifierScreen() {
  return (
    <OrgSettingsFrame title="Email verifier defaults" description="Verification settings your members inherit.">
      {(settings) => <EvDefaultsForm settings={settings} />}
    </OrgSettingsFrame>
  );
}
