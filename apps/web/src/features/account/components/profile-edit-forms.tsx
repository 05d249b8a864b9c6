import { useMemo, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Group, PasswordInput, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { IconAlertCircle, IconMailForward } from '@tabler/icons-react';
import { z } from 'zod';
import {
  ZAddressEditRequest,
  ZEmailEditRequest,
  ZNameEditRequest,
  ZPasswordEditRequest,
  ZPhoneEditRequest,
  ZTimezoneEditRequest,
  currentTimezoneName,
  listTimezoneOptions,
  type TAddress,
} from '@verilead/contracts';
import { applyServerErrors } from '../../../lib/form-errors';
import { showToast } from '../../../lib/toast';
import { useEmailEdit, usePasswordEdit, useProfileEdit } from '../api/account-api';

type TDone = { onDone: () => void };

function FormError({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} role="alert">
      {message}
    </Alert>
  );
}

function FormActions({ onCancel, submitting, label = 'Save' }: { onCancel: () => void; submitting: boolean; label?: string }) {
  return (
    <Group justify="flex-end" mt="xs">
      <Button variant="default" onClick={onCancel}>
        Cancel
      </Button>
      <Button type="submit" loading={submitting}>
        {label}
      </Button>
    </Group>
  );
}

export function EditNameForm({ name, onDone }: TDone & { name: string }) {
  const edit = useProfileEdit();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<z.input<typeof ZNameEditRequest>, unknown, z.output<typeof ZNameEditRequest>>({
    resolver: zodResolver(ZNameEditRequest),
    defaultValues: { name },
  });
  const submit = form.handleSubmit(async (body) => {
    try {
      await edit.mutateAsync({ path: '/user/name/edit', body });
      showToast({ title: 'Name updated', message: `Your name is now ${body.name}.`, kind: 'success' });
      onDone();
    } catch (error) {
      setFormError(applyServerErrors(error, form.setError, ['name']));
    }
  });
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <FormError message={formError} />
        <TextInput label="Full name" autoComplete="name" data-autofocus error={form.formState.errors.name?.message} {...form.register('name')} />
        <FormActions onCancel={onDone} submitting={form.formState.isSubmitting} />
      </Stack>
    </form>
  );
}

export function EditEmailForm({ email, onDone }: TDone & { email: string }) {
  const edit = useEmailEdit();
  const [formError, setFormError] = useState<string | null>(null);
  const [pending, setPending] = useState<string | null>(null);
  const form = useForm<z.input<typeof ZEmailEditRequest>, unknown, z.output<typeof ZEmailEditRequest>>({
    resolver: zodResolver(ZEmailEditRequest),
    defaultValues: { email: '', password: '' },
  });
  const submit = form.handleSubmit(async (body) => {
    try {
      const data = await edit.mutateAsync(body);
      setPending(data.pending_email);
    } catch (error) {
      setFormError(applyServerErrors(error, form.setError, ['email', 'password']));
    }
  });
  if (pending) {
    return (
      <Stack gap="md">
        <Alert color="indigo" variant="light" icon={<IconMailForward size={18} />} role="status" title="Confirm your new address">
          We sent a confirmation link to <strong>{pending}</strong>. Your login email stays {email} until you open that link.
        </Alert>
        <Group justify="flex-end">
          <Button onClick={onDone}>Done</Button>
        </Group>
      </Stack>
    );
  }
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <FormError message={formError} />
        <Text size="sm" c="dimmed">
          Current email: {email}. The new address must be re-verified: we will send a link to it, and the change applies once you
          open it.
        </Text>
        <TextInput label="New email" type="email" autoComplete="email" data-autofocus error={form.formState.errors.email?.message} {...form.register('email')} />
        <PasswordInput
          label="Current password"
          autoComplete="current-password"
          error={form.formState.errors.password?.message}
          {...form.register('password')}
        />
        <FormActions onCancel={onDone} submitting={form.formState.isSubmitting} label="Send confirmation link" />
      </Stack>
    </form>
  );
}

export function EditPhoneForm({ phone, onDone }: TDone & { phone: string | null }) {
  const edit = useProfileEdit();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<z.input<typeof ZPhoneEditRequest>, unknown, z.output<typeof ZPhoneEditRequest>>({
    resolver: zodResolver(ZPhoneEditRequest),
    defaultValues: { phone_number: phone ?? '' },
  });
  const submit = form.handleSubmit(async (body) => {
    try {
      await edit.mutateAsync({ path: '/user/phone/edit', body });
      showToast({ title: 'Phone updated', message: 'Your phone number has been saved.', kind: 'success' });
      onDone();
    } catch (error) {
      setFormError(applyServerErrors(error, form.setError, ['phone_number']));
    }
  });
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <FormError message={formError} />
        <TextInput
          label="Phone number"
          type="tel"
          autoComplete="tel"
          placeholder="+1 415 555 0100"
          data-autofocus
          error={form.formState.errors.phone_number?.message}
          {...form.register('phone_number')}
        />
        <FormActions onCancel={onDone} submitting={form.formState.isSubmitting} />
      </Stack>
    </form>
  );
}

const EMPTY_ADDRESS: TAddress = { line1: '', line2: '', city: '', state: '', postal_code: '', country: '' };

export function EditAddressForm({ address, onDone }: TDone & { address: TAddress | null }) {
  const edit = useProfileEdit();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<z.input<typeof ZAddressEditRequest>, unknown, z.output<typeof ZAddressEditRequest>>({
    resolver: zodResolver(ZAddressEditRequest),
    defaultValues: { address: { ...EMPTY_ADDRESS, ...address } },
  });
  const errors = form.formState.errors.address;
  const submit = form.handleSubmit(async (body) => {
    try {
      await edit.mutateAsync({ path: '/user/address/edit', body });
      showToast({ title: 'Address updated', message: 'Your address has been saved.', kind: 'success' });
      onDone();
    } catch (error) {
      setFormError(applyServerErrors(error, form.setError, []));
    }
  });
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <FormError message={formError} />
        <TextInput label="Address line 1" autoComplete="address-line1" data-autofocus error={errors?.line1?.message} {...form.register('address.line1')} />
        <TextInput label="Address line 2" autoComplete="address-line2" error={errors?.line2?.message} {...form.register('address.line2')} />
        <SimpleGrid cols={2}>
          <TextInput label="City" autoComplete="address-level2" error={errors?.city?.message} {...form.register('address.city')} />
          <TextInput label="State / region" autoComplete="address-level1" error={errors?.state?.message} {...form.register('address.state')} />
          <TextInput label="Postal code" autoComplete="postal-code" error={errors?.postal_code?.message} {...form.register('address.postal_code')} />
          <TextInput label="Country" autoComplete="country-name" error={errors?.country?.message} {...form.register('address.country')} />
        </SimpleGrid>
        <FormActions onCancel={onDone} submitting={form.formState.isSubmitting} />
      </Stack>
    </form>
  );
}

export function EditTimezoneForm({ timezone, onDone }: TDone & { timezone: string | null }) {
  const edit = useProfileEdit();
  const zones = useMemo(listTimezoneOptions, []);
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<z.input<typeof ZTimezoneEditRequest>, unknown, z.output<typeof ZTimezoneEditRequest>>({
    resolver: zodResolver(ZTimezoneEditRequest),
    defaultValues: { timezone: currentTimezoneName(timezone ?? Intl.DateTimeFormat().resolvedOptions().timeZone) },
  });
  const submit = form.handleSubmit(async (body) => {
    try {
      await edit.mutateAsync({ path: '/user/timezone/edit', body });
      showToast({ title: 'Timezone updated', message: `Dates now show in ${body.timezone}.`, kind: 'success' });
      onDone();
    } catch (error) {
      setFormError(applyServerErrors(error, form.setError, ['timezone']));
    }
  });
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <FormError message={formError} />
        <Controller
          control={form.control}
          name="timezone"
          render={({ field, fieldState }) => (
            <Select
              label="Timezone"
              searchable
              data={zones}
              value={field.value}
              onChange={(value) => field.onChange(value ?? '')}
              onBlur={field.onBlur}
              error={fieldState.error?.message}
              nothingFoundMessage="No matching timezone"
              comboboxProps={{ withinPortal: true }}
              maxDropdownHeight={260}
            />
          )}
        />
        <FormActions onCancel={onDone} submitting={form.formState.isSubmitting} />
      </Stack>
    </form>
  );
}

/** The change-password request plus a confirmation that must match the new password. */
const ZPasswordEditForm = ZPasswordEditRequest.extend({
  confirm_password: z.string().min(1, { message: 'Please confirm the new password' }),
}).refine((value) => value.new_password === value.confirm_password, { path: ['confirm_password'], message: 'Passwords do not match' });

export function EditPasswordForm({ onDone }: TDone) {
  const edit = usePasswordEdit();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<z.input<typeof ZPasswordEditForm>, unknown, z.output<typeof ZPasswordEditForm>>({
    resolver: zodResolver(ZPasswordEditForm),
    defaultValues: { current_password: '', new_password: '', confirm_password: '' },
  });
  const submit = form.handleSubmit(async ({ current_password, new_password }) => {
    try {
      await edit.mutateAsync({ current_password, new_password });
      showToast({ title: 'Password changed', message: 'Use your new password the next time you log in.', kind: 'success' });
      onDone();
    } catch (error) {
      setFormError(applyServerErrors(error, form.setError, ['current_password', 'new_password']));
    }
  });
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <FormError message={formError} />
        <PasswordInput
          label="Current password"
          autoComplete="current-password"
          data-autofocus
          error={form.formState.errors.current_password?.message}
          {...form.register('current_password')}
        />
        <PasswordInput
          label="New password"
          autoComplete="new-password"
          description="At least 8 characters, with an upper-case letter, a lower-case letter and a digit."
          error={form.formState.errors.new_password?.message}
          {...form.register('new_password')}
        />
        <PasswordInput
          label="Confirm new password"
          autoComplete="new-password"
          error={form.formState.errors.confirm_password?.message}
          {...form.register('confirm_password')}
        />
        <FormActions onCancel={onDone} submitting={form.formState.isSubmitting} label="Change password" />
      </Stack>
    </form>
  );
}
