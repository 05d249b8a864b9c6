import { APP_VERSION, APP_VERSION_HEADER, type TInstanceData } from '@verilead/contracts';

/** The answer's `data`, when it has the shape of TInstanceData (checked by hand: the sign-in pages load no zod schema for it). */
function readInstance(body: unknown): TInstanceData | null {
  const data = (body as { data?: Partial<TInstanceData> } | null)?.data;
  if (!data || typeof data.demo !== 'boolean' || !Array.isArray(data.demo_accounts)) return null;
  const accounts = data.demo_accounts.filter((a): a is { role: string; email: string } => typeof a?.role === 'string' && typeof a?.email === 'string');
  return { demo: data.demo, demo_accounts: accounts, demo_password: typeof data.demo_password === 'string' ? data.demo_password : null };
}

/** What the server says about itself for the sign-in pages (`GET /public/instance`); null when it cannot tell. */
export function loadInstanceInfo(): Promise<TInstanceData | null> {
  return fetch('/api/v1/public/instance', { method: 'GET', headers: { [APP_VERSION_HEADER]: APP_VERSION } })
    .then(async (res) => (res.ok ? readInstance(await res.json()) : null))
    .catch(() => null);
}
