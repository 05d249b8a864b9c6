import { lookup as dnsLookup, Resolver } from 'node:dns/promises';
import type { LookupAddress, LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import { isPrivateAddress, isSpecialPurpose, listOwnAddresses } from './addresses';

export { embeddedIPv4, isOwnAddress, isPrivateAddress } from './addresses';

/** Why a destination was refused. */
export class OutboundRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OutboundRefusedError';
  }
}

/** The documented switch, named in every refusal so a self-hoster knows what to set. */
export const ALLOW_HINT =
  'A self-hosted server that must call private destinations can allow them with ALLOW_PRIVATE_DESTINATIONS=true.';

export type TLookup = (hostname: string) => Promise<{ address: string; family: number }[]>;

/** The system resolver (getaddrinfo: /etc/hosts, then DNS), every address. */
const systemLookup: TLookup = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/** A resolver asking these DNS servers (`host` or `host:port`) for A and AAAA records. */
export function createDnsServersLookup(servers: string[], timeoutMs = 5_000): TLookup {
  const resolver = new Resolver({ timeout: timeoutMs, tries: 2 });
  resolver.setServers(servers);
  return async (hostname) => {
    const [v4, v6] = await Promise.allSettled([resolver.resolve4(hostname), resolver.resolve6(hostname)]);
    const out = [
      ...(v4.status === 'fulfilled' ? v4.value.map((address) => ({ address, family: 4 })) : []),
      ...(v6.status === 'fulfilled' ? v6.value.map((address) => ({ address, family: 6 })) : []),
    ];
    if (out.length === 0) throw (v4.status === 'rejected' ? v4.reason : new Error(`${hostname} has no address`)) as Error;
    return out;
  };
}

/**
 * What one outbound client may reach. Every user-given destination goes through a client built from a policy
 * (`outboundPolicyOf` in client.ts builds it from the configuration).
 */
export type TOutboundPolicy = {
  /** Allow private, loopback and link-local destinations (ALLOW_PRIVATE_DESTINATIONS; the server's own local fakes). */
  allowPrivate: boolean;
  /** DNS resolution (default: the system resolver; OUTBOUND_DNS_SERVERS; tests use a DNS server on loopback). */
  lookup?: TLookup;
  /** This machine's interface addresses (injectable for tests; default os.networkInterfaces()). */
  ownAddresses?: () => string[];
  /**
   * Which resolved addresses are refused (default: isPrivateAddress with `ownAddresses`). Tests replace it to let one
   * loopback address play a public server, so that the allowed path runs without the internet.
   */
  isRefused?: (address: string) => boolean;
};

/** Backwards-compatible name: webhooks and adapters built their options under it. */
export type TOutboundOptions = TOutboundPolicy;

function refusalOf(host: string, address: string, policy: TOutboundPolicy): OutboundRefusedError | null {
  if (policy.allowPrivate) return null;
  const refused = policy.isRefused ?? ((a: string) => isPrivateAddress(a, { ownAddresses: policy.ownAddresses ?? listOwnAddresses }));
  if (!refused(address)) return null;
  const what = isSpecialPurpose(address) ? 'a private, loopback, link-local or other special-purpose address' : "this server's own address";
  return new OutboundRefusedError(`The destination ${host} resolves to ${address}, ${what}; such destinations are refused. ${ALLOW_HINT}`);
}

/** Parses a destination URL: http or https only. */
export function parseDestination(rawUrl: string | URL): URL {
  let url: URL;
  try {
    url = typeof rawUrl === 'string' ? new URL(rawUrl) : rawUrl;
  } catch {
    throw new OutboundRefusedError(`"${String(rawUrl)}" is not a valid URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new OutboundRefusedError('Only http and https destinations are allowed');
  return url;
}

/** A URL's host without IPv6 brackets. (The WHATWG parser already turned 127.1, 2130706433 and 0x7f.0.0.1 into 127.0.0.1.) */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '');
}

/** Refuses a host that is an address literal the policy does not allow (a literal is never looked up). */
export function checkLiteralHost(host: string, policy: TOutboundPolicy): void {
  const bare = host.replace(/^\[|\]$/g, '');
  if (!isIP(bare)) return;
  const refusal = refusalOf(bare, bare, policy);
  if (refusal) throw refusal;
}

/** Resolves a host once and checks every address it has; answers them all (the caller connects to these only). */
export async function resolveChecked(host: string, policy: TOutboundPolicy): Promise<{ address: string; family: number }[]> {
  const literal = isIP(host);
  let addresses: { address: string; family: number }[];
  if (literal) addresses = [{ address: host, family: literal }];
  else {
    try {
      addresses = await (policy.lookup ?? systemLookup)(host);
    } catch {
      throw new OutboundRefusedError(`The host ${host} could not be resolved`);
    }
  }
  if (addresses.length === 0) throw new OutboundRefusedError(`The host ${host} has no address`);
  for (const a of addresses) {
    const refusal = refusalOf(host, a.address, policy);
    if (refusal) throw refusal;
  }
  return addresses;
}

/**
 * Resolves a URL's host and refuses it when any address is private, loopback or link-local (unless allowed).
 * Answers the first address. A check at save time only: the request itself connects through a guarded client,
 * which resolves and checks again at connect time and dials exactly the address it checked.
 */
export async function resolveDestination(rawUrl: string, policy: TOutboundPolicy): Promise<{ url: URL; address: string; family: number }> {
  const url = parseDestination(rawUrl);
  const [first] = await resolveChecked(hostOf(url), policy);
  return { url, address: first!.address, family: first!.family };
}

type TLookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for net/tls connections: one resolution per connection, every address checked, and the socket dials
 * only the addresses that were checked (no second resolution between the check and the connection).
 */
export function createGuardedLookup(policy: TOutboundPolicy) {
  return (hostname: string, options: LookupOptions | number | undefined, cb: TLookupCallback): void => {
    const all = typeof options === 'object' && options !== null && options.all === true;
    const family = typeof options === 'number' ? options : (options?.family ?? 0);
    resolveChecked(hostname.replace(/^\[|\]$/g, ''), policy).then(
      (addresses) => {
        const wanted = family === 4 || family === 6 ? addresses.filter((a) => a.family === family) : addresses;
        if (wanted.length === 0) return cb(Object.assign(new Error(`The host ${hostname} has no IPv${family} address`), { code: 'ENOTFOUND' }), '', 0);
        if (all) return cb(null, wanted);
        return cb(null, wanted[0]!.address, wanted[0]!.family);
      },
      (err: Error) => cb(err as NodeJS.ErrnoException, '', 0),
    );
  };
}
