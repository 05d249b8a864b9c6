import type { ReactNode } from 'react';
import { Alert, Stack } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import type { TOrgDefaultSettings } from '@verilead/contracts';
import { ErrorState } from '../../../components/state-views';
import { LoadingScreen } from '../../../components/loading-screen';
import { PageHeader } from '../../../components/page-header';
import { useOrgDefaultSettings } from '../api/admin-settings-api';

/** Header, the inheritance note and the loading / error states around one admin settings screen. */
export function OrgSettingsFrame({
  title,
  description,
  children,
}: {
  title: string;
  description: string;
  children: (settings: TOrgDefaultSettings) => ReactNode;
}) {
  const settings = useOrgDefaultSettings();
  return (
    <>
      <PageHeader title={title} description={description} />
      <Stack gap="lg" maw={820}>
        <Alert variant="light" color="indigo" icon={<IconInfoCircle size={18} />}>
          These are your organisation's defaults. Every member starts with them and keeps them until they change the setting in
          their own settings.
        </Alert>
        {settings.isPending ? <LoadingScreen /> : null}
        {settings.isError ? <ErrorState error={settings.error} onRetry={() => void settings.refetch()} /> : null}
        {settings.data ? children(settings.data) : null}
      </Stack>
    </>
  );
}
