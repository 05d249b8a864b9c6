import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Card, Checkbox, Group, List, PasswordInput, Select, Stack, Text, Textarea, ThemeIcon, Title } from '@mantine/core';
import { IconAlertCircle, IconAlertTriangle } from '@tabler/icons-react';
import type { z } from 'zod';
import { DELETION_REASON_LABELS, ZDeleteAccountRequest, ZDeletionReason } from '@verilead/contracts';
import { PageHeader } from '../../../components/page-header';
import { setFlashNotice } from '../../../lib/flash-notice';
import { applyServerErrors } from '../../../lib/form-errors';
import { useSessionStore } from '../../../lib/session-store';
import { queryClient } from '../../../lib/query-client';
import { useDeleteAccount } from '../api/account-api';

type TDeleteForm = z.input<typeof ZDeleteAccountRequest>;

const REASON_OPTIONS = ZDeletionReason.options.map((value) => ({ value, label: DELETION_REASON_LABELS[value] }));

/** PATCH /user/account: owner only; data is erased and the login stops working. */
export function DeleteAccountScreen() {
  const remove = useDeleteAccount();
  const logout = useSessionStore((state) => state.logout);
  const [confirmed, setConfirmed] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<TDeleteForm, unknown, z.output<typeof ZDeleteAccountRequest>>({
    resolver: zodResolver(ZDeleteAccountRequest),
    defaultValues: { reason: undefined, reason_other: '', password: '' },
  });
  const reason = form.watch('reason');

  const submit = form.handleSubmit(async (values) => {
    setFormError(null);
    try {
      await remove.mutateAsync({ ...values, reason_other: values.reason === 'others' ? values.reason_other : undefined });
      setFlashNotice('Your account has been deleted. We are sorry to see you go.');
      logout();
      queryClient.clear();
      // A fresh load of /login: nothing of the deleted account stays in memory.
      window.location.replace('/login');
    } catch (error) {
      setFormError(applyServerErrors(error, form.setError, ['reason', 'reason_other', 'password']));
    }
  });

  return (
    <>
      <PageHeader title="Delete account" description="Permanently close your Verilead account." />
      <Card maw={720} style={{ borderColor: 'var(--mantine-color-red-3)' }}>
        <Stack gap="lg">
          <Group gap="md" wrap="nowrap" align="flex-start">
            <ThemeIcon color="red" variant="light" size={44} radius="xl">
              <IconAlertTriangle size={24} />
            </ThemeIcon>
            <Stack gap={4}>
              <Title order={4} fz={17} c="red.8">
                This cannot be undone
              </Title>
              <List size="sm" c="dimmed" spacing={2}>
                <List.Item>Your profile, lists, results and API keys are erased or anonymised.</List.Item>
                <List.Item>Remaining credits are forfeited and team members lose access.</List.Item>
                <List.Item>You will be logged out and can no longer log in with this account.</List.Item>
              </List>
            </Stack>
          </Group>
          <form onSubmit={submit} noValidate>
            <Stack gap="md">
              {formError ? (
                <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} role="alert">
                  {formError}
                </Alert>
              ) : null}
              <Controller
                control={form.control}
                name="reason"
                render={({ field, fieldState }) => (
                  <Select
                    label="Why are you leaving?"
                    placeholder="Choose a reason"
                    data={REASON_OPTIONS}
                    value={field.value ?? null}
                    onChange={(value) => field.onChange(value ?? undefined)}
                    onBlur={field.onBlur}
                    error={fieldState.error?.message}
                    allowDeselect={false}
                  />
                )}
              />
              {reason === 'others' ? (
                <Textarea
                  label="Tell us more"
                  autosize
                  minRows={3}
                  error={form.formState.errors.reason_other?.message}
                  {...form.register('reason_other')}
                />
              ) : null}
              <PasswordInput
                label="Confirm with your password"
                autoComplete="current-password"
                error={form.formState.errors.password?.message}
                {...form.register('password')}
              />
              <Checkbox
                color="red"
                checked={confirmed}
                onChange={(event) => setConfirmed(event.currentTarget.checked)}
                label="I understand that my account and its data will be permanently deleted."
              />
              <Group justify="flex-end">
                <Button type="submit" color="red" disabled={!confirmed} loading={form.formState.isSubmitting}>
                  Delete my account
                </Button>
              </Group>
              <Text size="xs" c="dimmed">
                Only the organisation owner can delete the account.
              </Text>
            </Stack>
          </form>
        </Stack>
      </Card>
    </>
  );
}
