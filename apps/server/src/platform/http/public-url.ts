import { AsyncLocalStorage, AsyncResource } from 'node:async_hooks';
import { networkInterfaces } from 'node:os';

/**
 * The one base URL every link the server builds starts with (return pages of payments and OAuth consents, e-mail
 * links, the /v2 reference's server, download URLs): `PUBLIC_URL` when the operator set it; otherwise the address the
 * request in hand was made to, so an app opened at http://127.0.0.1:3000 returns there (with its session) and not to
 * another origin. Outside a request (jobs, start-up) without `PUBLIC_URL`: http://localhost:PORT, and the server warns
 * at start (`describeMissingPublicUrl`).
 */
export type TPublicUrlConfig = { configuredPublicUrl: string | undefined; port: number; trustProxy: boolean };

const requestBase = new AsyncLocalStorage<string>();

/** The base URL for links (no trailing slash). */
export function getPublicBaseUrl(config: Pick<TPublicUrlConfig, 'configuredPublicUrl' | 'port'>): string {
  return config.configuredPublicUrl ?? requestBase.getStore() ?? fallbackBaseUrl(config.port);
}

export function fallbackBaseUrl(port: number): string {
  return `http://localhost:${port}`;
}

/** What the start-up log says when `PUBLIC_URL` is not set (null when it is). */
export function describeMissingPublicUrl(config: TPublicUrlConfig): string | null {
  if (config.configuredPublicUrl) return null;
  return (
    `PUBLIC_URL is not set: links are built from the address each request was made to` +
    `${config.trustProxy ? ' (X-Forwarded-Host and -Proto trusted: TRUST_PROXY)' : ' (its Host header; this machine\'s own names and addresses only)'}, ` +
    `and e-mails sent by background jobs link to ${fallbackBaseUrl(config.port)}. Set PUBLIC_URL to the address people use.`
  );
}

type TRequestAddress = { protocol: string; host: string };

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);
let ownAddresses: Set<string> | null = null;

/** This machine's interface addresses (as they appear in a Host header), read once. */
function readOwnAddresses(): Set<string> {
  if (!ownAddresses) {
    ownAddresses = new Set();
    for (const list of Object.values(networkInterfaces())) {
      for (const a of list ?? []) ownAddresses.add(a.family === 'IPv6' ? `[${a.address.toLowerCase()}]` : a.address);
    }
  }
  return ownAddresses;
}

/** `host[:port]` split, or null when it is not a plain host name or address with an optional port. */
function splitHost(host: string): { name: string; port: string | null } | null {
  const m = /^(\[[0-9a-f:.]+\]|[a-z0-9](?:[a-z0-9.-]{0,251}[a-z0-9])?)(?::(\d{1,5}))?$/i.exec(host);
  if (!m?.[1]) return null;
  return { name: m[1].toLowerCase(), port: m[2] ?? null };
}

/**
 * The base URL a request was made to, or null when it cannot be used for links. Without TRUST_PROXY, Fastify's
 * `protocol` and `host` come from the connection and the Host header; a Host header is taken only when it names this
 * machine (a loopback name, `*.localhost`, or one of its interface addresses), so a forged Host cannot put another
 * site into the links a password-reset e-mail carries. With TRUST_PROXY the proxy's X-Forwarded-Host/-Proto are
 * taken as the operator said they may be.
 */
export function readRequestBaseUrl(config: Pick<TPublicUrlConfig, 'trustProxy'>, request: TRequestAddress): string | null {
  const host = splitHost(request.host.split(',')[0]!.trim());
  const protocol = request.protocol === 'https' ? 'https' : 'http';
  if (!host) return null;
  if (!config.trustProxy && !(LOOPBACK_NAMES.has(host.name) || host.name.endsWith('.localhost') || readOwnAddresses().has(host.name))) return null;
  return `${protocol}://${host.name}${host.port ? `:${host.port}` : ''}`;
}

const SCOPE = Symbol('verilead.requestBaseScope');
type TScoped = { [SCOPE]?: AsyncResource };

/** Minimal view of Fastify's hooks, so this module stays free of Fastify's types. */
type THookHost = {
  addHook(name: 'onRequest' | 'preValidation', hook: (request: TRequestAddress & TScoped & { raw: unknown }, reply: unknown, done: () => void) => void): unknown;
};

/**
 * Without PUBLIC_URL, runs each request in a scope that knows the base URL it was made to (nothing is installed when
 * PUBLIC_URL is set). The scope is carried past the body parser (whose stream events run outside it) by re-entering
 * it in preValidation, as @fastify/request-context does.
 */
export function registerRequestBaseUrl(app: THookHost, config: TPublicUrlConfig): void {
  if (config.configuredPublicUrl) return;
  app.addHook('onRequest', (request, _reply, done) => {
    const base = readRequestBaseUrl(config, request) ?? fallbackBaseUrl(config.port);
    requestBase.run(base, () => {
      const scope = new AsyncResource('verilead-request-base');
      request[SCOPE] = scope;
      scope.runInAsyncScope(done, request.raw);
    });
  });
  app.addHook('preValidation', (request, _reply, done) => {
    const scope = request[SCOPE];
    if (scope) scope.runInAsyncScope(done, request.raw);
    else done();
  });
}

/** Runs `fn` as if inside a request made to `base` (tests, and work started for a request outside its hooks). */
export function runWithRequestBaseUrl<T>(base: string, fn: () => T): T {
  return requestBase.run(base, fn);
}
