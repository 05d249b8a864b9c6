import { useMemo } from 'react';
import { Controller } from 'react-hook-form';
import { Radio, Select, Stack } from '@mantine/core';
import { ZGibberishThreshold, type TEvSettings, type TGibberishThreshold, type TOrgDefaultSettings, type TVerificationMode } from '@verilead/contracts';
import { humanizeKey } from '../../../lib/format';
import { OrgDefaultsForm, SwitchField } from '../components/org-defaults-form';
import { OrgSettingsFrame } from '../components/org-settings-frame';
import { SettingsPanel } from '../components/settings-panel';

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
  const saved = useMemo(() => toValues(settings.ev_settings), [settings.ev_settings]);

  return (
    <OrgDefaultsForm section="email_verifier" saved={saved} successMessage="Members without their own choice now use these email verifier defaults.">
      {(form) => (
        <>
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
            <SwitchField
              control={form.control}
              name="can_show_email_verify_mode"
              label="Let members choose the mode for each list"
              description="When off, every list uses the default mode."
            />
          </SettingsPanel>
          <SettingsPanel title="Automation and checks" description="Auto-pilot and how strict the gibberish check is.">
            <SwitchField
              control={form.control}
              name="auto_pilot_status"
              label="Auto-pilot"
              description="Members start with auto-pilot turned on for email verification."
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
        </>
      )}
    </OrgDefaultsForm>
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
