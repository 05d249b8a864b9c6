import { Stack } from '@mantine/core';
import { ErrorState } from '../../../components/state-views';
import { LoadingScreen } from '../../../components/loading-screen';
import { PageHeader } from '../../../components/page-header';
import { useSessionStore } from '../../../lib/session-store';
import { useCreditsAndLimits } from '../../../lib/user-queries';
import { LowCreditAlertForm } from '../components/low-credit-alert-form';
import { DataRetentionCard } from '../components/data-retention-card';
import { OrganisationDataCard } from '../components/organisation-data-card';
import { SupportAccessCard } from '../components/support-access-card';
import { useDataRetention } from '../api/privacy-api';

/**
 * /settings: general settings: the low-credit alerts (own, and the organisation's for owners and managers); for the
 * owner, data retention and the organisation's data (export, deletion).
 */
export function SettingsScreen() {
  const credits = useCreditsAndLimits();
  const role = useSessionStore((state) => state.user_role);
  const retention = useDataRetention(role === 'owner');

  return (
    <>
      <PageHeader title="Settings" description="Notifications and preferences for your account." />
      {credits.isPending ? <LoadingScreen /> : null}
      {credits.isError ? <ErrorState error={credits.error} onRetry={() => void credits.refetch()} /> : null}
      {credits.data ? (
        <Stack gap="lg" maw={760}>
          <LowCreditAlertForm
            scope="user"
            value={credits.data.low_credit_alert}
            title="Low credit alert"
            description="Get an e-mail before you run out of credits, so jobs do not stop half-way."
          />
          {role === 'owner' || role === 'admin' ? (
            <LowCreditAlertForm
              scope="admin"
              value={credits.data.org_low_credit_alert}
              title="Organisation low credit alert"
              description="Alert for the shared balance of your organisation."
            />
          ) : null}
          {role === 'owner' ? <DataRetentionCard /> : null}
          {role === 'owner' ? <SupportAccessCard /> : null}
          {role === 'owner' ? <OrganisationDataCard organisationName={retention.data?.organisation_name ?? null} /> : null}
        </Stack>
      ) : null}
    </>
  );
}
