import { useState, type ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Anchor, Button, Card, Group, Modal, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconBuilding, IconPencil } from '@tabler/icons-react';
import type { z } from 'zod';
import { ZOrgEditRequest, type TOrganisationSummary } from '@verilead/contracts';
import { formatNumber } from '../../../lib/format';
import { applyServerErrors } from '../../../lib/form-errors';
import { showToast } from '../../../lib/toast';
import { useEditOrganisation } from '../api/team-api';
import { FormActions, FormError } from './form-parts';

type TOrgValues = z.input<typeof ZOrgEditRequest>;
type TOrgDetails = Pick<TOrganisationSummary, 'name' | 'org_website_url' | 'org_tel' | 'credits'>;

function toHref(url: string): string {
  return /^https?:\/\//i.test(url) ? url : `https://${url}`;
}

function EditOrganisationForm({ organisation, onDone }: { organisation: TOrgDetails; onDone: () => void }) {
  const edit = useEditOrganisation();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<TOrgValues, unknown, z.output<typeof ZOrgEditRequest>>({
    resolver: zodResolver(ZOrgEditRequest),
    defaultValues: { name: organisation.name, org_website_url: organisation.org_website_url ?? '', org_tel: organisation.org_tel ?? '' },
  });
  const submit = form.handleSubmit(async (body) => {
    setFormError(null);
    try {
      const data = await edit.mutateAsync(body);
      showToast({ title: data.message, message: `${data.organisation.name} details saved.`, kind: 'success' });
      onDone();
    } catch (error) {
      setFormError(applyServerErrors(error, form.setError, ['name', 'org_website_url', 'org_tel']));
    }
  });
  const errors = form.formState.errors;
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <FormError message={formError} />
        <TextInput label="Organisation name" data-autofocus error={errors.name?.message} {...form.register('name')} />
        <TextInput label="Website" placeholder="https://example.com" error={errors.org_website_url?.message} {...form.register('org_website_url')} />
        <TextInput label="Telephone" type="tel" placeholder="+1 415 555 0100" error={errors.org_tel?.message} {...form.register('org_tel')} />
        <FormActions onCancel={onDone} submitting={form.formState.isSubmitting} label="Save" />
      </Stack>
    </form>
  );
}

function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={2} style={{ minWidth: 0 }}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600} style={{ letterSpacing: 0.4 }}>
        {label}
      </Text>
      {children}
    </Stack>
  );
}

/** The organisation's name, website and telephone, editable (the session follows). */
export function OrganisationCard({ organisation, planName }: { organisation: TOrgDetails; planName: string | null }) {
  const [editing, setEditing] = useState(false);
  return (
    <Card h="100%">
      <Group justify="space-between" mb="sm" wrap="nowrap">
        <Group gap="xs" wrap="nowrap">
          <IconBuilding size={18} color="var(--mantine-color-indigo-6)" />
          <Title order={4} fz={16}>
            Organisation details
          </Title>
        </Group>
        {/* The title wraps on a phone; the button keeps its width (it was cut to "Edit deta"). */}
        <Button variant="subtle" size="xs" leftSection={<IconPencil size={14} />} onClick={() => setEditing(true)} style={{ flexShrink: 0 }}>
          Edit details
        </Button>
      </Group>
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
        <Detail label="Name">
          <Text size="sm" fw={600} data-testid="org-name" style={{ wordBreak: 'break-word' }}>
            {organisation.name}
          </Text>
        </Detail>
        <Detail label="Website">
          {organisation.org_website_url ? (
            <Anchor href={toHref(organisation.org_website_url)} target="_blank" rel="noreferrer" size="sm" style={{ wordBreak: 'break-all' }}>
              {organisation.org_website_url}
            </Anchor>
          ) : (
            <Text size="sm" c="dimmed">
              Not set
            </Text>
          )}
        </Detail>
        <Detail label="Telephone">
          <Text size="sm" c={organisation.org_tel ? undefined : 'dimmed'}>
            {organisation.org_tel ?? 'Not set'}
          </Text>
        </Detail>
        <Detail label="Shared credits">
          <Text size="sm">{formatNumber(organisation.credits)}</Text>
        </Detail>
        <Detail label="Plan">
          <Text size="sm">{planName ?? '-'}</Text>
        </Detail>
      </SimpleGrid>
      <Modal opened={editing} onClose={() => setEditing(false)} title="Organisation details">
        {editing ? <EditOrganisationForm organisation={organisation} onDone={() => setEditing(false)} /> : null}
      </Modal>
    </Card>
  );
}
