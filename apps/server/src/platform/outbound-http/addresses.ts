import { BlockList, isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { networkInterfaces } from 'node:os';

/*
 * Which addresses an outbound request must never reach. Node's BlockList holds the IANA special-purpose
 * registries; the IPv6 forms that carry an IPv4 address are judged by the IPv4 they carry.
 */

// IANA IPv4 Special-Purpose Address Registry (every block not globally reachable, plus deprecated relays).
const SPECIAL_V4 = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // shared address space (CGN)
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (cloud metadata)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // TEST-NET-1
  ['192.88.99.0', 24], // 6to4 relay anycast (deprecated)
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // TEST-NET-2
  ['203.0.113.0', 24], // TEST-NET-3
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and 255.255.255.255 limited broadcast
] as const) {
  SPECIAL_V4.addSubnet(net, prefix, 'ipv4');
}

// IANA IPv6 Special-Purpose Address Registry. The ranges that embed an IPv4 address (::ffff:0:0/96,
// ::/96, 64:ff9b::/96, 2002::/16) are not listed: they are judged by the IPv4 they carry.
const SPECIAL_V6 = new BlockList();
for (const [net, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['64:ff9b:1::', 48], // local-use IPv4/IPv6 translation
  ['100::', 64], // discard-only
  ['2001::', 23], // IETF protocol assignments (Teredo 2001::/32, ORCHID, benchmarking…)
  ['2001:db8::', 32], // documentation
  ['3fff::', 20], // documentation
  ['5f00::', 16], // segment routing (SRv6) SIDs
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const) {
  SPECIAL_V6.addSubnet(net, prefix, 'ipv6');
}

/** The 16 bytes of an IPv6 address (a trailing dotted IPv4 and a zone id allowed), or null: parsed by ipaddr.js. */
function parseIPv6(address: string): number[] | null {
  const text = address.replace(/%.*$/, '');
  if (isIP(text) !== 6 || !ipaddr.IPv6.isValid(text)) return null;
  return ipaddr.IPv6.parse(text).toByteArray();
}

/** The IPv4 address an IPv6 address embeds (IPv4-mapped, IPv4-compatible, NAT64, 6to4), or null. */
export function embeddedIPv4(address: string): string | null {
  const b = parseIPv6(address);
  if (!b) return null;
  const v4 = (o: number) => `${b[o]}.${b[o + 1]}.${b[o + 2]}.${b[o + 3]}`;
  const zero = (from: number, to: number) => b.slice(from, to).every((x) => x === 0);
  // ::ffff:a.b.c.d (mapped) and ::ffff:0:a.b.c.d (translated, RFC 2765)
  if (zero(0, 10) && b[10] === 0xff && b[11] === 0xff) return v4(12);
  if (zero(0, 8) && b[8] === 0xff && b[9] === 0xff && zero(10, 12)) return v4(12);
  // ::a.b.c.d (IPv4-compatible, deprecated); :: and ::1 land in 0.0.0.0/8 and stay refused
  if (zero(0, 12)) return v4(12);
  // 64:ff9b::/96 (NAT64 well-known prefix)
  if (b[0] === 0x00 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && zero(4, 12)) return v4(12);
  // 2002:a.b.c.d::/48 (6to4)
  if (b[0] === 0x20 && b[1] === 0x02) return v4(2);
  return null;
}

/** The addresses of this machine's own interfaces (a webhook must never call the server itself). */
export function listOwnAddresses(): string[] {
  return Object.values(networkInterfaces())
    .flat()
    .map((i) => i?.address)
    .filter((a): a is string => Boolean(a));
}

export function normalise(address: string): { family: 4 | 6; address: string } | null {
  const bare = address.replace(/%.*$/, '');
  const family = isIP(bare);
  if (family === 4) return { family: 4, address: bare };
  if (family !== 6) return null;
  const v4 = embeddedIPv4(bare);
  return v4 ? { family: 4, address: v4 } : { family: 6, address: bare };
}

function sameAddress(a: string, b: string): boolean {
  const x = normalise(a);
  const y = normalise(b);
  if (!x || !y || x.family !== y.family) return false;
  if (x.family === 4) return x.address === y.address;
  return parseIPv6(x.address)?.join('.') === parseIPv6(y.address)?.join('.');
}

/** True when `address` is one of this server's own interface addresses (in any of its IPv6 spellings). */
export function isOwnAddress(address: string, ownAddresses: () => string[] = listOwnAddresses): boolean {
  return ownAddresses().some((own) => sameAddress(own, address));
}

/**
 * True for every address an outbound request must not reach: the IANA IPv4 and IPv6 special-purpose ranges
 * (private, loopback, link-local, shared, documentation, benchmarking, multicast, reserved…), every
 * IPv6 form judged by the IPv4 it embeds, the host's own interface addresses, and anything unparseable.
 */
export function isPrivateAddress(address: string, opts: { ownAddresses?: () => string[] } = {}): boolean {
  return isSpecialPurpose(address) || isOwnAddress(address, opts.ownAddresses ?? listOwnAddresses);
}

export function isSpecialPurpose(address: string): boolean {
  const n = normalise(address);
  if (!n) return true;
  return n.family === 4 ? SPECIAL_V4.check(n.address, 'ipv4') : SPECIAL_V6.check(n.address, 'ipv6');
}

