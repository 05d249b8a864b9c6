import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Modal, MultiSelect, Stack, TextInput } from '@mantine/core';
import type { z } from 'zod';
import { ZTeamCreateRequest } from '@verilead/contracts';
import { applyServerErrors } from '../../../lib/form-errors';
import { showToast } from '../../../lib/toast';
import { useCreateTeam, useMembers } from '../api/team-api';
import { FormActions, FormError } from './form-parts';

type TTeamValues = z.input<typeof ZTeamCreateRequest>;

/** Member choices for a team: everyone not removed, labelled with name and e-mail. */
export function useMemberOptions() {
  const members = useMembers({ role: 'all', status: 'all', page: 1, limit: 500 });
  const options = (members.data?.items ?? [])
    .filter((member) => member.status !== 'removed')
    .map((member) => ({ value: member.member_id, label: `${member.name} · ${member.email}` }));
  return { options, isPending: members.isPending };
}

function CreateTeamForm({ onDone }: { onDone: () => void }) {
  const create = useCreateTeam();
  const { options, isPending } = useMemberOptions();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<TTeamValues, unknown, z.output<typeof ZTeamCreateRequest>>({
    resolver: zodResolver(ZTeamCreateRequest),
    defaultValues: { name: '', member_ids: [] },
  });
  const submit = form.handleSubmit(async (body) => {
    setFormError(null);
    try {
      const data = await create.mutateAsync(body);
      showToast({ title: data.message, message: `${data.team.name} has ${data.team.member_count} member(s).`, kind: 'success' });
      onDone();
    } catch (error) {
      setFormError(applyServerErrors(error, form.setError, ['name', 'member_ids']));
    }
  });
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <FormError message={formError} />
        <TextInput label="Team name" data-autofocus error={form.formState.errors.name?.message} {...form.register('name')} />
        <Controller
          control={form.control}
          name="member_ids"
          render={({ field, fieldState }) => (
            <MultiSelect
              label="Members"
              description="Optional. A member belongs to one team: adding moves them from their previous team."
              placeholder={isPending ? 'Loading...' : 'Choose members'}
              data={options}
              value={field.value ?? []}
              onChange={field.onChange}
              searchable
              clearable
              nothingFoundMessage="No member found"
              error={fieldState.error?.message}
              comboboxProps={{ withinPortal: true }}
            />
          )}
        />
        <FormActions onCancel={onDone} submitting={form.formState.isSubmitting} label="Create team" />
      </Stack>
    </form>
  );
}

export function CreateTeamModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  return (
    <Modal opened={opened} onClose={onClose} title="Create team">
      {opened ? <CreateTeamForm onDone={onClose} /> : null}
    </Modal>
  );
}
