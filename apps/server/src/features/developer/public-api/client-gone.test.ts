import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { grantCredits } from '../../../platform/credits/ledger';
import { selectRows } from '../../../platform/db/database';
import { RequestClosedError } from '../../../platform/http/request-closed';
import { createWorldApp, type TWorldApp } from '../../email-verifier/test-support';

/**
 * A client that leaves while its instant verification runs (a /v2 call, the app's own check) stops that verification:
 * the engine's signal aborts, nothing is stored or charged. Against the app listening on loopback, the mail world's
 * tarpit host holding every reply for seconds.
 */
describe('instant verification: the client leaves before its answer', () => {
  let w: TWorldApp;
  let base: string;
  let owner: { token: string; orgId: string };
  let appToken: string;

  const ledger = async () => (await selectRows<{ n: number }>(w.t.db.db, sql`select count(*)::int as n from credit_transactions where org_id = ${owner.orgId}`))[0]!.n;
  const stored = async () => (await selectRows<{ n: number }>(w.t.db.db, sql`select count(*)::int as n from instant_verifications where org_id = ${owner.orgId}`))[0]!.n;

  beforeAll(async () => {
    w = await createWorldApp(undefined, { verifierReplyTimeoutMs: 15_000, verifierConnectTimeoutMs: 15_000 });
    await w.t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = w.t.app.server.address();
    if (!address || typeof address === 'string') throw new Error('no address');
    base = `http://127.0.0.1:${address.port}`;
    owner = await w.t.createOwner('gone-owner@client-gone.test');
    await w.t.db.transaction((tx) => grantCredits(tx, { orgId: owner.orgId, amount: 100, reason: 'Test top-up' }));
    const created = await w.t.call({ method: 'POST', url: '/api/v1/apps/create', token: owner.token, payload: { name: 'Leaver', type: 'server' } });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    appToken = created.body.data.token as string;
  }, 60_000);
  afterAll(async () => {
    await w?.close();
  });

  const cases: Array<[string, () => { url: string; authorization: string }]> = [
    ['/v2 instant', () => ({ url: `${base}/v2/email_verify/instant`, authorization: `Bearer ${appToken}` })],
    ["the app's instant check", () => ({ url: `${base}/api/v1/email_verify/instant`, authorization: `Bearer ${owner.token}` })],
  ];
  it.each(cases)('%s: the verification stops, nothing is stored or charged', async (_name, target) => {
    const { url, authorization } = target();
    const verify = vi.spyOn(w.t.deps.verifier, 'verify');
    try {
      const [ledgerBefore, storedBefore] = [await ledger(), await stored()];
      const client = new AbortController();
      const answered = fetch(url, { method: 'POST', signal: client.signal, headers: { authorization, 'content-type': 'application/json' }, body: JSON.stringify({ email: 'dave@tarpit.test' }) }).then(
        () => 'answered',
        () => 'left',
      );
      await vi.waitFor(() => expect(verify).toHaveBeenCalledTimes(1), { timeout: 10_000 });
      const signal = verify.mock.calls[0]![1]!.signal!;
      const verifying = verify.mock.results[0]!.value as Promise<unknown>;
      expect(signal.aborted).toBe(false);
      client.abort();
      expect(await answered).toBe('left');
      // the server saw the connection close: the verification's signal aborts with the client's leaving, and it rejects
      await expect(verifying).rejects.toBeInstanceOf(RequestClosedError);
      expect(signal.aborted).toBe(true);
      expect(await ledger()).toBe(ledgerBefore);
      expect(await stored()).toBe(storedBefore);
    } finally {
      verify.mockRestore();
    }
  });
});
