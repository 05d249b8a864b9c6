import { useMemo } from 'react';
import type { TEfSettings, TOrgDefaultSettings } from '@verilead/contracts';
import { OrgDefaultsForm, SwitchField } from '../components/org-defaults-form';
import { OrgSettingsFrame } from '../components/org-settings-frame';
import { SettingsPanel } from '../components/settings-panel';

type TEfValues = Omit<TEfSettings, 'setting_last_modified_on'>;

function EfDefaultsForm({ settings }: { settings: TOrgDefaultSettings }) {
  const saved = useMemo<TEfValues>(
    () => ({ include_role_email: settings.ef_settings.include_role_email, strict_domain_check: settings.ef_settings.strict_domain_check }),
    [settings.ef_settings],
  );

  return (
    <OrgDefaultsForm section="email_finder" saved={saved} successMessage="Members without their own choice now use these email finder defaults.">
      {(form) => (
        <SettingsPanel
          title="Finder results"
          description="Which addresses the email finder may answer with."
          lastModified={settings.ef_settings.setting_last_modified_on}
        >
          <SwitchField
            control={form.control}
            name="include_role_email"
            label="Include role emails"
            description="Allow addresses such as sales@ or info@ when no personal address is found."
          />
          <SwitchField
            control={form.control}
            name="strict_domain_check"
            label="Strict domain check"
            description="Only answer with addresses on exactly the domain that was searched."
          />
        </SettingsPanel>
      )}
    </OrgDefaultsForm>
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
