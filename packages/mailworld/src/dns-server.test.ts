import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMailWorld } from './mail-world';
import { queryDnsTcp, queryDnsUdp, type TDnsReply } from './test-support/raw-clients';
import type { TMailWorld } from './types';

const mxOf = (p: TDnsReply) => (p.answers ?? []).flatMap((a) => (a.type === 'MX' ? [a.data] : []));
const aOf = (p: TDnsReply) => (p.answers ?? []).flatMap((a) => (a.type === 'A' ? [a.data] : []));

describe.each([
  ['UDP', queryDnsUdp],
  ['TCP', queryDnsTcp],
] as const)('mail world DNS over %s', (_transport, query) => {
  let world: TMailWorld;
  let server: string;
  beforeAll(async () => {
    world = await startMailWorld();
    server = world.dnsServers[0] as string;
  });
  afterAll(() => world.stop());

  it('answers MX for strict.test authoritatively, and the MX host has a 127/8 address', async () => {
    const mx = await query(server, 'strict.test', 'MX');
    expect(mx.rcode).toBe('NOERROR');
    expect(mx.flag_aa).toBe(true);
    expect(mxOf(mx)).toEqual([{ preference: 10, exchange: 'mx.strict.test' }]);
    const a = await query(server, 'mx.strict.test', 'A');
    expect(aOf(a)).toHaveLength(1);
    expect(aOf(a)[0]).toMatch(/^127\.\d+\.\d+\.\d+$/);
  });

  it('serves provider look-alike MX hosts, each on its own address', async () => {
    const mx = await query(server, 'gmail.com', 'MX');
    expect(mxOf(mx).map((m) => m.exchange)).toEqual([
      'gmail-smtp-in.l.google.com', 'alt1.gmail-smtp-in.l.google.com', 'alt2.gmail-smtp-in.l.google.com',
      'alt3.gmail-smtp-in.l.google.com', 'alt4.gmail-smtp-in.l.google.com',
    ]);
    const hosts = ['gmail-smtp-in.l.google.com', 'mta5.am0.yahoodns.net', 'mx.zoho.com', 'm365-test.mail.protection.outlook.com'];
    const ips = await Promise.all(hosts.map(async (h) => aOf(await query(server, h, 'A'))[0]));
    expect(new Set(ips).size).toBe(hosts.length);
    expect(mxOf(await query(server, 'm365.test', 'MX'))[0]?.exchange).toMatch(/\.mail\.protection\.outlook\.com$/);
    expect(mxOf(await query(server, 'outlook.com', 'MX'))[0]?.exchange).toMatch(/\.mail\.protection\.outlook\.com$/);
    expect(mxOf(await query(server, 'yahoo.com', 'MX')).map((m) => m.exchange)).toContain('mta5.am0.yahoodns.net');
    expect(mxOf(await query(server, 'zoho.test', 'MX'))[0]?.exchange).toBe('mx.zoho.com');
  });

  it('answers the null MX of nullmx.test as "MX 0 ."', async () => {
    const mx = await query(server, 'nullmx.test', 'MX');
    expect(mx.rcode).toBe('NOERROR');
    expect(mxOf(mx)).toEqual([{ preference: 0, exchange: '.' }]);
  });

  it('answers NXDOMAIN for nxdomain.test, typo domains and names it does not know', async () => {
    for (const name of ['nxdomain.test', 'gmial.com', 'hotmial.com', 'yaho.com', 'example.com', 'www.strict.test']) {
      const reply = await query(server, name, 'MX');
      expect(reply.rcode, name).toBe('NXDOMAIN');
      expect(reply.answers ?? [], name).toEqual([]);
    }
  });

  it('answers SERVFAIL for servfail.test whatever the type', async () => {
    expect((await query(server, 'servfail.test', 'MX')).rcode).toBe('SERVFAIL');
    expect((await query(server, 'servfail.test', 'A')).rcode).toBe('SERVFAIL');
  });

  it('gives aonly.test no MX (NODATA with SOA) but an A record', async () => {
    const mx = await query(server, 'aonly.test', 'MX');
    expect(mx.rcode).toBe('NOERROR');
    expect(mxOf(mx)).toEqual([]);
    expect(mx.authorities?.[0]?.type).toBe('SOA');
    expect(aOf(await query(server, 'aonly.test', 'A'))).toHaveLength(1);
  });

  it('gives nomail.test neither MX nor A, while the name exists', async () => {
    const mx = await query(server, 'nomail.test', 'MX');
    const a = await query(server, 'nomail.test', 'A');
    expect([mx.rcode, a.rcode]).toEqual(['NOERROR', 'NOERROR']);
    expect([mxOf(mx), aOf(a)]).toEqual([[], []]);
  });

  it('orders backupmx.test by preference 10 then 20 on different addresses', async () => {
    const mx = mxOf(await query(server, 'backupmx.test', 'MX'));
    expect(mx).toEqual([
      { preference: 10, exchange: 'mx1.backupmx.test' },
      { preference: 20, exchange: 'mx2.backupmx.test' },
    ]);
  });

  it('echoes the question name with its case (0x20) and matches case-insensitively', async () => {
    const reply = await query(server, 'StRiCt.TeSt', 'MX');
    expect(reply.answers?.[0]?.name).toBe('StRiCt.TeSt');
    expect(mxOf(reply)).toHaveLength(1);
  });
});
