import { lookup as dnsLookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP } from 'node:net';

/** Why a destination was refused. */
export class OutboundRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OutboundRefusedError';
  }
}

const PRIVATE = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  PRIVATE.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  PRIVATE.addSubnet(net, prefix, 'ipv6');
}

/** True for private, loopback, link-local, unspecified, multicast and reserved addresses (IPv4-mapped IPv6 included). */
export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1]) return PRIVATE.check(mapped[1], 'ipv4');
  const family = isIP(address);
  if (family === 4) return PRIVATE.check(address, 'ipv4');
  if (family === 6) return PRIVATE.check(address, 'ipv6');
  return true;
}

export type TLookup = (hostname: string) => Promise<{ address: string; family: number }[]>;
const defaultLookup: TLookup = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

export type TOutboundOptions = {
  /** Allow private, loopback and link-local destinations (config ALLOW_PRIVATE_WEBHOOKS; tests). */
  allowPrivate: boolean;
  /** DNS resolution (injectable so tests never resolve real names). */
  lookup?: TLookup;
};

/**
 * Resolves a URL's host and refuses it when any address is private, loopback or link-local
 * (unless allowed). Answers the address to connect to, so the request cannot be re-resolved elsewhere.
 */
export async function resolveDestination(rawUrl: string, opts: TOutboundOptions): Promise<{ url: URL; address: string; family: number }> {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw new OutboundRefusedError(`"${rawUrl}" is not a valid URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new OutboundRefusedError('Only http and https destinations are allowed');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const literal = isIP(host);
  let addresses: { address: string; family: number }[];
  if (literal) addresses = [{ address: host, family: literal }];
  else {
    try {
      addresses = await (opts.lookup ?? defaultLookup)(host);
    } catch {
      throw new OutboundRefusedError(`The host ${host} could not be resolved`);
    }
  }
  const first = addresses[0];
  if (!first) throw new OutboundRefusedError(`The host ${host} has no address`);
  if (!opts.allowPrivate) {
    const blocked = addresses.find((a) => isPrivateAddress(a.address));
    if (blocked) {
      throw new OutboundRefusedError(
        `The destination ${host} resolves to ${blocked.address}, a private, loopback or link-local address; such destinations are refused`,
      );
    }
  }
  return { url, address: first.address, family: first.family };
}

export type TOutboundResponse = { statusCode: number; body: string; latencyMs: number };

/**
 * POSTs a body to a checked destination, connecting to the checked address only, with a timeout.
 * Rejects with OutboundRefusedError (refused destination) or an Error (network, timeout).
 */
export async function postGuarded(
  rawUrl: string,
  body: string,
  headers: Record<string, string>,
  opts: TOutboundOptions & { timeoutMs: number; now?: () => number },
): Promise<TOutboundResponse> {
  const now = opts.now ?? (() => performance.now());
  const { url, address, family } = await resolveDestination(rawUrl, opts);
  const started = now();
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<TOutboundResponse>((resolve, reject) => {
    const req = client.request(
      url,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), 'user-agent': 'Verilead-Webhooks/1', ...headers },
        // Connect to the address that was checked, never a fresh resolution.
        lookup: (_host, options, cb) => {
          if ((options as { all?: boolean }).all) (cb as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address, family }]);
          else cb(null, address, family);
        },
        timeout: opts.timeoutMs,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size <= 10_000) chunks.push(c);
        });
        res.on('end', () => resolve({ statusCode: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8').slice(0, 10_000), latencyMs: Math.round(now() - started) }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`No answer within ${Math.round(opts.timeoutMs / 1000)} s`)));
    req.on('error', reject);
    req.end(body);
  });
}
