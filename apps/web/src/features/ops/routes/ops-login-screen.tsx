import { useState } from 'react';
import { Button, PasswordInput, Stack, TextInput } from '@mantine/core';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { ZOperatorLoginData } from '@verilead/contracts';
import { getErrorMessage } from '../../../lib/api-error';
import { FormAlert } from '../components/ops-parts';
import { requestOps } from '../api/ops-client';
import { useOpsSession } from '../api/ops-session-store';
import { OpsAuthFrame } from '../components/ops-auth-frame';

/** /ops/login: the operator's sign-in (operators are not organisation members; customer accounts do not work here). */
export function OpsLoginScreen() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const token = useOpsSession((s) => s.token);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const next = params.get('next')?.startsWith('/ops') ? params.get('next')! : '/ops';
  if (token) return <Navigate to={next} replace />;
  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const data = await requestOps({ method: 'POST', path: '/session/login', body: { email, password }, schema: ZOperatorLoginData });
      useOpsSession.getState().signIn(data.token, data.operator);
      void navigate(next, { replace: true });
    } catch (err) {
      setError(getErrorMessage(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <OpsAuthFrame title="Operator sign-in" subtitle="For the operators of this Verilead installation.">
      <form onSubmit={(e) => void submit(e)}>
        <Stack>
          <FormAlert message={error} />
          <TextInput label="E-mail" type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.currentTarget.value)} />
          <PasswordInput label="Password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.currentTarget.value)} />
          <Button type="submit" loading={busy}>
            Sign in
          </Button>
        </Stack>
      </form>
    </OpsAuthFrame>
  );
}
