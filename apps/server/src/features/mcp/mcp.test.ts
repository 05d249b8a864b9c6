import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { makeCorpus, makePeopleCorpus, type TPerson } from '@verilead/mailworld';
import { chargeCreditsNow, getOrgBalance, grantCredits } from '../../platform/credits/ledger';
import { selectRows } from '../../platform/db/database';
import { CLIENT_TOKEN_REFUSED } from '../developer/public-api/auth';
import { DAILY_LIMIT, INVALID_TOKEN, NO_CREDITS } from '../developer/public-api/errors';
import { buildMultipart, createWorldApp, type TWorldApp } from '../email-verifier/test-support';
import { BATCH_REFUSED } from './routes';

/** The MCP server (/mcp) driven by the SDK's own client against the app listening on loopback, the mail world behind it. */
let w: TWorldApp;
let base: string;
let people: TPerson[];
type TOwner = { token: string; userId: string; orgId: string };
let owner: TOwner;
let other: TOwner;
let broke: TOwner;
let app: { id: string; token: string };
let otherApp: { id: string; token: string };
let brokeApp: { id: string; token: string };
let clientToken: string;
const clients: Client[] = [];

async function createApp(sessionToken: string, body: Record<string, unknown>) {
  const res = await w.t.call({ method: 'POST', url: '/api/v1/apps/create', token: sessionToken, payload: body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as { id: string; token: string };
}
const serverApp = (sessionToken: string, name: string) => createApp(sessionToken, { name, type: 'server', rate_limit: { window: 'minute', max: 10_000, scope: 'global' } });

async function connect(token: string | null): Promise<Client> {
  const client = new Client({ name: 'verilead-test', version: '1.0.0' });
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers } }));
  clients.push(client);
  return client;
}

const call = async (client: Client, name: string, args: Record<string, unknown> = {}) => (await client.callTool({ name, arguments: args })) as CallToolResult;
const textOf = (r: CallToolResult) => r.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
const dataOf = <T = Record<string, unknown>>(r: CallToolResult): T => {
  expect(r.isError ?? false, textOf(r)).toBe(false);
  return r.structuredContent as T;
};

type TLedgerRow = { amount: number; reason: string; source_agent: string | null; object_type: string | null };
const charges = (orgId: string) =>
  selectRows<TLedgerRow>(w.t.db.db, sql`select amount, reason, source_agent, object_type from credit_transactions where org_id = ${orgId} and kind = 'charge' order by created_at, id`);
const appUsage = async (appId: string) => (await w.t.call({ method: 'GET', url: `/api/v1/apps/${appId}`, token: owner.token })).body.data.credits_used.life_time as number;
const v2 = (token: string, path: string, payload: Record<string, unknown>) => w.t.call({ method: 'POST', url: `/v2${path}`, headers: { authorization: `Bearer ${token}` }, payload });

beforeAll(async () => {
  const pc = makePeopleCorpus(40, 21);
  people = pc.people;
  const seen = new Set<string>();
  const corpus = [...makeCorpus(40, 7), ...pc.corpus].filter((e) => !seen.has(e.email) && seen.add(e.email));
  // Generous timeouts: on a busy machine a valid address must stay valid (billable), never time out into unknown.
  w = await createWorldApp(corpus, { verifierReplyTimeoutMs: 15_000, verifierConnectTimeoutMs: 15_000 });
  await w.t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = w.t.app.server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  base = `http://127.0.0.1:${address.port}`;
  owner = await w.t.createOwner('mcp-owner@mcp.test');
  other = await w.t.createOwner('mcp-other@mcp.test');
  broke = await w.t.createOwner('mcp-broke@mcp.test');
  for (const o of [owner, other]) await w.t.db.transaction((tx) => grantCredits(tx, { orgId: o.orgId, amount: 100, reason: 'Test top-up' }));
  app = await serverApp(owner.token, 'Assistant');
  otherApp = await serverApp(other.token, 'Other assistant');
  brokeApp = await serverApp(broke.token, 'Broke assistant');
  // The sign-up's free credits, used up.
  const signupCredits = await getOrgBalance(w.t.db.db, broke.orgId);
  if (signupCredits > 0) await chargeCreditsNow(w.t.db, { orgId: broke.orgId, userId: broke.userId, amount: signupCredits, reason: 'test: use up credits' });
  clientToken = (await createApp(owner.token, { name: 'Signup guard', type: 'client', allowed_origins: ['https://shop.example.com'], form_guard: { fields: { email: true, phone: false, name: false } } })).token;
}, 60_000);

afterAll(async () => {
  for (const c of clients) await c.close();
  await w?.close();
});

describe('the MCP server at /mcp', () => {
  it('lists the five tools with their input schemas', async () => {
    const client = await connect(app.token);
    expect(client.getServerVersion()).toMatchObject({ name: 'verilead' });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['find_email', 'get_credits', 'get_list_results', 'get_list_status', 'verify_email']);
    const verify = tools.find((t) => t.name === 'verify_email')!;
    expect(verify.inputSchema).toMatchObject({ type: 'object', properties: { email: { type: 'string' } }, required: ['email'] });
    const find = tools.find((t) => t.name === 'find_email')!;
    expect(find.inputSchema.required).toEqual(['first_name', 'last_name', 'domain']);
  });

  it('verify_email charges what /v2 instant verification charges: 1 credit, source instant_verify, the app usage', async () => {
    const client = await connect(app.token);
    const before = await getOrgBalance(w.t.db.db, owner.orgId);
    const viaV2 = await v2(app.token, '/email_verify/instant', { email: 'john.smith@strict.test' });
    expect(viaV2.status, JSON.stringify(viaV2.body)).toBe(200);
    const ledgerBefore = (await charges(owner.orgId)).length;

    const r = dataOf<{ email: string; status: string; credits_charged: number }>(await call(client, 'verify_email', { email: 'alice@strict.test' }));
    expect(r).toMatchObject({ email: 'alice@strict.test', status: 'valid', credits_charged: 1 });

    const ledger = await charges(owner.orgId);
    expect(ledger.length).toBe(ledgerBefore + 1);
    const [fromV2, fromMcp] = ledger.slice(-2);
    expect(fromMcp).toEqual(fromV2);
    expect(fromMcp).toMatchObject({ amount: 1, source_agent: 'instant_verify' });
    expect(await getOrgBalance(w.t.db.db, owner.orgId)).toBe(before - 2);
    expect(await appUsage(app.id)).toBe(2);

    // An address the engine calls invalid at once (syntax) is free, as on /v2.
    const bad = dataOf<{ status: string; credits_charged: number }>(await call(client, 'verify_email', { email: 'not an address' }));
    expect(bad.credits_charged).toBe(0);
    expect(await getOrgBalance(w.t.db.db, owner.orgId)).toBe(before - 2);
  });

  it('find_email charges what the /v2 finder charges: 1 credit for a found address, source instant_finder; nothing when none is found', async () => {
    const client = await connect(app.token);
    const strict = people.filter((p) => p.scenario === 'strict' && p.middle_name === null && /^[A-Za-z]+$/.test(p.first_name + p.last_name));
    const [viaV2Person, person] = strict;
    const usage = await appUsage(app.id);
    const before = await getOrgBalance(w.t.db.db, owner.orgId);
    const viaV2 = await v2(app.token, '/email_finder/instant', { name: `${viaV2Person!.first_name} ${viaV2Person!.last_name}`, domain: viaV2Person!.domain });
    expect(viaV2.status, JSON.stringify(viaV2.body)).toBe(200);

    const found = dataOf<{ emails: { email_address: string }[]; credits_charged: number }>(
      await call(client, 'find_email', { first_name: person!.first_name, last_name: person!.last_name, domain: person!.domain }),
    );
    expect(found.emails.map((e) => e.email_address)).toEqual([person!.email]);
    expect(found.credits_charged).toBe(1);
    const [fromV2, fromMcp] = (await charges(owner.orgId)).slice(-2);
    expect(fromMcp).toEqual(fromV2);
    expect(fromMcp).toMatchObject({ amount: 1, source_agent: 'instant_finder' });
    expect(await getOrgBalance(w.t.db.db, owner.orgId)).toBe(before - 2);
    expect(await appUsage(app.id)).toBe(usage + 2);

    const none = dataOf<{ emails: unknown[]; credits_charged: number }>(await call(client, 'find_email', { first_name: 'Zebulon', last_name: 'Nobodyhere', domain: 'strict.test' }));
    expect(none).toMatchObject({ emails: [], credits_charged: 0 });
    expect(await getOrgBalance(w.t.db.db, owner.orgId)).toBe(before - 2);
  });

  it("get_list_status and get_list_results read the token's own lists; another organisation's list id is not found", async () => {
    // A bulk list through /v2 (the test is the worker while the upload waits for its analysis), verified to its end.
    const body = buildMultipart('mcp.csv', 'email\nalice@strict.test\njohn.smith@strict.test\nno.such.user@strict.test\n');
    const upload = w.t.call({ method: 'POST', url: '/v2/email_verify/bulk', headers: { ...body.headers, authorization: `Bearer ${app.token}` }, payload: body.payload });
    let answered = false;
    void upload.finally(() => (answered = true));
    while (!answered) {
      await w.t.deps.queue.runUntilIdle();
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const uploaded = await upload;
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(200);
    const listId = uploaded.body.data.list_id as string;
    await w.t.deps.queue.runUntilIdle();

    const client = await connect(app.token);
    const status = dataOf<{ list_id: string; state: string; progress: number; total: number; verified: number }>(await call(client, 'get_list_status', { list_id: listId }));
    expect(status).toMatchObject({ list_id: listId, state: 'verified', progress: 100, total: 3, verified: 3 });

    const first = dataOf<{ rows: { row_number: number; email: string; status: string }[]; next_after_row: number | null }>(await call(client, 'get_list_results', { list_id: listId, limit: 2 }));
    expect(first.rows.map((r) => [r.email, r.status])).toEqual([
      ['alice@strict.test', 'valid'],
      ['john.smith@strict.test', 'valid'],
    ]);
    expect(first.next_after_row).toBe(first.rows[1]!.row_number);
    const second = dataOf<{ rows: { email: string; status: string }[]; next_after_row: number | null }>(
      await call(client, 'get_list_results', { list_id: listId, after_row: first.next_after_row, limit: 2 }),
    );
    expect(second.rows.map((r) => [r.email, r.status])).toEqual([['no.such.user@strict.test', 'invalid']]);
    expect(second.next_after_row).toBeNull();

    const stranger = await connect(otherApp.token);
    for (const tool of ['get_list_status', 'get_list_results']) {
      const refused = await call(stranger, tool, { list_id: listId });
      expect(refused.isError, tool).toBe(true);
      expect(textOf(refused), tool).toBe('List not found: no bulk verification list with this id in your organisation');
    }
    const malformed = await call(client, 'get_list_status', { list_id: 'not-a-list' });
    expect(malformed.isError).toBe(true);
    expect(textOf(malformed)).toContain('The list id is not valid');
  });

  it('get_credits answers the balance the ledger holds', async () => {
    const client = await connect(app.token);
    const credits = dataOf<{ available_credits: number; organisation_credits: number }>(await call(client, 'get_credits'));
    const balance = await getOrgBalance(w.t.db.db, owner.orgId);
    expect(credits).toMatchObject({ available_credits: balance, organisation_credits: balance });
  });

  it('not enough credits is a tool error with the /v2 message, and nothing is charged', async () => {
    const client = await connect(brokeApp.token);
    const ledgerBefore = await charges(broke.orgId);
    const verify = await call(client, 'verify_email', { email: 'alice@strict.test' });
    expect(verify.isError, JSON.stringify(verify)).toBe(true);
    expect(textOf(verify)).toBe(NO_CREDITS);
    const find = await call(client, 'find_email', { first_name: 'John', last_name: 'Smith', domain: 'strict.test' });
    expect(find.isError).toBe(true);
    expect(textOf(find)).toBe('You do not have sufficient credits for instant email finder');
    expect(await charges(broke.orgId)).toEqual(ledgerBefore);
    expect(await getOrgBalance(w.t.db.db, broke.orgId)).toBe(0);
  });

  it("the app's daily credit limit is a tool error with the /v2 message once reached, and only the allowed call is charged", async () => {
    const capped = await createApp(owner.token, { name: 'Capped assistant', type: 'server', credit_limit: { type: 'daily', value: 1 }, rate_limit: { window: 'minute', max: 10_000, scope: 'global' } });
    const client = await connect(capped.token);
    const before = await getOrgBalance(w.t.db.db, owner.orgId);
    const first = dataOf<{ credits_charged: number }>(await call(client, 'verify_email', { email: 'alice@strict.test' }));
    expect(first.credits_charged).toBe(1);
    const second = await call(client, 'verify_email', { email: 'john.smith@strict.test' });
    expect(second.isError).toBe(true);
    expect(textOf(second)).toBe(DAILY_LIMIT);
    expect(await getOrgBalance(w.t.db.db, owner.orgId)).toBe(before - 1);
    expect(await appUsage(capped.id)).toBe(1);
  });

  it('bad input is a tool error with a readable message, never a protocol failure', async () => {
    const client = await connect(app.token);
    const empty = await call(client, 'verify_email', { email: '' });
    expect(empty.isError).toBe(true);
    expect(textOf(empty)).toContain('Please give an email address');
    const name = await call(client, 'find_email', { first_name: 'J0hn', last_name: 'Smith', domain: 'strict.test' });
    expect(name.isError).toBe(true);
    expect(textOf(name)).toContain('Unsupported characters in the first name');
  });

  it('refuses a JSON-RPC batch with 400 and a JSON-RPC error the SDK client reads; none of its calls runs', async () => {
    const ledgerBefore = await charges(owner.orgId);
    const verify = (id: number, email: string) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'verify_email', arguments: { email } } });
    const batch = [verify(1, 'alice@strict.test'), verify(2, 'john.smith@strict.test')];
    const res = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${app.token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify(batch),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ jsonrpc: '2.0', error: { code: -32600, message: BATCH_REFUSED }, id: null });
    // The SDK's transport sends a batch when given an array: it rejects with the HTTP status and the JSON-RPC message.
    const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers: { authorization: `Bearer ${app.token}` } } });
    await transport.start();
    const refused = await transport.send(batch as never).then(() => null, (err: unknown) => err);
    await transport.close();
    expect(refused).toBeInstanceOf(StreamableHTTPError);
    expect((refused as StreamableHTTPError).code).toBe(400);
    expect((refused as Error).message).toContain(BATCH_REFUSED);
    expect(await charges(owner.orgId)).toEqual(ledgerBefore);
  });

  it("counts every tool call in the app's rate limit: one message per request", async () => {
    const limited = await createApp(owner.token, { name: 'Limited assistant', type: 'server', rate_limit: { window: 'minute', max: 3, scope: 'global' } });
    const post = (id: number) =>
      fetch(`${base}/mcp`, {
        method: 'POST',
        headers: { authorization: `Bearer ${limited.token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'get_credits', arguments: {} } }),
      });
    const statuses: number[] = [];
    for (let id = 1; id <= 4; id++) statuses.push((await post(id)).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
  });

  it('stops a running verification when the client goes away, and charges nothing', async () => {
    const verify = vi.spyOn(w.t.deps.verifier, 'verify');
    try {
      const client = await connect(app.token);
      const ledgerBefore = await charges(owner.orgId);
      // The tarpit host delays every reply by seconds: the verification is still running when the client closes.
      const pending = call(client, 'verify_email', { email: 'dave@tarpit.test' }).then(
        () => 'answered',
        () => 'closed',
      );
      await vi.waitFor(() => expect(verify).toHaveBeenCalledTimes(1), { timeout: 10_000 });
      const signal = verify.mock.calls[0]![1]!.signal!;
      const verifying = verify.mock.results[0]!.value as Promise<unknown>;
      expect(signal.aborted).toBe(false);
      await client.close();
      expect(await pending).toBe('closed');
      // The transport closed with the connection: the verification's signal is aborted and the verification rejects.
      await expect(verifying).rejects.toBeDefined();
      expect(signal.aborted).toBe(true);
      expect(await charges(owner.orgId)).toEqual(ledgerBefore);
    } finally {
      verify.mockRestore();
    }
  });

  it('refuses no token, an unknown token and a form guard (client) token with 401 and the JSON envelope', async () => {
    const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };
    const post = (headers: Record<string, string>) =>
      fetch(`${base}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body: JSON.stringify(initialize) });
    const cases: [Record<string, string>, string][] = [
      [{}, INVALID_TOKEN],
      [{ authorization: 'Bearer ak_not_a_real_token' }, INVALID_TOKEN],
      [{ authorization: `Bearer ${clientToken}` }, CLIENT_TOKEN_REFUSED],
    ];
    for (const [headers, message] of cases) {
      const res = await post(headers);
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
      expect(await res.json()).toEqual({ status: 'failed', error: { code: 'invalid_token', message } });
    }
    await expect(connect(null)).rejects.toThrow(INVALID_TOKEN);
    await expect(connect(clientToken)).rejects.toThrow(CLIENT_TOKEN_REFUSED);
    // The same token works: the refusals are the token's, not the request's.
    expect((await post({ authorization: `Bearer ${app.token}` })).status).toBe(200);
    // A body that is not JSON and a GET (no event stream: the server is stateless) answer 4xx envelopes, never a 5xx.
    const broken = await fetch(`${base}/mcp`, { method: 'POST', headers: { authorization: `Bearer ${app.token}`, 'content-type': 'application/json' }, body: '{"jsonrpc":' });
    expect(broken.status).toBe(400);
    expect(await broken.json()).toMatchObject({ status: 'failed', error: { code: 'validation_failed' } });
    const get = await fetch(`${base}/mcp`, { headers: { authorization: `Bearer ${app.token}`, accept: 'text/event-stream' } });
    expect(get.status).toBe(405);
    expect(await get.json()).toMatchObject({ status: 'failed', error: { code: 'method_not_allowed' } });
  });
});
