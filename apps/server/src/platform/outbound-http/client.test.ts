import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOutboundClient, postGuarded } from './client';
import { createDnsServersLookup, OutboundRefusedError, type TOutboundPolicy } from './guard';
import { PUBLIC_STANDIN, refusedButStandIn, startSwitchableDns, startVictim, type TSwitchableDns, type TVictim } from './test-support';

let victim: TVictim & { standIn: { requests: string[] } };
let dns: TSwitchableDns;
let policy: TOutboundPolicy;

beforeAll(async () => {
  victim = await startVictim((req, res) => {
    if (req.url === '/redirect') {
      res.writeHead(302, { location: `http://127.0.0.1:${victim.port}/stolen` });
      res.end();
    } else res.end('public');
  });
  dns = await startSwitchableDns({
    'internal.attacker.test': ['127.0.0.1'],
    'metadata.attacker.test': ['169.254.169.254'],
    'mixed.attacker.test': [PUBLIC_STANDIN, '127.0.0.1'],
    'rebind.attacker.test': [PUBLIC_STANDIN],
    'public.partner.test': [PUBLIC_STANDIN],
  });
  policy = { allowPrivate: false, lookup: createDnsServersLookup(dns.servers), isRefused: refusedButStandIn };
});
afterAll(async () => {
  await victim?.close();
  await dns?.stop();
});

describe('the guarded outbound client', () => {
  it('refuses every private, loopback, link-local and IPv6-embedded form, literal or resolved, without connecting', async () => {
    const p = victim.port;
    const forms = [
      `http://127.0.0.1:${p}/`, `http://127.1:${p}/`, `http://2130706433:${p}/`, `http://0x7f.0.0.1:${p}/`, `http://0177.0.0.1:${p}/`,
      `http://10.0.0.1:${p}/`, `http://192.168.1.1:${p}/`, `http://172.16.0.1:${p}/`, `http://100.64.0.1:${p}/`, 'http://169.254.169.254/latest/meta-data/',
      `http://[::1]:${p}/`, `http://[::ffff:127.0.0.1]:${p}/`, `http://[::ffff:7f00:1]:${p}/`, `http://[64:ff9b::7f00:1]:${p}/`, `http://[2002:7f00:1::1]:${p}/`,
      `http://[fd00::1]:${p}/`, `http://[fe80::1]:${p}/`, `http://internal.attacker.test:${p}/`, 'http://metadata.attacker.test/', `http://mixed.attacker.test:${p}/`,
    ];
    const client = createOutboundClient(policy);
    const outcomes = await Promise.all(forms.map((url) => client.fetch(url).then(() => 'reached', (err: Error) => (err instanceof OutboundRefusedError ? 'refused' : err.message))));
    expect(Object.fromEntries(forms.map((f, i) => [f, outcomes[i]]))).toEqual(Object.fromEntries(forms.map((f) => [f, 'refused'])));
    await expect(client.fetch(`http://internal.attacker.test:${p}/`)).rejects.toThrow(
      `The destination internal.attacker.test resolves to 127.0.0.1, a private, loopback, link-local or other special-purpose address; such destinations are refused.`,
    );
    expect(victim.connections()).toBe(0);
    await client.close();
  });

  it('connects to the address it checked: a name rebound to loopback after a public answer is refused, never dialled', async () => {
    dns.set('rebind.attacker.test', [PUBLIC_STANDIN]);
    const first = createOutboundClient(policy);
    const before = dns.queries('rebind.attacker.test');
    const res = await first.fetch(`http://rebind.attacker.test:${victim.port}/hello`);
    expect(await res.text()).toBe('public');
    // One resolution for the connection (an A and an AAAA question), none between a check and the connect.
    expect(dns.queries('rebind.attacker.test') - before).toBe(2);
    await first.close();

    dns.set('rebind.attacker.test', ['127.0.0.1']);
    const second = createOutboundClient(policy);
    await expect(second.fetch(`http://rebind.attacker.test:${victim.port}/hello`)).rejects.toThrow(/resolves to 127\.0\.0\.1.*refused/);
    await second.close();
    expect(victim.standIn.requests).toContain('GET /hello');
    expect(victim.connections()).toBe(0);
  });

  it('asks its resolver once per connection and dials that answer, even when the resolver would change its mind', async () => {
    let calls = 0;
    const flipping: TOutboundPolicy = {
      ...policy,
      lookup: async () => {
        calls += 1;
        return [{ address: calls === 1 ? PUBLIC_STANDIN : '127.0.0.1', family: 4 }];
      },
    };
    const client = createOutboundClient(flipping);
    expect(await (await client.fetch(`http://flip.attacker.test:${victim.port}/flip`)).text()).toBe('public');
    expect(calls).toBe(1);
    await client.close();
    expect(victim.connections()).toBe(0);
  });

  it('answers a redirect without following it, and a webhook POST sees the 3xx', async () => {
    const client = createOutboundClient(policy);
    const res = await client.fetch(`http://public.partner.test:${victim.port}/redirect`);
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(`http://127.0.0.1:${victim.port}/stolen`);
    const posted = await postGuarded(client, `http://public.partner.test:${victim.port}/redirect`, '{}', {}, { timeoutMs: 5_000 });
    expect(posted.statusCode).toBe(302);
    await client.close();
    expect(victim.connections()).toBe(0);
  });

  it('holds node http agents (SDKs) to the same guard: literal and resolved private hosts are refused at connect', async () => {
    const client = createOutboundClient(policy);
    const get = (url: string) =>
      new Promise<string>((resolve) => {
        http
          .get(url, { agent: client.nodeAgent('http:') }, (res) => {
            res.resume();
            resolve(`status ${res.statusCode}`);
          })
          .on('error', (err) => resolve(err instanceof OutboundRefusedError ? 'refused' : err.message));
      });
    expect(await get(`http://127.0.0.1:${victim.port}/`)).toBe('refused');
    expect(await get(`http://[::ffff:127.0.0.1]:${victim.port}/`)).toBe('refused');
    expect(await get(`http://internal.attacker.test:${victim.port}/`)).toBe('refused');
    expect(await get(`http://public.partner.test:${victim.port}/`)).toBe('status 200');
    await client.close();
    expect(victim.connections()).toBe(0);
  });

  it('reaches loopback only when private destinations are allowed', async () => {
    const open = createOutboundClient({ allowPrivate: true });
    expect(await (await open.fetch(`http://127.0.0.1:${victim.port}/allowed`)).text()).toBe('victim');
    await open.close();
    expect(victim.requests).toEqual(['GET /allowed']);
  });
});
