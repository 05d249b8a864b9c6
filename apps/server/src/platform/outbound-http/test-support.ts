import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { startDnsServer, type TDnsName, type TDnsServer } from '@verilead/mailworld';
import { isPrivateAddress } from './addresses';

/**
 * Test support for the outbound guard: a "victim" listening on loopback that must never see a connection, a server
 * standing in for a public host (on 127.0.0.2, which the tests' address judgement treats as public, so the allowed
 * path runs without the internet), and a DNS server on loopback whose answers a test changes (rebinding).
 */

/** The loopback address that plays a public host in these tests. */
export const PUBLIC_STANDIN = '127.0.0.2';

/** The guard's judgement with PUBLIC_STANDIN taken as public: every other address judged as in production. */
export const refusedButStandIn = (address: string): boolean => address !== PUBLIC_STANDIN && isPrivateAddress(address);

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

export type TVictim = { port: number; connections(): number; requests: string[]; close(): Promise<void> };

/**
 * Servers on 127.0.0.1 and [::1] (same port when IPv6 loopback exists) counting every TCP connection, and one on
 * PUBLIC_STANDIN at that port too, answering `handler` (default 200 "ok"), so that a name may move between the two.
 */
export async function startVictim(standIn?: (req: IncomingMessage, res: ServerResponse) => void): Promise<TVictim & { standIn: { requests: string[] } }> {
  for (let attempt = 0; ; attempt += 1) {
    const sockets = new Set<Socket>();
    let count = 0;
    const requests: string[] = [];
    const victim = () =>
      createServer((req, res) => {
        requests.push(`${req.method} ${req.url}`);
        res.end('victim');
      }).on('connection', (s: Socket) => {
        count += 1;
        sockets.add(s);
      });
    const v4 = victim();
    const port = await listen(v4, 0, '127.0.0.1');
    const standInRequests: string[] = [];
    const publicServer = createServer((req, res) => {
      standInRequests.push(`${req.method} ${req.url}`);
      if (standIn) standIn(req, res);
      else res.end('ok');
    }).on('connection', (s: Socket) => sockets.add(s));
    const v6 = victim();
    try {
      await listen(publicServer, port, PUBLIC_STANDIN);
    } catch {
      v4.close();
      if (attempt < 20) continue;
      throw new Error(`No port free on both 127.0.0.1 and ${PUBLIC_STANDIN}`);
    }
    const hasV6 = await listen(v6, port, '::1').then(
      () => true,
      () => false,
    );
    return {
      port,
      connections: () => count,
      requests,
      standIn: { requests: standInRequests },
      async close() {
        for (const s of sockets) s.destroy();
        await Promise.all([v4, publicServer, ...(hasV6 ? [v6] : [])].map((s) => new Promise((r) => s.close(r))));
      },
    };
  }
}

export type TSwitchableDns = { servers: string[]; set(name: string, a: string[]): void; queries(name: string): number; stop(): Promise<void> };

/** An authoritative DNS server on 127.0.0.1 (the mail world's) whose A records a test changes between queries. */
export async function startSwitchableDns(records: Record<string, string[]>): Promise<TSwitchableDns> {
  const counts = new Map<string, number>();
  class CountingNames extends Map<string, TDnsName> {
    override get(name: string) {
      counts.set(name, (counts.get(name) ?? 0) + 1);
      return super.get(name);
    }
  }
  const names = new CountingNames(Object.entries(records).map(([n, a]) => [n, { a }]));
  const server: TDnsServer = await startDnsServer({ names, rcodeZones: new Map(), apexes: new Set() });
  return {
    servers: [`127.0.0.1:${server.port}`],
    set: (name, a) => names.set(name, { a }),
    queries: (name) => counts.get(name) ?? 0,
    stop: () => server.stop(),
  };
}
