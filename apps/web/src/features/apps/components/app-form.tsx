import { useState } from 'react';
import { Button, Card, Group, NumberInput, SegmentedControl, Select, Stack, Switch, TagsInput, Text, TextInput, Textarea } from '@mantine/core';
import { DEFAULT_APP_RATE_LIMIT, type TAppCreditLimit, type TAppRateLimit, type TAppType } from '@verilead/contracts';

export type TAppFormValues = {
  name: string;
  description: string;
  type: TAppType;
  allowed_origins: string[];
  credit_limit: TAppCreditLimit | null;
  rate_limit: TAppRateLimit;
};

export const EMPTY_APP_FORM: TAppFormValues = { name: '', description: '', type: 'server', allowed_origins: [], credit_limit: null, rate_limit: DEFAULT_APP_RATE_LIMIT };

/** Name, type, origins (client apps), credit limit (daily or life-time) and rate limit (window, max, scope). */
export function AppForm({
  initial,
  typeLocked,
  submitLabel,
  pending,
  onSubmit,
}: {
  initial: TAppFormValues;
  typeLocked?: boolean;
  submitLabel: string;
  pending: boolean;
  onSubmit: (values: TAppFormValues) => void;
}) {
  const [v, setV] = useState<TAppFormValues>(initial);
  const [error, setError] = useState<string | null>(null);
  const submit = () => {
    if (!v.name.trim()) return setError('Please enter a name');
    if (v.type === 'client' && v.allowed_origins.length === 0) return setError('A client app needs at least one allowed origin');
    setError(null);
    onSubmit({ ...v, name: v.name.trim() });
  };
  return (
    <Card>
      <Stack gap="md">
        <TextInput label="App name" required value={v.name} onChange={(e) => setV({ ...v, name: e.currentTarget.value })} error={error === 'Please enter a name' ? error : undefined} />
        <Textarea label="Description" value={v.description} onChange={(e) => setV({ ...v, description: e.currentTarget.value })} autosize minRows={2} />
        <Stack gap={4}>
          <Text size="sm" fw={500}>
            Type
          </Text>
          <SegmentedControl
            disabled={typeLocked}
            value={v.type}
            onChange={(type) => setV({ ...v, type: type as TAppType })}
            data={[
              { label: 'Server (secret token)', value: 'server' },
              { label: 'Client (browser, allowed origins)', value: 'client' },
            ]}
          />
        </Stack>
        {v.type === 'client' ? (
          <TagsInput
            label="Allowed origins"
            description="Scheme and host, e.g. https://www.example.com; press Enter after each"
            value={v.allowed_origins}
            onChange={(allowed_origins) => setV({ ...v, allowed_origins })}
            error={error?.includes('origin') ? error : undefined}
          />
        ) : null}
        <Switch
          label="Limit the credits this app may spend"
          checked={v.credit_limit !== null}
          onChange={(e) => setV({ ...v, credit_limit: e.currentTarget.checked ? { type: 'daily', value: 1000 } : null })}
        />
        {v.credit_limit ? (
          <Group grow>
            <Select
              label="Credit limit"
              value={v.credit_limit.type}
              allowDeselect={false}
              data={[
                { value: 'daily', label: 'Daily' },
                { value: 'life_time', label: 'Life time' },
              ]}
              onChange={(type) => setV({ ...v, credit_limit: { type: type === 'life_time' ? 'life_time' : 'daily', value: v.credit_limit?.value ?? 1000 } })}
            />
            <NumberInput
              label="Credits"
              min={1}
              value={v.credit_limit.value}
              onChange={(value) => setV({ ...v, credit_limit: { type: v.credit_limit?.type ?? 'daily', value: Math.max(1, Number(value) || 1) } })}
            />
          </Group>
        ) : null}
        <Group grow>
          <NumberInput
            label="Rate limit (calls)"
            min={1}
            value={v.rate_limit.max}
            onChange={(value) => setV({ ...v, rate_limit: { ...v.rate_limit, max: Math.max(1, Number(value) || 1) } })}
          />
          <Select
            label="Per"
            allowDeselect={false}
            value={v.rate_limit.window}
            data={[
              { value: 'minute', label: 'Minute' },
              { value: 'hour', label: 'Hour' },
              { value: 'day', label: 'Day' },
            ]}
            onChange={(window) => setV({ ...v, rate_limit: { ...v.rate_limit, window: (window ?? 'minute') as TAppRateLimit['window'] } })}
          />
          <Select
            label="Scope"
            allowDeselect={false}
            value={v.rate_limit.scope}
            data={[
              { value: 'ip', label: 'Per IP address' },
              { value: 'global', label: 'Global' },
            ]}
            onChange={(scope) => setV({ ...v, rate_limit: { ...v.rate_limit, scope: scope === 'global' ? 'global' : 'ip' } })}
          />
        </Group>
        {error && !error.includes('origin') && error !== 'Please enter a name' ? (
          <Text c="red" size="sm">
            {error}
          </Text>
        ) : null}
        <Group justify="flex-end">
          <Button onClick={submit} loading={pending}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
