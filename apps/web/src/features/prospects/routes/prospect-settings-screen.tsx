import { Card, Select, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ZEnrichEmails, ZEnrichPhones, ZProspectSettings, ZUserPreferences, type TEnrichSettings, type TProspectEnrichRequest } from '@verilead/contracts';
import { ErrorState } from '../../../components/state-views';
import { LoadingScreen } from '../../../components/loading-screen';
import { PageHeader } from '../../../components/page-header';
import { requestApi } from '../../../lib/api-client';
import { getErrorMessage } from '../../../lib/api-error';
import { formatDateTime } from '../../../lib/format';
import { showToast } from '../../../lib/toast';
import { userQueryKeys, useUserPreferences } from '../../../lib/user-queries';

const PHONES: Record<TEnrichSettings['phones'], string> = { all: 'All phones', mobile_only: 'Mobile only', fixed_line_only: 'Fixed line only', no_phones: 'No phones' };
const EMAILS: Record<TEnrichSettings['emails'], string> = { all: 'All emails', business_only: 'Business only', non_role_only: 'Non-role only' };

/** /settings/prospect: the member's enrich options (inherited from the organisation's defaults until changed). */
export function ProspectSettingsScreen() {
  const preferences = useUserPreferences();
  const queryClient = useQueryClient();
  const update = useMutation({
    mutationFn: (body: TProspectEnrichRequest) => requestApi({ method: 'PUT', path: '/user_preferences/prospect_settings/enrich', body, schema: ZProspectSettings }),
    onSuccess: (settings) => {
      queryClient.setQueryData(userQueryKeys.preferences, (current: unknown) => {
        const parsed = ZUserPreferences.safeParse(current);
        return parsed.success ? { ...parsed.data, prospect_settings: settings } : current;
      });
      showToast({ title: 'Settings saved', message: 'Enrich options updated.', kind: 'success' });
    },
    onError: (error) => showToast({ title: 'Could not save', message: getErrorMessage(error), kind: 'error' }),
  });
  if (preferences.isPending) return <LoadingScreen />;
  if (preferences.isError) return <ErrorState error={preferences.error} onRetry={() => void preferences.refetch()} />;
  const s = preferences.data.prospect_settings;
  const section = (key: 'person_enrich_settings' | 'company_enrich_settings', title: string) => (
    <Card padding="lg" key={key}>
      <Title order={4} fz={16} mb="sm">
        {title}
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Select
          label="Phones"
          allowDeselect={false}
          data={ZEnrichPhones.options.map((v) => ({ value: v, label: PHONES[v] }))}
          value={s[key].phones}
          onChange={(v) => v && update.mutate({ [key]: { ...s[key], phones: v as TEnrichSettings['phones'] } })}
        />
        <Select
          label="Emails"
          allowDeselect={false}
          data={ZEnrichEmails.options.map((v) => ({ value: v, label: EMAILS[v] }))}
          value={s[key].emails}
          onChange={(v) => v && update.mutate({ [key]: { ...s[key], emails: v as TEnrichSettings['emails'] } })}
        />
      </SimpleGrid>
    </Card>
  );
  return (
    <>
      <PageHeader title="Prospect settings" description="What enrichment reveals (and charges): only the kinds of e-mails and phones chosen here." />
      <Stack gap="lg" maw={860}>
        <Text size="xs" c="dimmed">
          Last modified: {s.setting_last_modified_on ? formatDateTime(s.setting_last_modified_on) : 'never (your organisation’s defaults)'}
        </Text>
        {section('person_enrich_settings', 'People')}
        {section('company_enrich_settings', 'Companies')}
      </Stack>
    </>
  );
}
