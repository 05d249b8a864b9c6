import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../../config';
import { PUBLIC_STANDIN, refusedButStandIn, startVictim, type TVictim } from '../../../platform/outbound-http/test-support';
import { createStorage } from '../../../platform/storage/storage';
import { createStandIns } from '../../../platform/test-doubles';
import { getAdapter } from '../service';

/*
 * Issue 27 point 7, the integrations' client as it was: it checked a host with one resolution, then let `fetch`
 * resolve it again and follow redirects. Here the check's resolver (node:dns/promises) says "public" for the
 * account's API host while the connection's resolver (the system's) says loopback: a rebinding. The guarded client
 * resolves once per connection through its policy's resolver, so the two can never disagree; it never asks
 * node:dns/promises here, and nothing leaves the machine.
 */
vi.mock('node:dns/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:dns/promises')>();
  const lookup = async () => [{ address: '93.184.216.34', family: 4 }];
  return { ...real, lookup, default: { ...real, lookup } };
});

let victim: TVictim & { standIn: { requests: string[] } };
let redirector: { port: number; servers: Server[]; sockets: Set<Socket> };

/** The same API host answering a redirect to the victim, on loopback and on the public stand-in. */
async function startRedirector(to: string) {
  const sockets = new Set<Socket>();
  const make = () =>
    createServer((_req, res) => {
      res.writeHead(302, { location: to });
      res.end();
    }).on('connection', (s: Socket) => sockets.add(s));
  for (let attempt = 0; ; attempt += 1) {
    const a = make();
    await new Promise<void>((r) => a.listen(0, '127.0.0.1', r));
    const port = (a.address() as AddressInfo).port;
    const b = make();
    const ok = await new Promise<boolean>((r) => {
      b.once('error', () => r(false));
      b.listen(port, PUBLIC_STANDIN, () => r(true));
    });
    if (ok) return { port, servers: [a, b], sockets };
    a.close();
    if (attempt > 20) throw new Error('no port');
  }
}

beforeAll(async () => {
  victim = await startVictim((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ user: { email: 'owner@partner.test' } }));
  });
  redirector = await startRedirector(`http://127.0.0.1:${victim.port}/stolen`);
});
afterAll(async () => {
  await victim?.close();
  for (const s of redirector?.sockets ?? []) s.destroy();
  await Promise.all((redirector?.servers ?? []).map((s) => new Promise((r) => s.close(r))));
});

/** The product's adapter for ActiveCampaign with this account URL; the outbound resolver answers `localhost` with the public stand-in. */
function activeCampaignAt(apiUrl: string) {
  const config = loadConfig(
    {},
    {
      appSecret: 'test-secret',
      dataDir: '/nonexistent-test-data',
      allowPrivateDestinations: false,
      // Test mode off: in test mode a key-based platform is answered by its local fake, whatever base the user typed.
      paymentsTestMode: false,
      outboundTestHooks: { isRefused: refusedButStandIn, lookup: async () => [{ address: PUBLIC_STANDIN, family: 4 }] },
    },
  );
  return getAdapter({ config, storage: createStorage(config), standIns: createStandIns() }, 'active_campaign', { apiKey: 'key', apiUrl });
}

describe("an integration's user-given API URL", () => {
  it('is dialled at the address that was checked, not at a second resolution pointing at loopback', async () => {
    const adapter = await activeCampaignAt(`http://localhost:${victim.port}`);
    await expect(adapter.verifyCredentials()).resolves.toEqual({ accountLabel: 'owner@partner.test' });
    expect(victim.standIn.requests).toEqual(['GET /api/3/users/me']);
    expect(victim.connections()).toBe(0);
  });

  it('does not follow a redirect to loopback, and says so', async () => {
    const adapter = await activeCampaignAt(`http://localhost:${redirector.port}`);
    await expect(adapter.verifyCredentials()).rejects.toThrow(`The platform answered 302, a redirect to http://127.0.0.1:${victim.port}/stolen; redirects are not followed`);
    expect(victim.connections()).toBe(0);
  });
});
