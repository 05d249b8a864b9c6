import { useMemo, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { Stack, Switch } from '@mantine/core';
import type { TEfSettings, TOrgDefaultSettings } from '@verilead/contracts';
import { getErrorMessage } from '../../../lib/api-error';
import { showToast } from '../../../lib/toast';
import { useUpdateOrgDefaultSettings } from '../api/admin-settings-api';
import { OrgSettingsFrame } from '../components/org-settings-frame';
import { SettingsFormFooter } from '../components/settings-form-footer';
import { SettingsPanel } from '../components/settings-panel';
import { pickChangedFields } from '../utils/changed-fields';

type TEfValues = Omit<TEfSettings, 'setting_last_modified_on'>;

function EfDefaultsForm({ settings }: { settings: TOrgDefaultSettings }) {
  const update = useUpdateOrgDefaultSettings();
  const [error, setError] = useState<string | null>(null);
  const saved = useMemo<TEfValues>(
    () => ({ include_role_email: settings.ef_settings.include_role_email, strict_domain_check: settings.ef_settings.strict_domain_check }),
    [settings.ef_settings],
  );
  const form = useForm<TEfValues>({ values: saved });
  const submit = form.handleSubmit(async (values) => {
    setError(null);
    const body = pickChangedFields(saved, values);
    if (Object.keys(body).length === 0) return;
    try {
      const data = await update.mutateAsync({ section: 'email_finder', body });
      showToast({ title: data.message, message: 'Members without their own choice now use these email finder defaults.', kind: 'success' });
    } catch (failure) {
      setError(getErrorMessage(failure));
    }
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="lg">
        <SettingsPanel
          title="Finder results"
          description="Which addresses the email finder may answer with."
          lastModified={settings.ef_settings.setting_last_modified_on}
        >
          <Controller
            control={form.control}
            name="include_role_email"
            render={({ field }) => (
              <Switch
                label="Include role emails"
                description="Allow addresses such as sales@ or info@ when no personal address is found."
                checked={field.value}
                onChange={(event) => field.onChange(event.currentTarget.checked)}
              />
            )}
          />
          <Controller
            control={form.control}
            name="strict_domain_check"
            render={({ field }) => (
              <Switch
                label="Strict domain check"
                description="Only answer with addresses on exactly the domain that was searched."
                checked={field.value}
                onChange={(event) => field.onChange(event.currentTarget.checked)}
              />
            )}
          />
        </SettingsPanel>
        <SettingsFormFooter dirty={form.formState.isDirty} submitting={form.formState.isSubmitting} error={error} onReset={() => form.reset(saved)} />
      </Stack>
    </form>
  );
}

/** /admin/email_finder: the organisation's email finder defaults. */
export function AdminEmailFinderScreen() {
  return (
    <OrgSettingsFrame title="Email finder defaults" description="Finder settings your members inherit.">
      {(settings) => <EfDefaultsForm settings={settings} />}
    </OrgSettingsFrame>
  );
}
