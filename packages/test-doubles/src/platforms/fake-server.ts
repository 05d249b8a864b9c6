import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { listenOnLoopback } from '../http';

/** A member of a fake platform's list. */
export type TFakeMember = { id: string; email: string; firstName: string; lastName: string };
export type TFakeList = { id: string; name: string; members: TFakeMember[]; dynamic?: boolean };
export type TFakeSeed = { apiKey: string; lists: TFakeList[] };

/** A mutation the fake recorded (unsubscribe, untag, field value, field created…), for tests to assert. */
export type TFakeWrite = { kind: string; listId?: string; memberId?: string; email?: string; data?: unknown };

export type TFakeRequest = { method: string; path: string; query: URLSearchParams; headers: IncomingMessage['headers']; body: unknown };
/** `raw`: a non-JSON body (export files). */
export type TFakeReply = { status: number; body?: unknown; raw?: string; headers?: Record<string, string> };

export type TFakePlatform = {
  baseUrl: string;
  /** Every request received (method and path), in order. */
  requests: { method: string; path: string }[];
  writes: TFakeWrite[];
  seed: TFakeSeed;
  /** The next `n` requests (those matching `match`, when given) answer the platform's throttling signal. */
  throttleNext(n: number, match?: (req: TFakeRequest) => boolean): void;
  throttled: number;
  /** The next request matching `match` is never answered (a platform that hangs; tests kill the worker waiting on it). */
  holdNext(match: (req: TFakeRequest) => boolean): Promise<void>;
  close(): Promise<void>;
};

/**
 * A local HTTP server on 127.0.0.1 for one platform: `route` answers requests that passed `authorise`, and
 * `throttle` is the platform's own throttling reply. Bodies are JSON.
 */
export async function startFakeServer(opts: {
  seed: TFakeSeed;
  pathPrefix?: string;
  authorise(req: TFakeRequest): TFakeReply | null;
  throttle(): TFakeReply;
  route(req: TFakeRequest, fake: TFakePlatform): TFakeReply | Promise<TFakeReply>;
}): Promise<TFakePlatform> {
  let throttleLeft = 0;
  let throttleMatch: ((req: TFakeRequest) => boolean) | null = null;
  let hold: { match: (req: TFakeRequest) => boolean; reached: () => void } | null = null;
  const fake: TFakePlatform = {
    baseUrl: '',
    requests: [],
    writes: [],
    seed: opts.seed,
    throttled: 0,
    throttleNext: (n, match) => {
      throttleLeft = n;
      throttleMatch = match ?? null;
    },
    holdNext: (match) => new Promise<void>((reached) => (hold = { match, reached })),
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
  const send = (res: ServerResponse, reply: TFakeReply) => {
    res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
    res.end(reply.raw ?? (reply.body === undefined ? '' : JSON.stringify(reply.body)));
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const url = new URL(req.url ?? '/', 'http://fake');
        const prefix = opts.pathPrefix ?? '';
        const path = url.pathname.startsWith(prefix) ? url.pathname.slice(prefix.length) || '/' : url.pathname;
        let body: unknown = null;
        const raw = Buffer.concat(chunks).toString('utf8');
        try {
          // OAuth token endpoints and consent forms post form-encoded bodies; APIs post JSON.
          if (String(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) body = Object.fromEntries(new URLSearchParams(raw));
          else body = raw ? JSON.parse(raw) : null;
        } catch {
          return send(res, { status: 400, body: { message: 'Invalid JSON' } });
        }
        const fr: TFakeRequest = { method: req.method ?? 'GET', path, query: url.searchParams, headers: req.headers, body };
        fake.requests.push({ method: fr.method, path });
        if (hold?.match(fr)) {
          hold.reached();
          hold = null;
          return;
        }
        if (throttleLeft > 0 && (!throttleMatch || throttleMatch(fr))) {
          throttleLeft -= 1;
          fake.throttled += 1;
          return send(res, opts.throttle());
        }
        const denied = opts.authorise(fr);
        if (denied) return send(res, denied);
        try {
          send(res, await opts.route(fr, fake));
        } catch (err) {
          send(res, { status: 500, body: { message: (err as Error).message } });
        }
      })();
    });
  });
  await listenOnLoopback(server);
  // A fake never keeps a process alive by itself (test mode starts them inside the server).
  server.unref();
  fake.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}${opts.pathPrefix ?? ''}`;
  return fake;
}

/** `count` members with addresses `${local}${i}@${domain}` (ids from `idPrefix`). */
export function makeMembers(count: number, opts: { domain?: string; local?: string; idPrefix?: string } = {}): TFakeMember[] {
  return Array.from({ length: count }, (_, i) => ({
    id: `${opts.idPrefix ?? 'm'}${i + 1}`,
    email: `${opts.local ?? 'person'}${i + 1}@${opts.domain ?? 'example.test'}`,
    firstName: `First${i + 1}`,
    lastName: `Last${i + 1}`,
  }));
}

export function findList(seed: TFakeSeed, id: string | undefined): TFakeList | undefined {
  return seed.lists.find((l) => l.id === id);
}

/** The `limit` a request asked for, refused above the platform's cap (as the platforms do: 400). */
export function readLimit(value: string | null, def: number, cap: number): number | TFakeReply {
  const n = value === null ? def : Number(value);
  if (!Number.isInteger(n) || n < 1 || n > cap) return { status: 400, body: { message: `limit must be between 1 and ${cap}` } };
  return n;
}

export const notFound: TFakeReply = { status: 404, body: { message: 'Not found' } };
