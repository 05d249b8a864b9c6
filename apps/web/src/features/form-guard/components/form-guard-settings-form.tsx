import { useState } from 'react';
import { ActionIcon, Button, Card, Checkbox, Group, MultiSelect, NumberInput, Select, Stack, Switch, TagsInput, Text, TextInput, Title } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import {
  DEFAULT_FORM_GUARD_EMAIL_REFUSAL_MESSAGES,
  FORM_GUARD_EMAIL_REFUSALS,
  FORM_GUARD_EMAIL_RULES,
  FORM_GUARD_EMAIL_RULE_LABELS,
  FORM_GUARD_LINE_TYPES,
  FORM_GUARD_TIMEOUT_MS,
  ZFormGuardSettings,
  type TFormGuardEmailRefusal,
  type TFormGuardEmailRule,
  type TFormGuardLimit,
  type TFormGuardSettings,
} from '@verilead/contracts';

export type TGuardFormValues = { name: string; allowed_origins: string[]; settings: TFormGuardSettings };

const WINDOW_LABELS = { minute: 'per minute', hour: 'per hour', day: 'per day (daily)', life_time: 'in total (life-time)' } as const;
const MESSAGE_LABELS = { email: 'E-mail does not exist (invalid)', phone: 'Phone refused', name: 'Name refused', timeout: 'Check timed out (when blocking)' } as const;
/** One message per e-mail refusal: a visitor with a real catch-all or disposable address is never told it is invalid. */
const REFUSAL_LABELS: Record<TFormGuardEmailRefusal, string> = {
  disposable: 'E-mail refused: disposable',
  role: 'E-mail refused: role address (info@, sales@)',
  free: 'E-mail refused: free provider',
  gibberish: 'E-mail refused: gibberish',
  unknown: 'E-mail refused: could not be verified (unknown)',
  catch_all: 'E-mail refused: catch-all domain',
  not_safe_to_send: 'E-mail refused: not safe to send',
};

/** Field path → message, from the shared schema's issues. */
function collectErrors(values: TGuardFormValues): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!values.name.trim()) errors.name = 'Please enter a name';
  if (values.allowed_origins.length === 0) errors.allowed_origins = 'Add the origin of your site, e.g. https://www.example.com';
  else if (values.allowed_origins.some((o) => !/^https?:\/\/[^\s/]+$/.test(o))) errors.allowed_origins = 'An origin is a scheme and host, e.g. https://www.example.com';
  const parsed = ZFormGuardSettings.safeParse(values.settings);
  if (!parsed.success) for (const issue of parsed.error.issues) errors[issue.path.slice(0, 2).join('.')] ??= issue.message;
  return errors;
}

/** A guard's settings: fields, e-mail rules, phone and name checks, messages, limits, pages, timeout. */
export function FormGuardSettingsForm({ initial, submitLabel, pending, onSubmit }: { initial: TGuardFormValues; submitLabel: string; pending: boolean; onSubmit: (v: TGuardFormValues) => void }) {
  const [v, setV] = useState<TGuardFormValues>(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const s = v.settings;
  const set = (patch: Partial<TFormGuardSettings>) => setV({ ...v, settings: { ...s, ...patch } });
  const setLimit = (i: number, patch: Partial<TFormGuardLimit>) => set({ limits: s.limits.map((l, j) => (j === i ? { ...l, ...patch } : l)) });
  const submit = () => {
    const found = collectErrors(v);
    setErrors(found);
    if (Object.keys(found).length === 0) onSubmit({ ...v, name: v.name.trim() });
  };
  return (
    <Stack gap="lg">
      <Card>
        <Stack gap="md">
          <Title order={4} fz={16}>
            Guard
          </Title>
          <TextInput label="Guard name" required value={v.name} onChange={(e) => setV({ ...v, name: e.currentTarget.value })} error={errors.name} />
          <TagsInput
            label="Allowed origins"
            description="Sites that may use this guard: scheme and host, e.g. https://www.example.com; press Enter after each"
            value={v.allowed_origins}
            onChange={(allowed_origins) => setV({ ...v, allowed_origins })}
            error={errors.allowed_origins}
          />
          <TagsInput
            label="Allowed pages"
            description="Optional: page addresses where * stands for any part, e.g. https://www.example.com/signup/*. Empty: every page of the origins."
            value={s.allowed_urls}
            onChange={(allowed_urls) => set({ allowed_urls })}
            error={errors['allowed_urls.0'] ?? errors.allowed_urls}
          />
          <Group>
            <Switch label="Check e-mail fields" checked={s.fields.email} onChange={(e) => set({ fields: { ...s.fields, email: e.currentTarget.checked } })} />
            <Switch label="Check phone fields" checked={s.fields.phone} onChange={(e) => set({ fields: { ...s.fields, phone: e.currentTarget.checked } })} />
            <Switch label="Check name fields" checked={s.fields.name} onChange={(e) => set({ fields: { ...s.fields, name: e.currentTarget.checked } })} />
          </Group>
          <Switch label="Check when the visitor leaves a field (always checked on submit)" checked={s.validate_on_blur} onChange={(e) => set({ validate_on_blur: e.currentTarget.checked })} />
        </Stack>
      </Card>

      <Card>
        <Stack gap="sm">
          <Title order={4} fz={16}>
            E-mail addresses to refuse
          </Title>
          <Text size="sm" c="dimmed">
            Invalid addresses are always refused.
          </Text>
          <Checkbox.Group value={s.email.reject} onChange={(reject) => set({ email: { ...s.email, reject: reject as TFormGuardEmailRule[] } })}>
            <Stack gap={6}>
              {FORM_GUARD_EMAIL_RULES.map((rule) => (
                <Checkbox key={rule} value={rule} label={FORM_GUARD_EMAIL_RULE_LABELS[rule]} />
              ))}
            </Stack>
          </Checkbox.Group>
          <Switch label="Accept only safe-to-send addresses" checked={s.email.safe_to_send_only} onChange={(e) => set({ email: { ...s.email, safe_to_send_only: e.currentTarget.checked } })} />
        </Stack>
      </Card>

      <Card>
        <Stack gap="sm">
          <Title order={4} fz={16}>
            Phone and name
          </Title>
          <TagsInput
            label="Allowed countries"
            description="Two-letter codes such as US, GB, IN; empty: every country"
            value={s.phone.allowed_countries}
            onChange={(countries) => set({ phone: { ...s.phone, allowed_countries: countries.map((c) => c.trim().toUpperCase()) } })}
            error={errors['phone.allowed_countries']}
          />
          <TextInput
            label="Default country"
            description="For numbers typed without +country code (two letters)"
            value={s.phone.default_country ?? ''}
            onChange={(e) => set({ phone: { ...s.phone, default_country: e.currentTarget.value.trim().toUpperCase() || null } })}
            error={errors['phone.default_country']}
          />
          <MultiSelect
            label="Allowed line types"
            description="Empty: every type"
            data={FORM_GUARD_LINE_TYPES.map((t) => ({ value: t, label: t.replace(/_/g, ' ').toLowerCase() }))}
            value={s.phone.line_types}
            onChange={(types) => set({ phone: { ...s.phone, line_types: types as TFormGuardSettings['phone']['line_types'] } })}
          />
          <Select
            label="Name gibberish threshold"
            description="Low refuses more names; high only clear gibberish"
            data={[
              { value: 'low', label: 'Low' },
              { value: 'medium', label: 'Medium' },
              { value: 'high', label: 'High' },
            ]}
            value={s.name.gibberish_threshold}
            onChange={(t) => t && set({ name: { gibberish_threshold: t as TFormGuardSettings['name']['gibberish_threshold'] } })}
            allowDeselect={false}
          />
        </Stack>
      </Card>

      <Card>
        <Stack gap="sm">
          <Title order={4} fz={16}>
            Messages
          </Title>
          {(Object.keys(MESSAGE_LABELS) as (keyof typeof MESSAGE_LABELS)[]).map((k) => (
            <TextInput key={k} label={MESSAGE_LABELS[k]} value={s.messages[k]} onChange={(e) => set({ messages: { ...s.messages, [k]: e.currentTarget.value } })} error={errors[`messages.${k}`]} />
          ))}
          {FORM_GUARD_EMAIL_REFUSALS.map((r) => {
            const refusals = { ...DEFAULT_FORM_GUARD_EMAIL_REFUSAL_MESSAGES, ...s.messages.email_refusals };
            return (
              <TextInput
                key={r}
                label={REFUSAL_LABELS[r]}
                value={refusals[r]}
                onChange={(e) => set({ messages: { ...s.messages, email_refusals: { ...refusals, [r]: e.currentTarget.value } } })}
                error={errors[`messages.email_refusals.${r}`]}
              />
            );
          })}
        </Stack>
      </Card>

      <Card>
        <Stack gap="sm">
          <Title order={4} fz={16}>
            Limits and timeout
          </Title>
          <Text size="sm" c="dimmed">
            When a limit is reached the widget stops checking and forms are accepted unchecked (nothing is charged).
          </Text>
          {s.limits.map((l, i) => (
            <Group key={i} align="flex-end">
              <NumberInput label="Checks" min={1} value={l.max} onChange={(n) => setLimit(i, { max: typeof n === 'number' ? n : 1 })} w={120} error={errors[`limits.${i}`]} />
              <Select label="Window" data={Object.entries(WINDOW_LABELS).map(([value, label]) => ({ value, label }))} value={l.window} onChange={(w) => w && setLimit(i, { window: w as TFormGuardLimit['window'] })} allowDeselect={false} />
              <Select
                label="Scope"
                data={[
                  { value: 'ip', label: 'per visitor IP' },
                  { value: 'global', label: 'for the whole guard' },
                ]}
                value={l.scope}
                onChange={(sc) => sc && setLimit(i, { scope: sc as TFormGuardLimit['scope'] })}
                allowDeselect={false}
              />
              <ActionIcon variant="subtle" color="red" aria-label={`Remove limit ${i + 1}`} onClick={() => set({ limits: s.limits.filter((_, j) => j !== i) })} mb={4}>
                <IconTrash size={16} />
              </ActionIcon>
            </Group>
          ))}
          <Group>
            <Button variant="default" size="xs" disabled={s.limits.length >= 8} onClick={() => set({ limits: [...s.limits, { scope: 'ip', window: 'hour', max: 20 }] })}>
              Add a limit
            </Button>
          </Group>
          <NumberInput
            label="Timeout (ms)"
            description={`How long the widget waits for a check (${FORM_GUARD_TIMEOUT_MS.min}–${FORM_GUARD_TIMEOUT_MS.max})`}
            value={s.timeout_ms}
            onChange={(n) => set({ timeout_ms: typeof n === 'number' ? n : 0 })}
            error={errors.timeout_ms}
            w={260}
          />
          <Switch label="Refuse the form when a check times out (default: accept it)" checked={s.block_on_timeout} onChange={(e) => set({ block_on_timeout: e.currentTarget.checked })} />
        </Stack>
      </Card>
      <Group>
        <Button onClick={submit} loading={pending}>
          {submitLabel}
        </Button>
        {Object.keys(errors).length > 0 ? (
          <Text size="sm" c="red" role="alert">
            Please correct the marked fields.
          </Text>
        ) : null}
      </Group>
    </Stack>
  );
}
