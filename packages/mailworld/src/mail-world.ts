import { randomInt } from 'node:crypto';
import type net from 'node:net';
import tls from 'node:tls';
import { listBuiltinMailboxes } from './corpus';
import { startDnsServer, type TDnsName, type TDnsZoneData } from './dns-server';
import { DOMAINS, HOSTS, SCENARIO_EXAMPLES, type THostSpec } from './scenarios';
import { createSmtpServer, getHostStats, type TSmtpWorldState } from './smtp-server';
import { TLS_CERT, TLS_KEY } from './tls-cert';
import { computeExpected, parseAddress } from './truth';
import type { TCorpusEntry, TExpected, TMailboxState, TMailWorld, TStartMailWorldOptions } from './types';

/** A stable number in [min, max] for a host name (FNV-1a), so a realistic world's timings repeat from run to run. */
function spreadByName(name: string, salt: string, [min, max]: [number, number]): number {
  let hash = 0x811c9dc5;
  for (const char of `${salt}:${name}`) hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193) >>> 0;
  return Math.round(min + ((hash % 10_000) / 9_999) * (max - min));
}

const MAX_BIND_ATTEMPTS = 40;

/** The domains whose mail each host receives (relay is denied for the rest). */
function mapDomainsByHost(): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>(HOSTS.map((h) => [h.name, new Set<string>()]));
  for (const domain of DOMAINS) {
    for (const mx of domain.mx ?? []) out.get(mx.host)?.add(domain.domain);
    if (domain.aHost) out.get(domain.aHost)?.add(domain.domain);
  }
  return out;
}

function applyCorpus(mailboxes: Map<string, TMailboxState>, corpus: readonly TCorpusEntry[]): void {
  const stateByReason: Record<string, TMailboxState | null> = {
    valid_mailbox: 'active', mailbox_full: 'full', mailbox_disabled: 'disabled', mailbox_not_found: null,
  };
  for (const entry of corpus) {
    const parsed = parseAddress(entry.email);
    if (!parsed || !(entry.expected.reason in stateByReason)) continue;
    const key = `${parsed.local}@${parsed.domain}`;
    const state = stateByReason[entry.expected.reason];
    if (state) mailboxes.set(key, state);
    else mailboxes.delete(key);
  }
}

export function buildZone(ipByHost: ReadonlyMap<string, string>): TDnsZoneData {
  const names = new Map<string, TDnsName>();
  const apexes = new Set<string>();
  const rcodeZones = new Map<string, 'NXDOMAIN' | 'SERVFAIL'>();
  const entry = (name: string): TDnsName => {
    const existing = names.get(name);
    if (existing) return existing;
    const created: TDnsName = {};
    names.set(name, created);
    return created;
  };
  for (const domain of DOMAINS) {
    if (domain.rcode) {
      rcodeZones.set(domain.domain, domain.rcode);
      continue;
    }
    apexes.add(domain.domain);
    const record = entry(domain.domain);
    if (domain.nullMx) record.mx = [{ preference: 0, exchange: '.' }];
    else if (domain.mx) record.mx = domain.mx.map((mx) => ({ preference: mx.preference, exchange: mx.host }));
    const aIp = domain.aHost ? ipByHost.get(domain.aHost) : undefined;
    if (aIp) record.a = [aIp];
    record.txt = [domain.nullMx || !domain.mx && !domain.aHost ? 'v=spf1 -all' : 'v=spf1 mx -all'];
  }
  for (const [host, ip] of ipByHost) {
    entry(host).a = [ip];
    const labels = host.split('.');
    const apex = labels.slice(-2).join('.');
    if (!DOMAINS.some((d) => d.domain === apex)) apexes.add(apex);
  }
  return { names, apexes, rcodeZones };
}

type TBoundHosts = { port: number; ipByHost: Map<string, string>; servers: net.Server[] };

function listenServer(server: net.Server, ip: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host: ip, port, exclusive: true }, () => {
      server.off('error', reject);
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : port);
    });
  });
}

function closeServer(server: net.Server): Promise<void> {
  return new Promise((resolve) => (server.listening ? server.close(() => resolve()) : resolve()));
}

/**
 * Give every host its own 127.<octet>.x.y (octet random per world) and listen on port 25 when allowed,
 * else on one high port shared by all hosts; retry with another octet on EADDRINUSE.
 */
async function bindHosts(makeServer: (host: THostSpec) => net.Server, preferPort25: boolean): Promise<TBoundHosts> {
  let port25Allowed = preferPort25;
  for (let attempt = 0; attempt < MAX_BIND_ATTEMPTS; attempt++) {
    const octet = randomInt(16, 255);
    const ipByHost = new Map(HOSTS.map((h, i) => [h.name, `127.${octet}.${1 + Math.floor(i / 200)}.${10 + (i % 200)}`]));
    const servers: net.Server[] = [];
    let port = port25Allowed ? 25 : 0;
    try {
      for (const host of HOSTS) {
        if (!host.listening) continue;
        const server = makeServer(host);
        servers.push(server);
        port = await listenServer(server, ipByHost.get(host.name) as string, port);
      }
      return { port, ipByHost, servers };
    } catch (error) {
      await Promise.all(servers.map(closeServer));
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EACCES' || code === 'EPERM') port25Allowed = false;
      else if (code !== 'EADDRINUSE') throw error;
    }
  }
  throw new Error('mail world: no free 127.x.y.z address block after several attempts');
}

/** Start the DNS server and every SMTP host of the mail world on loopback. */
export async function startMailWorld(options: TStartMailWorldOptions = {}): Promise<TMailWorld> {
  const greylistDelayMs = options.greylistDelayMs ?? 1000;
  const preset = options.preset ?? 'fast';
  const realistic = preset === 'realistic';
  const corpus = options.corpus ?? [];
  const mailboxes = listBuiltinMailboxes();
  applyCorpus(mailboxes, corpus);

  const truth = new Map<string, TExpected>();
  const examples: Record<string, string[]> = {};
  for (const [scenario, addresses] of Object.entries(SCENARIO_EXAMPLES)) {
    examples[scenario] = [...addresses];
    for (const email of addresses) truth.set(email.toLowerCase(), computeExpected(email, mailboxes));
  }
  for (const entry of corpus) truth.set(entry.email.toLowerCase(), computeExpected(entry.email, mailboxes));

  const state: TSmtpWorldState = {
    mailboxes,
    greylist: new Map(),
    greylistDelayMs,
    tarpitDelayMs: options.tarpitDelayMs ?? 3000,
    secureContext: tls.createSecureContext({ key: TLS_KEY, cert: TLS_CERT }),
    sockets: new Set(),
    timers: new Set(),
    now: options.now ?? (() => Date.now()),
    greetingDelayMs: realistic ? (host) => spreadByName(host.name, 'greeting', options.greetingDelayMs ?? [100, 500]) : () => 0,
    latencyMs: realistic ? (host) => spreadByName(host.name, 'latency', options.commandLatencyMs ?? [10, 50]) : () => 0,
    postscreenPauseMs: options.postscreenPauseMs ?? (realistic ? 2_000 : 0),
    postscreenPassed: new Set(),
    openByClient: new Map(),
    stats: new Map(),
  };
  const domainsByHost = mapDomainsByHost();
  const bound = await bindHosts(
    (host) => createSmtpServer(host, domainsByHost.get(host.name) ?? new Set(), state),
    options.preferPort25 ?? true,
  );
  let dns;
  try {
    dns = await startDnsServer(buildZone(bound.ipByHost));
  } catch (error) {
    await Promise.all(bound.servers.map(closeServer));
    throw error;
  }
  const dnsServer = dns;
  let stopped: Promise<void> | null = null;
  return {
    dnsServers: [`127.0.0.1:${dnsServer.port}`],
    smtpPort: bound.port,
    truth,
    examples,
    greylistDelayMs,
    preset,
    hostStats: (hostName) => {
      const stats = getHostStats(state, hostName);
      return { ...stats, refusals: stats.refusals.map((r) => ({ ...r })) };
    },
    stop: () => {
      stopped ??= (async () => {
        for (const timer of state.timers) clearTimeout(timer);
        state.timers.clear();
        for (const socket of state.sockets) socket.destroy();
        await Promise.all([...bound.servers.map(closeServer), dnsServer.stop()]);
      })();
      return stopped;
    },
  };
}
