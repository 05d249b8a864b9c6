import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Card, Group, NumberInput, Stack, Switch, Text, Title } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { ZLowCreditAlertUpdateRequest, type TLowCreditAlert, type TLowCreditAlertUpdateRequest } from '@verilead/contracts';
import { applyServerErrors } from '../../../lib/form-errors';
import { showToast } from '../../../lib/toast';
import { useLowCreditAlertUpdate } from '../api/settings-api';

/** The low-credit e-mail alert: on/off and the balance that triggers it. */
export function LowCreditAlertForm({
  scope,
  value,
  title,
  description,
}: {
  scope: 'user' | 'admin';
  value: TLowCreditAlert;
  title: string;
  description: string;
}) {
  const update = useLowCreditAlertUpdate(scope);
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<TLowCreditAlertUpdateRequest>({
    resolver: zodResolver(ZLowCreditAlertUpdateRequest),
    defaultValues: value,
  });
  const enabled = form.watch('enabled');
  const submit = form.handleSubmit(async (body) => {
    setFormError(null);
    try {
      const saved = await update.mutateAsync(body);
      form.reset(saved);
      showToast({ title: 'Alert saved', message: saved.enabled ? `We will e-mail you below ${saved.threshold} credits.` : 'Low-credit alert turned off.', kind: 'success' });
    } catch (error) {
      setFormError(applyServerErrors(error, form.setError, ['enabled', 'threshold']));
    }
  });
  const idPrefix = `${scope}-low-credit`;

  return (
    <Card>
      <form onSubmit={submit} noValidate aria-labelledby={`${idPrefix}-title`}>
        <Stack gap="md">
          <Stack gap={2}>
            <Title order={4} fz={16} id={`${idPrefix}-title`}>
              {title}
            </Title>
            <Text size="sm" c="dimmed">
              {description}
            </Text>
          </Stack>
          {formError ? (
            <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} role="alert">
              {formError}
            </Alert>
          ) : null}
          <Controller
            control={form.control}
            name="enabled"
            render={({ field }) => (
              <Switch
                label={scope === 'admin' ? 'Alert me when the organisation balance is low' : 'Alert me when my balance is low'}
                checked={field.value}
                onChange={(event) => field.onChange(event.currentTarget.checked)}
              />
            )}
          />
          <Controller
            control={form.control}
            name="threshold"
            render={({ field, fieldState }) => (
              <NumberInput
                label={scope === 'admin' ? 'Organisation credits threshold' : 'Credits threshold'}
                description="An e-mail is sent when the balance drops below this number."
                min={0}
                max={100_000_000}
                step={100}
                thousandSeparator=","
                allowDecimal={false}
                allowNegative={false}
                disabled={!enabled}
                value={field.value}
                onChange={(next) => field.onChange(typeof next === 'number' ? next : 0)}
                error={fieldState.error?.message}
                maw={320}
              />
            )}
          />
          <Group>
            <Button type="submit" loading={form.formState.isSubmitting} disabled={!form.formState.isDirty}>
              Save alert
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
