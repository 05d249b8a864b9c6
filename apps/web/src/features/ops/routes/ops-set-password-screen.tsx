import { useState } from 'react';
import { Button, PasswordInput, Stack, Text } from '@mantine/core';
import { useNavigate, useSearchParams } from 'react-router';
import { ZOperatorLoginData } from '@verilead/contracts';
import { getErrorMessage } from '../../../lib/api-error';
import { FormAlert } from '../components/ops-parts';
import { requestOps } from '../api/ops-client';
import { useOpsSession } from '../api/ops-session-store';
import { OpsAuthFrame } from '../components/ops-auth-frame';

/** /ops/set-password?token=…: the one-time link of a new operator (ops command or invitation); signs them in. */
export function OpsSetPasswordScreen() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const token = params.get('token') ?? '';
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (password !== confirm) {
      setError('The two passwords differ.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const data = await requestOps({ method: 'POST', path: '/session/set_password', body: { token, password }, schema: ZOperatorLoginData });
      useOpsSession.getState().signIn(data.token, data.operator);
      void navigate('/ops', { replace: true });
    } catch (err) {
      setError(getErrorMessage(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <OpsAuthFrame title="Set your operator password" subtitle="This link works once.">
      {!token ? (
        <Text c="red">This page needs the link from your invitation. Ask an operator for a new one.</Text>
      ) : (
        <form onSubmit={(e) => void submit(e)}>
          <Stack>
            <FormAlert message={error} />
            <PasswordInput label="New password" description="At least 8 characters, with a lower-case letter, an upper-case letter and a digit" autoComplete="new-password" required value={password} onChange={(e) => setPassword(e.currentTarget.value)} />
            <PasswordInput label="Repeat the password" autoComplete="new-password" required value={confirm} onChange={(e) => setConfirm(e.currentTarget.value)} />
            <Button type="submit" loading={busy}>
              Set password and sign in
            </Button>
          </Stack>
        </form>
      )}
    </OpsAuthFrame>
  );
}
