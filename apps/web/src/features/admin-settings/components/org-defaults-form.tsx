import { useState, type ReactNode } from 'react';
import { Controller, useForm, type Control, type FieldPathByValue, type FieldValues, type UseFormReturn } from 'react-hook-form';
import { Stack, Switch } from '@mantine/core';
import { getErrorMessage } from '../../../lib/api-error';
import { showToast } from '../../../lib/toast';
import { useUpdateOrgDefaultSettings, type TOrgSettingsChange } from '../api/admin-settings-api';
import { pickChangedFields } from '../utils/changed-fields';
import { SettingsFormFooter } from './settings-form-footer';

/** A form over one section of the organisation defaults: sends only the changed fields, toasts, and offers save / discard. */
export function OrgDefaultsForm<TValues extends FieldValues>({
  section,
  saved,
  successMessage,
  children,
}: {
  section: TOrgSettingsChange['section'];
  saved: TValues;
  successMessage: string;
  children: (form: UseFormReturn<TValues>) => ReactNode;
}) {
  const update = useUpdateOrgDefaultSettings();
  const [error, setError] = useState<string | null>(null);
  const form = useForm<TValues>({ values: saved });
  const submit = form.handleSubmit(async (values) => {
    setError(null);
    const body = pickChangedFields(saved, values);
    if (Object.keys(body).length === 0) return;
    try {
      const data = await update.mutateAsync({ section, body } as TOrgSettingsChange);
      showToast({ title: data.message, message: successMessage, kind: 'success' });
    } catch (failure) {
      setError(getErrorMessage(failure));
    }
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="lg">
        {children(form)}
        <SettingsFormFooter dirty={form.formState.isDirty} submitting={form.formState.isSubmitting} error={error} onReset={() => form.reset(saved)} />
      </Stack>
    </form>
  );
}

/** An on/off default bound to a form field. */
export function SwitchField<TValues extends FieldValues>({
  control,
  name,
  label,
  description,
}: {
  control: Control<TValues>;
  name: FieldPathByValue<TValues, boolean>;
  label: string;
  description: string;
}) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => <Switch label={label} description={description} checked={field.value} onChange={(event) => field.onChange(event.currentTarget.checked)} />}
    />
  );
}
