import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Card, Group, Modal, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconAlertCircle, IconDownload, IconTrash } from '@tabler/icons-react';
import { ZOrganisationDeleteRequest, type TOrganisationDeleteRequest } from '@verilead/contracts';
import { usePreparedDownload } from '../../../components/use-prepared-download';
import { setFlashNotice } from '../../../lib/flash-notice';
import { applyServerErrors } from '../../../lib/form-errors';
import { queryClient } from '../../../lib/query-client';
import { useSessionStore } from '../../../lib/session-store';
import { requestOrganisationExport, useDeleteOrganisation } from '../api/privacy-api';

/** The owner's privacy actions: export all of the organisation's data, and delete the organisation. */
export function OrganisationDataCard({ organisationName }: { organisationName: string | null }) {
  const prepared = usePreparedDownload();
  const [deleting, setDeleting] = useState(false);

  return (
    <Card aria-labelledby="organisation-data-title">
      <Stack gap="md">
        <Stack gap={2}>
          <Title order={4} fz={16} id="organisation-data-title">
            Your organisation&apos;s data
          </Title>
          <Text size="sm" c="dimmed">
            Export everything the organisation holds (lists, results, credits ledger, settings) as a JSON lines file, or delete the organisation for good.
          </Text>
        </Stack>
        {prepared.error ? (
          <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} role="alert">
            {prepared.error}
          </Alert>
        ) : null}
        {prepared.ready ? (
          <Alert color="teal" variant="light">
            Your export is ready:{' '}
            <a href={prepared.ready.download_url ?? undefined} download={prepared.ready.file_name}>
              {prepared.ready.file_name}
            </a>
          </Alert>
        ) : null}
        <Group>
          <Button leftSection={<IconDownload size={16} />} variant="light" loading={prepared.busy} onClick={() => void prepared.run((signal) => requestOrganisationExport(signal))}>
            Export all data
          </Button>
          <Button leftSection={<IconTrash size={16} />} color="red" variant="outline" onClick={() => setDeleting(true)}>
            Delete organisation
          </Button>
        </Group>
      </Stack>
      {prepared.blockedModal}
      <DeleteOrganisationModal opened={deleting} onClose={() => setDeleting(false)} organisationName={organisationName} />
    </Card>
  );
}

function DeleteOrganisationModal({ opened, onClose, organisationName }: { opened: boolean; onClose: () => void; organisationName: string | null }) {
  const remove = useDeleteOrganisation();
  const logout = useSessionStore((state) => state.logout);
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<TOrganisationDeleteRequest>({ resolver: zodResolver(ZOrganisationDeleteRequest), defaultValues: { password: '', organisation_name: '' } });
  const submit = form.handleSubmit(async (values) => {
    setFormError(null);
    try {
      await remove.mutateAsync(values);
      setFlashNotice('Your organisation and all its data have been deleted.');
      logout();
      queryClient.clear();
      window.location.replace('/login');
    } catch (error) {
      setFormError(applyServerErrors(error, form.setError, ['password', 'organisation_name']));
    }
  });
  return (
    <Modal opened={opened} onClose={onClose} title="Delete the organisation" centered>
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <Text size="sm">
            Every list, result, file, member, app and ledger entry of the organisation is deleted at once and cannot be recovered. Members who belong to no
            other organisation lose their login.
          </Text>
          {formError ? (
            <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} role="alert">
              {formError}
            </Alert>
          ) : null}
          <TextInput
            label="Type the organisation name"
            description={organisationName ? `It is "${organisationName}".` : undefined}
            error={form.formState.errors.organisation_name?.message}
            {...form.register('organisation_name')}
          />
          <PasswordInput label="Your password" autoComplete="current-password" error={form.formState.errors.password?.message} {...form.register('password')} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" color="red" loading={form.formState.isSubmitting}>
              Delete for good
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
