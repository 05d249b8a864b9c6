import { useMemo, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Divider, List, Modal, Select, SimpleGrid, Stack, Switch, Text, TextInput, ThemeIcon } from '@mantine/core';
import { IconAlertTriangle, IconInfoCircle } from '@tabler/icons-react';
import { z } from 'zod';
import { ASSIGNABLE_ROLES, ROLE_LABELS, ZAssignableRole, ZCreditLimitValue, ZPersonName, type TMember } from '@verilead/contracts';
import { formatNumber } from '../../../lib/format';
import { applyServerErrors } from '../../../lib/form-errors';
import { showToast } from '../../../lib/toast';
import { useEditMember, useTeams } from '../api/team-api';
import {
  buildMemberEditRequest,
  createMemberDraft,
  describeLimitEffects,
  describePendingDailyLimit,
  validateLimitDraft,
  type TMemberDraft,
} from '../utils/limit-rules';
import { CreditLimitInput } from './credit-limit-input';
import { FormActions, FormError } from './form-parts';

const ZEditForm = z
  .object({
    name: ZPersonName,
    role: ZAssignableRole.nullable(),
    team_id: z.string().nullable(),
    daily: ZCreditLimitValue,
    life_time: ZCreditLimitValue,
    adjust_today: z.boolean(),
    daily_remaining: ZCreditLimitValue,
  })
  .superRefine((values, ctx) => {
    const problems = validateLimitDraft({ daily: values.daily, life_time: values.life_time, daily_remaining: null });
    if (problems.daily) ctx.addIssue({ code: 'custom', path: ['daily'], message: problems.daily });
    if (values.adjust_today && values.daily_remaining === null) {
      ctx.addIssue({ code: 'custom', path: ['daily_remaining'], message: "Please enter today's remaining credits" });
    }
  });
type TEditValues = z.infer<typeof ZEditForm>;

const ROLE_OPTIONS = ASSIGNABLE_ROLES.map((role) => ({ value: role, label: ROLE_LABELS[role] }));

function toDraft(values: TEditValues): TMemberDraft {
  return {
    name: values.name,
    role: values.role,
    team_id: values.team_id,
    limits: { daily: values.daily, life_time: values.life_time, daily_remaining: values.adjust_today ? values.daily_remaining : null },
  };
}

function EditMemberForm({ member, onDone }: { member: TMember; onDone: () => void }) {
  const edit = useEditMember();
  const teams = useTeams({ page: 1, limit: 500 });
  const [formError, setFormError] = useState<string | null>(null);
  const initial = useMemo(() => createMemberDraft(member), [member]);
  const form = useForm<TEditValues>({
    resolver: zodResolver(ZEditForm),
    defaultValues: {
      name: initial.name,
      role: initial.role,
      team_id: initial.team_id,
      daily: initial.limits.daily,
      life_time: initial.limits.life_time,
      adjust_today: false,
      daily_remaining: member.limits.daily.remaining,
    },
  });
  const values = form.watch();
  const draft = toDraft(values);
  const effects = describeLimitEffects(member.limits, draft.limits);
  const pending = describePendingDailyLimit(member.limits);
  const unchanged = buildMemberEditRequest(member, draft) === null;
  const teamOptions = (teams.data?.items ?? []).map((team) => ({ value: team.id, label: team.name }));
  for (const team of member.teams) {
    if (!teamOptions.some((option) => option.value === team.id)) teamOptions.push({ value: team.id, label: team.name });
  }

  const submit = form.handleSubmit(async (submitted) => {
    setFormError(null);
    const request = buildMemberEditRequest(member, toDraft(submitted));
    if (!request) return onDone();
    try {
      const data = await edit.mutateAsync(request);
      showToast({ title: data.message, message: `${data.member.name} (${data.member.email}) saved.`, kind: 'success' });
      onDone();
    } catch (error) {
      setFormError(applyServerErrors(error, form.setError, ['name', 'role', 'team_id']));
    }
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          {member.email}
        </Text>
        <FormError message={formError} />
        <SimpleGrid cols={{ base: 1, xs: 2 }}>
          <TextInput label="Name" error={form.formState.errors.name?.message} {...form.register('name')} />
          <Controller
            control={form.control}
            name="role"
            render={({ field, fieldState }) =>
              member.role === 'owner' ? (
                <TextInput label="Role" value={ROLE_LABELS.owner} readOnly description="The owner's role cannot change." />
              ) : (
                <Select
                  label="Role"
                  data={ROLE_OPTIONS}
                  value={field.value}
                  onChange={(value) => value && field.onChange(value)}
                  allowDeselect={false}
                  error={fieldState.error?.message}
                />
              )
            }
          />
        </SimpleGrid>
        <Controller
          control={form.control}
          name="team_id"
          render={({ field, fieldState }) => (
            <Select
              label="Team"
              placeholder="No team"
              data={teamOptions}
              value={field.value}
              onChange={(value) => field.onChange(value)}
              clearable
              error={fieldState.error?.message}
            />
          )}
        />
        <Divider label="Credit limits" labelPosition="left" />
        <SimpleGrid cols={{ base: 1, xs: 2 }}>
          <Controller
            control={form.control}
            name="daily"
            render={({ field, fieldState }) => (
              <CreditLimitInput
                label="Daily limit"
                description={pending ? `Pending: ${pending}` : 'New daily limit applies from tomorrow'}
                value={field.value}
                onChange={field.onChange}
                error={fieldState.error?.message}
              />
            )}
          />
          <Controller
            control={form.control}
            name="life_time"
            render={({ field, fieldState }) => (
              <CreditLimitInput
                label="Lifetime limit"
                description={`${formatNumber(member.limits.life_time.used)} used so far; applies now`}
                value={field.value}
                onChange={field.onChange}
                error={fieldState.error?.message}
              />
            )}
          />
        </SimpleGrid>
        <Controller
          control={form.control}
          name="adjust_today"
          render={({ field }) => (
            <Switch
              label="Adjust today's remaining daily credits"
              description="Applies now and resets tomorrow"
              checked={field.value}
              onChange={(event) => field.onChange(event.currentTarget.checked)}
            />
          )}
        />
        {values.adjust_today ? (
          <Controller
            control={form.control}
            name="daily_remaining"
            render={({ field, fieldState }) => (
              <CreditLimitInput
                label="Remaining today"
                description={`Used today: ${formatNumber(member.limits.daily.used)}`}
                placeholder="Credits left for today"
                value={field.value}
                onChange={field.onChange}
                error={fieldState.error?.message}
              />
            )}
          />
        ) : null}
        {effects.length > 0 ? (
          <Alert variant="light" color={effects.some((effect) => effect.tone === 'warning') ? 'orange' : 'indigo'} title="What changes">
            <List size="sm" spacing={4} center>
              {effects.map((effect) => (
                <List.Item
                  key={effect.field}
                  icon={
                    <ThemeIcon size={18} radius="xl" variant="light" color={effect.tone === 'warning' ? 'orange' : 'indigo'}>
                      {effect.tone === 'warning' ? <IconAlertTriangle size={12} /> : <IconInfoCircle size={12} />}
                    </ThemeIcon>
                  }
                >
                  {effect.text}
                </List.Item>
              ))}
            </List>
          </Alert>
        ) : null}
        <FormActions onCancel={onDone} submitting={form.formState.isSubmitting} label="Save changes" disabled={unchanged} />
      </Stack>
    </form>
  );
}

/** Edit role, team and credit limits of one member. */
export function EditMemberModal({ member, onClose }: { member: TMember | null; onClose: () => void }) {
  return (
    <Modal opened={member !== null} onClose={onClose} title={member ? `Edit ${member.name}` : 'Edit member'} size="lg">
      {member ? <EditMemberForm member={member} onDone={onClose} /> : null}
    </Modal>
  );
}
