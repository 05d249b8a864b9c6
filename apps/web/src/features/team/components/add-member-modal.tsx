import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Modal, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { IconArmchair2 } from '@tabler/icons-react';
import type { z } from 'zod';
import { ASSIGNABLE_ROLES, ROLE_LABELS, TEAM_MESSAGES, ZMemberAddRequest, type TSeats } from '@verilead/contracts';
import { applyServerErrors } from '../../../lib/form-errors';
import { showToast } from '../../../lib/toast';
import { useAddMember, useTeams } from '../api/team-api';
import { CreditLimitInput } from './credit-limit-input';
import { FormActions, FormError } from './form-parts';

type TAddValues = z.input<typeof ZMemberAddRequest>;

const ROLE_OPTIONS = ASSIGNABLE_ROLES.map((role) => ({ value: role, label: ROLE_LABELS[role] }));
const ROLE_HINTS = {
  admin: 'Managers administer members and see team analytics.',
  analyst: 'Executives use the product; no admin menus.',
} as const;

function AddMemberForm({ seats, onDone, onRequestSeats }: { seats: TSeats; onDone: () => void; onRequestSeats: () => void }) {
  const add = useAddMember();
  const teams = useTeams({ page: 1, limit: 500 });
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<TAddValues, unknown, z.output<typeof ZMemberAddRequest>>({
    resolver: zodResolver(ZMemberAddRequest),
    defaultValues: { email: '', role: 'analyst', name: undefined, daily_limit: null, life_time_limit: null },
  });
  const role = form.watch('role');
  const noSeats = seats.available === 0;

  const submit = form.handleSubmit(async (body) => {
    setFormError(null);
    try {
      const data = await add.mutateAsync(body);
      showToast({ title: data.message, message: `An invitation to set a password was sent to ${data.member.email}.`, kind: 'success' });
      onDone();
    } catch (error) {
      setFormError(applyServerErrors(error, form.setError, ['email', 'name', 'role', 'team_id', 'daily_limit', 'life_time_limit']));
    }
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        {noSeats ? (
          <Alert color="orange" variant="light" icon={<IconArmchair2 size={18} />} title="No free seat" role="alert">
            <Stack gap="xs" align="flex-start">
              <Text size="sm">{TEAM_MESSAGES.seatLimitReached}</Text>
              <Button size="xs" variant="white" color="orange" onClick={onRequestSeats}>
                Request more seats
              </Button>
            </Stack>
          </Alert>
        ) : (
          <Text size="sm" c="dimmed">
            {seats.available} of {seats.limit} seats free. The new member gets an e-mail with a link to set a password.
          </Text>
        )}
        <FormError message={formError} />
        <TextInput label="Email" type="email" autoComplete="off" data-autofocus error={form.formState.errors.email?.message} {...form.register('email')} />
        <TextInput
          label="Name"
          description="Optional; the member can change it later."
          error={form.formState.errors.name?.message}
          {...form.register('name', { setValueAs: (value: string) => (value.trim() === '' ? undefined : value) })}
        />
        <SimpleGrid cols={{ base: 1, xs: 2 }}>
          <Controller
            control={form.control}
            name="role"
            render={({ field, fieldState }) => (
              <Select
                label="Role"
                data={ROLE_OPTIONS}
                value={field.value}
                onChange={(value) => value && field.onChange(value)}
                allowDeselect={false}
                error={fieldState.error?.message}
                description={ROLE_HINTS[role]}
              />
            )}
          />
          <Controller
            control={form.control}
            name="team_id"
            render={({ field, fieldState }) => (
              <Select
                label="Team"
                placeholder={teams.data && teams.data.total === 0 ? 'No teams yet' : 'No team'}
                data={(teams.data?.items ?? []).map((team) => ({ value: team.id, label: team.name }))}
                value={field.value ?? null}
                onChange={(value) => field.onChange(value ?? undefined)}
                clearable
                error={fieldState.error?.message}
                description="Optional"
              />
            )}
          />
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, xs: 2 }}>
          <Controller
            control={form.control}
            name="daily_limit"
            render={({ field, fieldState }) => (
              <CreditLimitInput
                label="Daily credit limit"
                description="Empty for unlimited"
                value={field.value}
                onChange={field.onChange}
                error={fieldState.error?.message}
              />
            )}
          />
          <Controller
            control={form.control}
            name="life_time_limit"
            render={({ field, fieldState }) => (
              <CreditLimitInput
                label="Lifetime credit limit"
                description="Empty for unlimited"
                value={field.value}
                onChange={field.onChange}
                error={fieldState.error?.message}
              />
            )}
          />
        </SimpleGrid>
        <FormActions onCancel={onDone} submitting={form.formState.isSubmitting} label="Add member" disabled={noSeats} />
      </Stack>
    </form>
  );
}

/** "Add member": e-mail, name, role (Manager or Executive), team and optional limits. */
export function AddMemberModal({
  opened,
  seats,
  onClose,
  onRequestSeats,
}: {
  opened: boolean;
  seats: TSeats;
  onClose: () => void;
  onRequestSeats: () => void;
}) {
  return (
    <Modal opened={opened} onClose={onClose} title="Add member" size="lg">
      {opened ? <AddMemberForm seats={seats} onDone={onClose} onRequestSeats={onRequestSeats} /> : null}
    </Modal>
  );
}
