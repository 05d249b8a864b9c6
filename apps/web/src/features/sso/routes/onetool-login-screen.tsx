import { useEffect, useRef, useState } from 'react';
import { Alert, Anchor, Loader, Stack, Text } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { Link, useSearchParams } from 'react-router';
import type { TLoginData } from '@verilead/contracts';
import { AuthCard } from '../../../components/auth-card';
import { getErrorMessage } from '../../../lib/api-error';
import { useSessionStore } from '../../../lib/session-store';
import { loginWithOnetoolToken, verifyOnetoolToken } from '../api/sso-api';

/** /onetool_login?token=…: a companion tool's single-use link logs the user straight in. */
export function OnetoolLoginScreen() {
  const [params, setParams] = useSearchParams();
  const [token] = useState(() => params.get('token') ?? '');
  const fillSession = useSessionStore((s) => s.fillSession);
  const [error, setError] = useState<string | null>(token ? null : 'This link is invalid or has expired');
  const [done, setDone] = useState<TLoginData | null>(null);
  const started = useRef(false);
  useEffect(() => {
    if (!token || started.current) return;
    started.current = true;
    // The token is single use: take it out of the address first.
    setParams({}, { replace: true });
    verifyOnetoolToken(token)
      .then((check) => {
        if (!check.valid) throw new Error('This link is invalid or has expired');
        return loginWithOnetoolToken(token);
      })
      .then(setDone)
      .catch((e: unknown) => setError(getErrorMessage(e)));
  }, [token, setParams]);
  const clean = !params.has('token');
  useEffect(() => {
    if (done && clean) fillSession(done);
  }, [done, clean, fillSession]);

  return (
    <AuthCard title="Signing you in">
      {error ? (
        <Stack gap="md">
          <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} role="alert">
            {error}
          </Alert>
          <Text size="sm">
            <Anchor component={Link} to="/login">
              Log in
            </Anchor>{' '}
            or ask the tool for a new link.
          </Text>
        </Stack>
      ) : (
        <Stack align="center" gap="sm">
          <Loader />
          <Text>Loading...</Text>
        </Stack>
      )}
    </AuthCard>
  );
}
