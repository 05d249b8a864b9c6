import { useCallback, useEffect, useRef, useState } from 'react';
import { Alert, Anchor, Button, Divider, Loader, Stack, Text, TextInput } from '@mantine/core';
import { IconAlertCircle, IconBrandGoogle, IconBrandWindows, IconKey } from '@tabler/icons-react';
import { Link, useSearchParams } from 'react-router';
import { ZEmail, type TLoginData, type TSocialSsoProvider } from '@verilead/contracts';
import { AuthCard } from '../../../components/auth-card';
import { getErrorMessage } from '../../../lib/api-error';
import { useSessionStore } from '../../../lib/session-store';
import { fetchSsoConfig, finishSso, rememberPendingSso, startOrgSso, startSocialSso, takePendingSso, useSsoConfig } from '../api/sso-api';

const SOCIAL_LABELS: Record<TSocialSsoProvider, string> = { google: 'Sign in with Google', microsoft: 'Sign in with Microsoft' };

/** Sends the browser to the identity provider. */
function goTo(url: string) {
  window.location.assign(url);
}

const ANSWER_KEYS = ['code', 'state', 'iss', 'error', 'error_description', 'ticket'];

/** Finishes a sign-in the identity provider sent back here (code and state, a SAML ticket, or an error). */
function useFinishFromQuery(onDone: (data: TLoginData) => void) {
  const [params, setParams] = useSearchParams();
  const [state, setState] = useState<{ busy: boolean; error: string | null }>(() => ({
    busy: params.has('code') || params.has('ticket') || params.has('error'),
    error: params.get('sso_error'),
  }));
  const [done, setDone] = useState<TLoginData | null>(null);
  const started = useRef(false);
  useEffect(() => {
    if (started.current || !(params.has('code') || params.has('ticket') || params.has('error'))) return;
    started.current = true;
    const pick = (k: string) => params.get(k) ?? undefined;
    const ticket = pick('ticket');
    const kind = ticket ? 'org' : takePendingSso();
    // The provider's answer is single use: take it out of the address first.
    setParams({}, { replace: true });
    finishSso(kind, { ticket, state: pick('state'), code: pick('code'), iss: pick('iss'), error: pick('error'), error_description: pick('error_description') })
      .then(setDone)
      .catch((error: unknown) => setState({ busy: false, error: getErrorMessage(error) }));
  }, [params, setParams]);
  // Log in only once the address is clean, so the guard does not carry the answer along.
  const clean = !ANSWER_KEYS.some((k) => params.has(k));
  useEffect(() => {
    if (done && clean) onDone(done);
  }, [done, clean, onDone]);
  return state;
}

/** /sso/signin: work e-mail → the organisation's identity provider; or Google / Microsoft. */
export function SsoSigninScreen() {
  const fillSession = useSessionStore((s) => s.fillSession);
  const finishing = useFinishFromQuery(useCallback((data: TLoginData) => fillSession(data), [fillSession]));
  const config = useSsoConfig();
  const [email, setEmail] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setFieldError(null);
    setFormError(null);
    const parsed = ZEmail.safeParse(email);
    if (!parsed.success) {
      setFieldError(parsed.error.issues[0]?.message ?? 'Please enter a valid e-mail address');
      return;
    }
    setBusy('org');
    try {
      const found = await fetchSsoConfig(parsed.data);
      if (!found.sso_enabled) {
        setFieldError('Single sign-on is not set up for this e-mail domain. Please log in with your password.');
        setBusy(null);
        return;
      }
      const start = await startOrgSso(parsed.data);
      rememberPendingSso('org');
      goTo(start.redirect_url);
    } catch (error) {
      setFormError(getErrorMessage(error));
      setBusy(null);
    }
  };

  const social = async (provider: TSocialSsoProvider) => {
    setFormError(null);
    setBusy(provider);
    try {
      const start = await startSocialSso(provider);
      rememberPendingSso(provider);
      goTo(start.redirect_url);
    } catch (error) {
      setFormError(getErrorMessage(error));
      setBusy(null);
    }
  };

  if (finishing.busy) {
    return (
      <AuthCard title="Signing you in">
        <Stack align="center" gap="sm">
          <Loader />
          <Text>Loading...</Text>
        </Stack>
      </AuthCard>
    );
  }

  const providers = config.data?.social_providers ?? [];
  return (
    <AuthCard
      title="Sign in with SSO"
      subtitle={
        <>
          Use your company account.{' '}
          <Anchor component={Link} to="/login" size="sm">
            Log in with a password
          </Anchor>
        </>
      }
    >
      <form onSubmit={(e) => void submit(e)} noValidate>
        <Stack gap="md">
          {finishing.error || formError ? (
            <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} role="alert">
              {formError ?? finishing.error}
            </Alert>
          ) : null}
          <TextInput
            label="Work email"
            type="email"
            autoComplete="email"
            placeholder="you@company.com"
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
            error={fieldError}
          />
          <Button type="submit" fullWidth size="md" leftSection={<IconKey size={18} />} loading={busy === 'org'} disabled={busy !== null && busy !== 'org'}>
            Continue with SSO
          </Button>
          {config.isError ? <Text size="sm" c="red">{getErrorMessage(config.error)}</Text> : null}
          {providers.length > 0 ? <Divider label="or" labelPosition="center" /> : null}
          {providers.map((p) => (
            <Button
              key={p}
              variant="default"
              fullWidth
              leftSection={p === 'google' ? <IconBrandGoogle size={18} /> : <IconBrandWindows size={18} />}
              loading={busy === p}
              disabled={busy !== null && busy !== p}
              onClick={() => void social(p)}
            >
              {SOCIAL_LABELS[p]}
            </Button>
          ))}
        </Stack>
      </form>
    </AuthCard>
  );
}
