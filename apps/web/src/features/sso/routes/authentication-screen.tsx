import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Card, Code, Group, PasswordInput, Select, Stack, Switch, TagsInput, Text, TextInput, Textarea, Title } from '@mantine/core';
import { IconAlertCircle, IconCheck } from '@tabler/icons-react';
import type { z } from 'zod';
import { ZSsoSettingsRequest, type TSsoSettings } from '@verilead/contracts';
import { LoadingScreen } from '../../../components/loading-screen';
import { PageHeader } from '../../../components/page-header';
import { ErrorState } from '../../../components/state-views';
import { applyServerErrors } from '../../../lib/form-errors';
import { formatDateTime } from '../../../lib/format';
import { useSessionStore } from '../../../lib/session-store';
import { useSaveSsoSettings, useSsoSettings } from '../api/sso-api';
import { DomainClaimsCard } from '../components/domain-claims-card';

type TForm = z.input<typeof ZSsoSettingsRequest>;
const FIELDS = ['enabled', 'enforce', 'provider', 'domains', 'issuer_url', 'sso_url', 'client_id', 'client_secret', 'certificate', 'default_role'] as const;
const PROVIDERS = [
  { value: 'oidc', label: 'OpenID Connect' },
  { value: 'saml', label: 'SAML 2.0' },
  { value: 'google', label: 'Google Workspace' },
  { value: 'microsoft', label: 'Microsoft Entra ID' },
];
const ROLES = [
  { value: 'analyst', label: 'Executive' },
  { value: 'admin', label: 'Manager' },
];
const emptyToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

function toForm(s: TSsoSettings): TForm {
  return {
    enabled: s.enabled,
    enforce: s.enforce,
    provider: s.provider ?? 'oidc',
    domains: s.domains,
    issuer_url: s.issuer_url ?? undefined,
    sso_url: s.sso_url ?? undefined,
    client_id: s.client_id ?? undefined,
    default_role: s.default_role,
  };
}

/** /account/authentication: the owner (or a manager) sets up single sign-on for the organisation. */
export function AuthenticationScreen() {
  const settings = useSsoSettings();
  if (settings.isPending) return <LoadingScreen />;
  if (settings.isError) return <ErrorState error={settings.error} onRetry={() => void settings.refetch()} />;
  return <SsoSettingsForm settings={settings.data} />;
}

function SsoSettingsForm({ settings }: { settings: TSsoSettings }) {
  const save = useSaveSsoSettings();
  const orgId = useSessionStore((s) => s.org_id ?? '');
  const [formError, setFormError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const form = useForm<TForm, unknown, z.output<typeof ZSsoSettingsRequest>>({ resolver: zodResolver(ZSsoSettingsRequest), defaultValues: toForm(settings) });
  const provider = form.watch('provider');
  const domains = form.watch('domains');
  const errors = form.formState.errors;
  const origin = window.location.origin;

  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(null);
    setSaved(false);
    try {
      await save.mutateAsync(values);
      form.resetField('client_secret', { defaultValue: undefined });
      setSaved(true);
    } catch (error) {
      setFormError(applyServerErrors(error, form.setError, FIELDS));
    }
  });

  return (
    <>
      <PageHeader title="Authentication" description="Let your team sign in with your identity provider (single sign-on)." />
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="lg" maw={720}>
          {formError ? (
            <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} role="alert">
              {formError}
            </Alert>
          ) : null}
          {saved ? (
            <Alert color="teal" variant="light" icon={<IconCheck size={18} />}>
              Single sign-on settings saved
            </Alert>
          ) : null}
          <Card>
            <Stack gap="md">
              <Controller name="enabled" control={form.control} render={({ field }) => <Switch label="Single sign-on is on" checked={!!field.value} onChange={(e) => field.onChange(e.currentTarget.checked)} />} />
              <Controller
                name="enforce"
                control={form.control}
                render={({ field }) => (
                  <Switch
                    label="SSO only"
                    description="Members must sign in with SSO; password login is refused (the owner keeps password login so the organisation is never locked out)."
                    checked={!!field.value}
                    onChange={(e) => field.onChange(e.currentTarget.checked)}
                  />
                )}
              />
              <Controller name="provider" control={form.control} render={({ field }) => <Select label="Identity provider" data={PROVIDERS} allowDeselect={false} value={field.value} onChange={(v) => field.onChange(v)} error={errors.provider?.message} />} />
              <Controller
                name="domains"
                control={form.control}
                render={({ field }) => (
                  <TagsInput
                    label="E-mail domains"
                    description="People with these e-mail domains sign in through your provider and join just in time, once each domain is verified below. Press Enter after each."
                    placeholder="company.com"
                    value={field.value ?? []}
                    onChange={field.onChange}
                    error={errors.domains?.message ?? errors.domains?.root?.message ?? errors.domains?.[0]?.message}
                  />
                )}
              />
              <Controller name="default_role" control={form.control} render={({ field }) => <Select label="Role of members who join through SSO" data={ROLES} allowDeselect={false} value={field.value ?? 'analyst'} onChange={(v) => field.onChange(v)} error={errors.default_role?.message} />} />
            </Stack>
          </Card>
          <DomainClaimsCard claims={settings.domain_claims} unsaved={(domains ?? []).map((d) => d.trim().toLowerCase()).filter((d) => d && !settings.domain_claims.some((c) => c.domain === d))} />
          <Card>
            <Stack gap="md">
              <Title order={4}>{provider === 'saml' ? 'SAML 2.0' : 'OpenID Connect'}</Title>
              {provider === 'saml' ? (
                <>
                  <TextInput label="Identity provider SSO URL" placeholder="https://idp.company.com/saml/sso" error={errors.sso_url?.message} {...form.register('sso_url', { setValueAs: emptyToUndefined })} />
                  <Textarea
                    label="Identity provider certificate (PEM)"
                    description={settings.has_certificate ? 'A certificate is saved; paste a new one to replace it.' : undefined}
                    placeholder="-----BEGIN CERTIFICATE-----"
                    autosize
                    minRows={4}
                    maxRows={10}
                    error={errors.certificate?.message}
                    {...form.register('certificate', { setValueAs: emptyToUndefined })}
                  />
                  <Stack gap={4}>
                    <Text size="sm" fw={500}>
                      Give your identity provider these values
                    </Text>
                    <Text size="sm">
                      Assertion consumer service URL: <Code>{`${origin}/api/v1/sso/saml/acs/${orgId}`}</Code>
                    </Text>
                    <Text size="sm">
                      Entity ID (audience) and metadata: <Code>{`${origin}/api/v1/sso/saml/metadata/${orgId}`}</Code>
                    </Text>
                  </Stack>
                </>
              ) : (
                <>
                  {provider === 'oidc' ? <TextInput label="Issuer URL" placeholder="https://idp.company.com" error={errors.issuer_url?.message} {...form.register('issuer_url', { setValueAs: emptyToUndefined })} /> : null}
                  <TextInput label="Client ID" error={errors.client_id?.message} {...form.register('client_id', { setValueAs: emptyToUndefined })} />
                  <PasswordInput
                    label="Client secret"
                    placeholder={settings.has_client_secret ? 'Saved; leave empty to keep it' : ''}
                    error={errors.client_secret?.message}
                    {...form.register('client_secret', { setValueAs: emptyToUndefined })}
                  />
                  <Text size="sm">
                    Redirect URI to register with your provider: <Code>{`${origin}/sso/signin`}</Code>
                  </Text>
                </>
              )}
            </Stack>
          </Card>
          <Group justify="space-between">
            <Text size="xs" c="dimmed">
              {settings.setting_last_modified_on ? `Last changed ${formatDateTime(settings.setting_last_modified_on)}` : 'Not set up yet'}
            </Text>
            <Button type="submit" loading={form.formState.isSubmitting}>
              Save
            </Button>
          </Group>
        </Stack>
      </form>
    </>
  );
}
