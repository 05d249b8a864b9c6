import { DnsTimeoutError, queryDns, type TDnsAnswer, type TDnsServer } from './dns-client';
import type { TVerifierCache } from '../types';

export type TMailHost = { exchange: string; preference: number; addresses: string[] };
export type TMailRouting =
  | { kind: 'mx'; hosts: TMailHost[]; implicit: boolean }
  | { kind: 'nxdomain' }
  | { kind: 'null_mx' }
  | { kind: 'no_mail' }
  | { kind: 'dns_error'; detail: string };

export type TDnsContext = { servers: TDnsServer[]; timeoutMs: number; cache: TVerifierCache };

const MAX_CACHE_MS = 3_600_000;
const NEGATIVE_DEFAULT_MS = 300_000;

type TResolved<T> = { value: T; ttlMs: number };

function getNegativeTtlMs(answer: TDnsAnswer): number {
  const soa = answer.authorities.find((r) => r.type === 'SOA');
  if (!soa) return NEGATIVE_DEFAULT_MS;
  const minimum = (soa.data as { minimum?: number } | null)?.minimum;
  return Math.min(soa.ttl, typeof minimum === 'number' ? minimum : soa.ttl) * 1000;
}

function describeError(error: unknown): string {
  if (error instanceof DnsTimeoutError) return error.message;
  return `DNS query failed: ${(error as Error).message}`;
}

async function resolveAddresses(ctx: TDnsContext, host: string, glue: TDnsAnswer['additionals']): Promise<TResolved<string[]> | { error: string }> {
  const fromGlue = glue.filter((r) => r.type === 'A' && r.name.toLowerCase() === host.toLowerCase());
  if (fromGlue.length > 0) return { value: fromGlue.map((r) => String(r.data)), ttlMs: Math.min(...fromGlue.map((r) => r.ttl)) * 1000 };
  for (const type of ['A', 'AAAA'] as const) {
    let answer: TDnsAnswer;
    try {
      answer = await queryDns(ctx.servers, host, type, ctx.timeoutMs);
    } catch (error) {
      return { error: describeError(error) };
    }
    if (answer.rcode === 'NXDOMAIN') return { value: [], ttlMs: getNegativeTtlMs(answer) };
    if (answer.rcode !== 'NOERROR') return { error: `DNS server answered ${answer.rcode} for ${type} ${host}` };
    const records = answer.answers.filter((r) => r.type === type);
    if (records.length > 0) return { value: records.map((r) => String(r.data)), ttlMs: Math.min(...records.map((r) => r.ttl)) * 1000 };
  }
  return { value: [], ttlMs: NEGATIVE_DEFAULT_MS };
}

async function resolveUncached(ctx: TDnsContext, domain: string): Promise<TResolved<TMailRouting>> {
  let mx: TDnsAnswer;
  try {
    mx = await queryDns(ctx.servers, domain, 'MX', ctx.timeoutMs);
  } catch (error) {
    return { value: { kind: 'dns_error', detail: describeError(error) }, ttlMs: 0 };
  }
  if (mx.rcode === 'NXDOMAIN') return { value: { kind: 'nxdomain' }, ttlMs: getNegativeTtlMs(mx) };
  if (mx.rcode !== 'NOERROR') return { value: { kind: 'dns_error', detail: `DNS server answered ${mx.rcode} for MX ${domain}` }, ttlMs: 0 };

  const records = mx.answers
    .filter((r) => r.type === 'MX')
    .map((r) => ({ ttl: r.ttl, ...(r.data as { preference: number; exchange: string }) }));
  if (records.length > 0) {
    // RFC 7505: a single MX with the root as exchange means the domain accepts no mail.
    if (records.some((r) => r.exchange === '' || r.exchange === '.')) {
      return { value: { kind: 'null_mx' }, ttlMs: Math.min(...records.map((r) => r.ttl)) * 1000 };
    }
    records.sort((a, b) => a.preference - b.preference);
    let ttlMs = Math.min(...records.map((r) => r.ttl)) * 1000;
    const resolved = await Promise.all(records.map((r) => resolveAddresses(ctx, r.exchange.replace(/\.$/, ''), mx.additionals)));
    const hosts: TMailHost[] = [];
    const errors: string[] = [];
    resolved.forEach((res, i) => {
      const record = records[i] as (typeof records)[number];
      if ('error' in res) errors.push(res.error);
      else {
        ttlMs = Math.min(ttlMs, res.ttlMs);
        if (res.value.length > 0) hosts.push({ exchange: record.exchange.replace(/\.$/, '').toLowerCase(), preference: record.preference, addresses: res.value });
      }
    });
    if (hosts.length > 0) return { value: { kind: 'mx', hosts, implicit: false }, ttlMs };
    if (errors.length > 0) return { value: { kind: 'dns_error', detail: errors[0] as string }, ttlMs: 0 };
    return { value: { kind: 'no_mail' }, ttlMs };
  }

  // No MX: RFC 5321 §5.1 implicit MX, the domain's own A/AAAA records.
  const own = await resolveAddresses(ctx, domain, []);
  if ('error' in own) return { value: { kind: 'dns_error', detail: own.error }, ttlMs: 0 };
  if (own.value.length === 0) return { value: { kind: 'no_mail' }, ttlMs: Math.min(own.ttlMs, getNegativeTtlMs(mx)) };
  return { value: { kind: 'mx', hosts: [{ exchange: domain, preference: 0, addresses: own.value }], implicit: true }, ttlMs: own.ttlMs };
}

/** Mail routing of a domain: MX hosts by preference with their addresses, or why there is none. Cached by record TTL. */
export async function resolveMailRouting(ctx: TDnsContext, domain: string): Promise<TMailRouting> {
  const key = `dns:mail:${domain}`;
  const cached = (await ctx.cache.get(key)) as TMailRouting | undefined;
  if (cached) return cached;
  const { value, ttlMs } = await resolveUncached(ctx, domain);
  if (ttlMs > 0) await ctx.cache.set(key, value, Math.min(ttlMs, MAX_CACHE_MS));
  return value;
}
