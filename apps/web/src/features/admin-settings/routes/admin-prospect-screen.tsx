import { useMemo } from 'react';
import { Controller, type UseFormReturn } from 'react-hook-form';
import { Select, SimpleGrid } from '@mantine/core';
import { ZEnrichEmails, ZEnrichPhones, type TEnrichSettings, type TOrgDefaultSettings } from '@verilead/contracts';
import { OrgDefaultsForm } from '../components/org-defaults-form';
import { OrgSettingsFrame } from '../components/org-settings-frame';
import { SettingsPanel } from '../components/settings-panel';

type TProspectValues = { person_enrich_settings: TEnrichSettings; company_enrich_settings: TEnrichSettings };

const PHONE_LABELS: Record<TEnrichSettings['phones'], string> = {
  all: 'All phones',
  mobile_only: 'Mobile only',
  fixed_line_only: 'Fixed line only',
  no_phones: 'No phones',
};
const EMAIL_LABELS: Record<TEnrichSettings['emails'], string> = {
  all: 'All emails',
  business_only: 'Business only',
  non_role_only: 'Non-role only',
};
const PHONE_OPTIONS = ZEnrichPhones.options.map((value) => ({ value, label: PHONE_LABELS[value] }));
const EMAIL_OPTIONS = ZEnrichEmails.options.map((value) => ({ value, label: EMAIL_LABELS[value] }));

function EnrichFields({ form, prefix, who }: { form: UseFormReturn<TProspectValues>; prefix: keyof TProspectValues; who: string }) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }}>
      <Controller
        control={form.control}
        name={`${prefix}.phones`}
        render={({ field }) => (
          <Select
            label={`${who} phones`}
            description="Which phone numbers enrichment returns"
            data={PHONE_OPTIONS}
            value={field.value}
            onChange={(value) => value && field.onChange(value)}
            allowDeselect={false}
          />
        )}
      />
      <Controller
        control={form.control}
        name={`${prefix}.emails`}
        render={({ field }) => (
          <Select
            label={`${who} emails`}
            description="Which email addresses enrichment returns"
            data={EMAIL_OPTIONS}
            value={field.value}
            onChange={(value) => value && field.onChange(value)}
            allowDeselect={false}
          />
        )}
      />
    </SimpleGrid>
  );
}

function ProspectDefaultsForm({ settings }: { settings: TOrgDefaultSettings }) {
  const saved = useMemo<TProspectValues>(
    () => ({
      person_enrich_settings: settings.prospect_settings.person_enrich_settings,
      company_enrich_settings: settings.prospect_settings.company_enrich_settings,
    }),
    [settings.prospect_settings],
  );

  return (
    <OrgDefaultsForm section="prospect" saved={saved} successMessage="Members without their own choice now enrich with these defaults.">
      {(form) => (
        <>
          <SettingsPanel
            title="Person enrichment"
            description="What enriching a person (a lead) returns."
            lastModified={settings.prospect_settings.setting_last_modified_on}
          >
            <EnrichFields form={form} prefix="person_enrich_settings" who="Person" />
          </SettingsPanel>
          <SettingsPanel title="Company enrichment" description="What enriching a company returns.">
            <EnrichFields form={form} prefix="company_enrich_settings" who="Company" />
          </SettingsPanel>
        </>
      )}
    </OrgDefaultsForm>
  );
}

/** /admin/prospect: the organisation's prospect enrichment defaults. */
export function AdminProspectScreen() {
  return (
    <OrgSettingsFrame title="Prospect defaults" description="Enrichment settings your members inherit.">
      {(settings) => <ProspectDefaultsForm settings={settings} />}
    </OrgSettingsFrame>
  );
}
