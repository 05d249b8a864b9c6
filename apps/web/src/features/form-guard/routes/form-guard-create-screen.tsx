import { useNavigate } from 'react-router';
import { Alert, Stack } from '@mantine/core';
import { buildDefaultFormGuardSettings } from '@verilead/contracts';
import { PageHeader } from '../../../components/page-header';
import { getErrorMessage } from '../../../lib/api-error';
import { useCreateFormGuard } from '../api/form-guard-api';
import { FormGuardSettingsForm } from '../components/form-guard-settings-form';

/** A new guard: a client app with form guard settings; its token is shown once, on the next screen. */
export function FormGuardCreateScreen() {
  const create = useCreateFormGuard();
  const navigate = useNavigate();
  return (
    <>
      <PageHeader title="New form guard" description="Choose what to check; the next page gives you the snippet to paste in your site." />
      <Stack gap="lg">
        {create.isError ? (
          <Alert color="red" variant="light" role="alert">
            {getErrorMessage(create.error)}
          </Alert>
        ) : null}
        <FormGuardSettingsForm
          initial={{ name: '', allowed_origins: [], settings: buildDefaultFormGuardSettings() }}
          submitLabel="Create form guard"
          pending={create.isPending}
          onSubmit={(v) =>
            void create
              .mutateAsync({ name: v.name, type: 'client', allowed_origins: v.allowed_origins, form_guard: v.settings, description: 'Form guard' })
              .then((app) => navigate(`/form-guard/${app.id}`, { state: { token: app.token } }))
          }
        />
      </Stack>
    </>
  );
}
