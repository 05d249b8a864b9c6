import { useState } from 'react';
import { Alert, Button, Card, Divider, Group, Modal, PasswordInput, Select, Stack, Text, TextInput } from '@mantine/core';
import { useNavigate, useSearchParams } from 'react-router';
import { INTEGRATION_CATALOG, KIT_PAID_PLAN_MESSAGE, type TIntegration } from '@verilead/contracts';
import { getErrorMessage, isApiError } from '../../../lib/api-error';
import { showToast } from '../../../lib/toast';
import { useConnectAccount } from '../api/integrations-api';
import { IntegrationPage } from '../components/integration-page';
import { OAuthConnect, OAuthReturn } from '../components/oauth-connect';
import { IntegrationTestModeNotice } from '../components/test-mode-notice';

type TFieldErrors = Partial<Record<'name' | 'api_key' | 'api_url' | 'account_id' | 'region' | 'paid_plan_confirmed', string>>;

function ConnectForm({ platform }: { platform: TIntegration }) {
  const info = INTEGRATION_CATALOG[platform];
  const connect = useConnectAccount(platform);
  const navigate = useNavigate();
  const [values, setValues] = useState({ name: '', api_key: '', api_url: '', account_id: '', region: '' });
  const [errors, setErrors] = useState<TFieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const set = (k: keyof typeof values) => (e: React.ChangeEvent<HTMLInputElement>) => {
    // Read the value now: the state updater runs after React has released the event.
    const value = e.currentTarget.value;
    setValues((v) => ({ ...v, [k]: value }));
  };

  const submit = async (paidPlanConfirmed?: boolean) => {
    const local: TFieldErrors = {};
    if (!values.name.trim()) local.name = 'Please enter a name for this account';
    if (!values.api_key.trim()) local.api_key = 'Please enter the API key';
    if (info.fields.some((f) => f.key === 'api_url') && !values.api_url.trim()) local.api_url = 'Please enter the API URL';
    const accountIdField = info.fields.find((f) => f.key === 'account_id');
    if (accountIdField && !values.account_id.trim()) local.account_id = `Please enter the ${accountIdField.label}`;
    if (info.fields.some((f) => f.key === 'region') && !values.region) local.region = `Please choose the region of this ${info.label} account`;
    setErrors(local);
    setFormError(null);
    if (Object.keys(local).length > 0) return;
    if (info.requires_paid_plan_confirmation && !paidPlanConfirmed) {
      setConfirming(true);
      return;
    }
    try {
      await connect.mutateAsync({
        name: values.name.trim(),
        api_key: values.api_key.trim(),
        ...(values.api_url.trim() ? { api_url: values.api_url.trim() } : {}),
        ...(values.account_id.trim() ? { account_id: values.account_id.trim() } : {}),
        ...(values.region ? { region: values.region } : {}),
        ...(paidPlanConfirmed ? { paid_plan_confirmed: true } : {}),
      });
      showToast({ title: 'Account connected', message: `${info.label} account "${values.name.trim()}" is connected`, kind: 'success' });
      void navigate(`/integrations/${platform}`);
    } catch (err) {
      const fieldErrors: TFieldErrors = {};
      if (isApiError(err)) for (const r of err.reasons) if (r.field in values || r.field === 'paid_plan_confirmed') fieldErrors[r.field as keyof TFieldErrors] = r.messages.join(' ');
      setErrors(fieldErrors);
      if (Object.keys(fieldErrors).length === 0) setFormError(getErrorMessage(err));
    }
  };

  return (
    <Card maw={560} data-testid="api-key-connect">
      <Stack gap="md">
        <IntegrationTestModeNotice
          platform={platform}
          onFill={(c) => setValues((v) => ({ ...v, name: v.name || 'Test account', api_key: c.api_key, api_url: c.api_url ?? '', account_id: c.account_id ?? '', region: c.region ?? '' }))}
        />
        <TextInput label="Account name" description="A friendly name, unique among your accounts of this platform" required value={values.name} onChange={set('name')} error={errors.name} />
        {info.fields.map((f) =>
          f.key === 'api_key' ? (
            <PasswordInput key={f.key} label={f.label} description={f.help} placeholder={f.placeholder} required value={values.api_key} onChange={set('api_key')} error={errors.api_key} />
          ) : f.key === 'region' ? (
            <Select
              key={f.key}
              label={f.label}
              description={f.help}
              placeholder={f.placeholder}
              required
              data={f.options ?? []}
              value={values.region || null}
              onChange={(v) => setValues((old) => ({ ...old, region: v ?? '' }))}
              error={errors.region}
              allowDeselect={false}
            />
          ) : (
            <TextInput key={f.key} label={f.label} description={f.help} placeholder={f.placeholder} required value={values[f.key]} onChange={set(f.key)} error={errors[f.key]} />
          ),
        )}
        {errors.paid_plan_confirmed ? <Text c="red" size="sm">{errors.paid_plan_confirmed}</Text> : null}
        {formError ? (
          <Alert color="red" variant="light" role="alert">
            {formError}
          </Alert>
        ) : null}
        <Text size="xs" c="dimmed">
          The credentials are checked with {info.label} before they are saved, and stored encrypted.
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={() => void navigate('/integrations')}>
            Back
          </Button>
          <Button onClick={() => void submit()} loading={connect.isPending}>
            Connect
          </Button>
        </Group>
      </Stack>
      <Modal opened={confirming} onClose={() => setConfirming(false)} title={`Connect ${info.label}`} centered>
        <Stack gap="md">
          <Text size="sm">{KIT_PAID_PLAN_MESSAGE}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(false)}>
              No, Cancel
            </Button>
            <Button
              onClick={() => {
                setConfirming(false);
                void submit(true);
              }}
            >
              Yes, Continue
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Card>
  );
}

/** OAuth (Mailchimp, Zoho CRM) and / or the API key form; back from a consent page, the connection is finished. */
function ConnectOptions({ platform }: { platform: TIntegration }) {
  const info = INTEGRATION_CATALOG[platform];
  const [params] = useSearchParams();
  if (info.oauth && (params.get('code') || params.get('error'))) return <OAuthReturn platform={platform} params={Object.fromEntries(params)} />;
  return (
    <Stack gap="lg">
      {info.oauth ? <OAuthConnect platform={platform} /> : null}
      {info.oauth && info.fields.length > 0 ? <Divider maw={560} label="Or connect with an API key" labelPosition="center" /> : null}
      {info.fields.length > 0 ? <ConnectForm platform={platform} /> : null}
    </Stack>
  );
}

/** Connect an account of one platform (owner/admin; some platforms owner only). */
export function ConnectScreen() {
  return (
    <IntegrationPage title={(info) => `Connect ${info.label}`}>
      {(platform, info) =>
        info.available ? (
          <ConnectOptions platform={platform} />
        ) : (
          <Alert color="gray" variant="light" role="alert" maw={560}>
            {info.unavailable_reason}
          </Alert>
        )
      }
    </IntegrationPage>
  );
}
