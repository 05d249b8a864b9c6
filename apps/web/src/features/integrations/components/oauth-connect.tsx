import { useEffect, useRef, useState } from 'react';
import { Alert, Button, Card, Group, Select, Stack, Text, TextInput } from '@mantine/core';
import { useNavigate } from 'react-router';
import { INTEGRATION_CATALOG, ZOHO_REGION_LABELS, ZOHO_REGIONS, type TIntegration } from '@verilead/contracts';
import { LoadingScreen } from '../../../components/loading-screen';
import { getErrorMessage, isApiError } from '../../../lib/api-error';
import { showToast } from '../../../lib/toast';
import { useOAuthConnect } from '../api/integrations-api';
import { IntegrationTestModeNotice } from './test-mode-notice';

type TErrors = Partial<Record<'name' | 'region', string>>;
const REGION_OPTIONS = ZOHO_REGIONS.map((r) => ({ value: r, label: ZOHO_REGION_LABELS[r] }));

/** "Connect with Mailchimp / Zoho CRM": a name (and Zoho's data centre), then the platform's own sign-in and consent page. */
export function OAuthConnect({ platform }: { platform: TIntegration }) {
  const info = INTEGRATION_CATALOG[platform];
  const connect = useOAuthConnect(platform);
  const [name, setName] = useState('');
  const [region, setRegion] = useState<string | null>(null);
  const [errors, setErrors] = useState<TErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const needsRegion = platform === 'zoho';

  const start = async () => {
    const local: TErrors = {};
    if (!name.trim()) local.name = 'Please enter a name for this account';
    if (needsRegion && !region) local.region = 'Please choose your Zoho data centre';
    setErrors(local);
    setFormError(null);
    if (Object.keys(local).length > 0) return;
    try {
      const r = await connect.mutateAsync({ name: name.trim(), ...(region ? { region } : {}) });
      if (r.authorize_url) window.location.assign(r.authorize_url);
    } catch (err) {
      const fieldErrors: TErrors = {};
      if (isApiError(err)) for (const x of err.reasons) if (x.field === 'name' || x.field === 'region') fieldErrors[x.field] = x.messages.join(' ');
      setErrors(fieldErrors);
      if (Object.keys(fieldErrors).length === 0) setFormError(getErrorMessage(err));
    }
  };

  return (
    <Card maw={560} data-testid="oauth-connect">
      <Stack gap="md">
        {info.fields.length === 0 ? <IntegrationTestModeNotice platform={platform} /> : null}
        <Text size="sm">
          Sign in to {info.label} and allow Verilead to read your lists and write the results back. You come back here once you have allowed it.
        </Text>
        <TextInput
          label="Account name"
          description="A friendly name, unique among your accounts of this platform"
          required
          value={name}
          onChange={(e) => {
            const v = e.currentTarget.value;
            setName(v);
          }}
          error={errors.name}
        />
        {needsRegion ? (
          <Select label="Data centre" description="Where your Zoho account lives (the domain you sign in at)" placeholder="Choose a data centre" required data={REGION_OPTIONS} value={region} onChange={setRegion} error={errors.region} />
        ) : null}
        {formError ? (
          <Alert color="red" variant="light" role="alert">
            {formError}
          </Alert>
        ) : null}
        <Group justify="flex-end">
          <Button onClick={() => void start()} loading={connect.isPending}>
            Connect with {info.label}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

/** Back from the platform's consent page (`code` and `state`, or `error`): finishes the connection once. */
export function OAuthReturn({ platform, params }: { platform: TIntegration; params: Record<string, string> }) {
  const info = INTEGRATION_CATALOG[platform];
  const connect = useOAuthConnect(platform);
  const navigate = useNavigate();
  const sent = useRef(false);
  useEffect(() => {
    // The state is single use: the effect may run twice (strict mode), the call only once.
    if (sent.current) return;
    sent.current = true;
    connect.mutate(params);
  }, [connect, params]);
  const connected = connect.data?.account ?? null;
  useEffect(() => {
    if (!connected) return;
    showToast({ title: 'Account connected', message: `${info.label} account "${connected.name}" is connected`, kind: 'success' });
    void navigate(`/integrations/${platform}`, { replace: true });
  }, [connected, info.label, navigate, platform]);

  if (connect.isError) {
    return (
      <Stack gap="md" maw={560}>
        <Alert color="red" variant="light" role="alert" title={`${info.label} was not connected`}>
          {getErrorMessage(connect.error)}
        </Alert>
        <Group>
          <Button variant="default" onClick={() => void navigate(`/integrations/${platform}/connect`, { replace: true })}>
            Try again
          </Button>
        </Group>
      </Stack>
    );
  }
  return <LoadingScreen label={`Connecting your ${info.label} account...`} />;
}
