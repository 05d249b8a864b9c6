import http from 'node:http';
import https from 'node:https';
import type { Agent } from 'undici';
import type { TConfig } from '../../config';
import { checkLiteralHost, createDnsServersLookup, createGuardedLookup, hostOf, OutboundRefusedError, parseDestination, type TOutboundPolicy } from './guard';

/** The configuration an outbound policy is built from. */
export type TOutboundConfig = Pick<TConfig, 'allowPrivateDestinations' | 'outboundDnsServers' | 'outboundTestHooks'>;

/**
 * The policy of every user-given destination: private destinations only with ALLOW_PRIVATE_DESTINATIONS (or
 * `allowPrivate` for a destination the operator configured, such as this server's own local fakes or the demo IdP),
 * names resolved by OUTBOUND_DNS_SERVERS when set, else the system resolver.
 */
export function outboundPolicyOf(config: TOutboundConfig, opts: { allowPrivate?: boolean } = {}): TOutboundPolicy {
  const hooks = config.outboundTestHooks ?? {};
  return {
    allowPrivate: config.allowPrivateDestinations || opts.allowPrivate === true,
    ...(config.outboundDnsServers.length > 0 ? { lookup: createDnsServersLookup(config.outboundDnsServers) } : {}),
    ...hooks,
  };
}

export type TOutboundFetchInit = {
  method?: string;
  headers?: Record<string, string>;
  body?: string | URLSearchParams | Uint8Array | ArrayBuffer | ReadableStream | null;
  signal?: AbortSignal | null;
};

/** A Fetch-compatible function whose every connection is guarded; redirects are answered, never followed. */
export type TOutboundFetch = (input: string | URL, init?: TOutboundFetchInit) => Promise<Response>;

/** The guard's refusal inside an error (a failed fetch keeps it as its cause; libraries wrap it again), or null. */
export function findRefusal(err: unknown): OutboundRefusedError | null {
  for (let e: unknown = err, depth = 0; e && depth < 6; e = (e as { cause?: unknown }).cause, depth += 1) {
    if (e instanceof OutboundRefusedError) return e;
  }
  return null;
}

export type TOutboundClient = {
  policy: TOutboundPolicy;
  /** Fetch through the guard: one checked resolution per connection, the socket pinned to it, no redirect followed. */
  fetch: TOutboundFetch;
  /** A node http(s) Agent with the same guard, for SDKs that take an agent (each redirect hop is re-checked). */
  nodeAgent(protocol: 'http:' | 'https:'): http.Agent;
  close(): Promise<void>;
};

/**
 * The one outbound HTTP client for user-given destinations (webhooks, integration APIs, OpenID Connect providers).
 * An address literal is checked before the request; a name is resolved once per connection by the guarded lookup,
 * every address it has is checked, and the socket connects only to those.
 */
export function createOutboundClient(policy: TOutboundPolicy): TOutboundClient {
  const lookup = createGuardedLookup(policy);
  // undici is loaded on the first request (a server that never calls out does not hold it).
  let undici: Promise<{ dispatcher: Agent; fetch: typeof import('undici').fetch }> | null = null;
  const loadUndici = () =>
    (undici ??= import('undici').then((u) => ({ dispatcher: new u.Agent({ connect: { lookup }, keepAliveTimeout: 4_000 }), fetch: u.fetch })));
  const agents = new Map<string, http.Agent>();

  const guardedFetch: TOutboundFetch = async (input, init = {}) => {
    const url = parseDestination(typeof input === 'string' ? input : input.href);
    checkLiteralHost(hostOf(url), policy);
    const { dispatcher, fetch: undiciFetch } = await loadUndici();
    try {
      const res = await undiciFetch(url, {
        method: init.method ?? 'GET',
        headers: init.headers,
        body: (init.body ?? null) as never,
        signal: init.signal ?? null,
        redirect: 'manual',
        dispatcher,
      });
      return res as unknown as Response;
    } catch (err) {
      throw findRefusal(err) ?? err;
    }
  };

  function nodeAgent(protocol: 'http:' | 'https:'): http.Agent {
    const existing = agents.get(protocol);
    if (existing) return existing;
    const agent = protocol === 'https:' ? new https.Agent({ keepAlive: true, lookup } as https.AgentOptions) : new http.Agent({ keepAlive: true, lookup } as http.AgentOptions);
    // A literal address is never looked up: check it before the socket is made (a redirect to one is refused too).
    const create = agent.createConnection.bind(agent) as (o: { host?: string | null }, cb: (err: Error | null, s?: unknown) => void) => unknown;
    (agent as unknown as { createConnection: typeof create }).createConnection = (options, cb) => {
      try {
        checkLiteralHost(String(options.host ?? ''), policy);
      } catch (err) {
        cb(err as Error);
        return undefined;
      }
      return create(options, cb);
    };
    agents.set(protocol, agent);
    return agent;
  }

  return {
    policy,
    fetch: guardedFetch,
    nodeAgent,
    async close() {
      for (const a of agents.values()) a.destroy();
      if (undici) await (await undici).dispatcher.close();
    },
  };
}

export type TOutboundResponse = { statusCode: number; body: string; latencyMs: number };

/**
 * POSTs a body to a guarded destination with a timeout, reading at most 10,000 characters of the answer.
 * Rejects with OutboundRefusedError (refused destination) or an Error (network, timeout). A redirect is an answer
 * like any other (its 3xx status), never followed.
 */
export async function postGuarded(
  client: TOutboundClient,
  rawUrl: string,
  body: string,
  headers: Record<string, string>,
  opts: { timeoutMs: number; now?: () => number },
): Promise<TOutboundResponse> {
  const now = opts.now ?? (() => performance.now());
  const started = now();
  let res: Response;
  try {
    res = await client.fetch(rawUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'Verilead-Webhooks/1', ...headers },
      body,
      signal: AbortSignal.timeout(opts.timeoutMs),
    });
  } catch (err) {
    if (err instanceof OutboundRefusedError) throw err;
    if ((err as Error).name === 'TimeoutError') throw new Error(`No answer within ${Math.round(opts.timeoutMs / 1000)} s`);
    throw new Error((err as { cause?: Error }).cause?.message ?? (err as Error).message);
  }
  const text = await readCapped(res, 10_000);
  return { statusCode: res.status, body: text, latencyMs: Math.round(now() - started) };
}

/** The first `max` characters of a body, without reading the rest into memory. */
async function readCapped(res: Response, max: number): Promise<string> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
    if (text.length >= max) {
      await reader.cancel().catch(() => undefined);
      break;
    }
  }
  return text.slice(0, max);
}
