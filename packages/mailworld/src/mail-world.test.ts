import dgram from 'node:dgram';
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { makeCorpus } from './corpus';
import { startMailWorld } from './mail-world';
import { openSession, queryDnsUdp, RawSmtpClient, resolveMailHost } from './test-support/raw-clients';

const portOf = (server: string) => Number(server.split(':')[1]);

function canBindUdpAndTcp(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const udp = dgram.createSocket('udp4');
    udp.once('error', () => resolve(false));
    udp.bind(port, '127.0.0.1', () => {
      const tcp = net.createServer();
      tcp.once('error', () => udp.close(() => resolve(false)));
      tcp.listen(port, '127.0.0.1', () => tcp.close(() => udp.close(() => resolve(true))));
    });
  });
}

describe('startMailWorld', () => {
  it('runs two worlds side by side on different DNS ports and 127.x address blocks', async () => {
    const [a, b] = await Promise.all([startMailWorld(), startMailWorld()]);
    try {
      expect(a.dnsServers[0]).not.toBe(b.dnsServers[0]);
      const ipA = await resolveMailHost(a.dnsServers[0] as string, 'strict.test');
      const ipB = await resolveMailHost(b.dnsServers[0] as string, 'strict.test');
      expect(ipA.split('.')[1]).not.toBe(ipB.split('.')[1]);
      for (const [world, ip] of [[a, ipA], [b, ipB]] as const) {
        const client = await openSession(ip, world.smtpPort);
        expect((await client.send('RCPT TO:<alice@strict.test>')).code).toBe(250);
        client.close();
      }
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });

  it('stop() closes the DNS port, every SMTP host and open sessions (silent and tarpit ones included)', async () => {
    const world = await startMailWorld({ tarpitDelayMs: 60_000 });
    const dns = world.dnsServers[0] as string;
    const strictIp = await resolveMailHost(dns, 'strict.test');
    const silent = await RawSmtpClient.connect(await resolveMailHost(dns, 'timeout.test'), world.smtpPort);
    const tarpit = await RawSmtpClient.connect(await resolveMailHost(dns, 'tarpit.test'), world.smtpPort);
    await world.stop();
    await expect(RawSmtpClient.connect(strictIp, world.smtpPort)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    await expect(silent.readReply(5000)).rejects.toThrow(/closed/);
    await expect(tarpit.readReply(5000)).rejects.toThrow(/closed/);
    expect(await canBindUdpAndTcp(portOf(dns))).toBe(true);
    await world.stop(); // idempotent
  });

  it('falls back to one high port for every host when port 25 is not wanted', async () => {
    const world = await startMailWorld({ preferPort25: false });
    try {
      expect(world.smtpPort).toBeGreaterThan(1024);
      for (const domain of ['strict.test', 'gmail.com', 'm365.test']) {
        const client = await openSession(await resolveMailHost(world.dnsServers[0] as string, domain), world.smtpPort);
        client.close();
      }
    } finally {
      await world.stop();
    }
  });

  it('knows the verdict of every scenario example', async () => {
    const world = await startMailWorld();
    await world.stop();
    const verdict = (email: string) => {
      const t = world.truth.get(email);
      return t ? `${t.status}/${t.reason}` : 'missing';
    };
    expect(verdict('alice@strict.test')).toBe('valid/valid_mailbox');
    expect(verdict('no.such.user@strict.test')).toBe('invalid/mailbox_not_found');
    expect(verdict('xkqzvbn@acceptall.test')).toBe('catch_all/accept_all');
    expect(verdict('carol@greylist.test')).toBe('valid/valid_mailbox');
    expect(verdict('dave@tarpit.test')).toBe('unknown/smtp_timeout');
    expect(verdict('erin@timeout.test')).toBe('unknown/smtp_timeout');
    expect(verdict('frank@refused.test')).toBe('unknown/connection_failed');
    expect(verdict('grace@policy.test')).toBe('unknown/verifier_blocked');
    expect(verdict('heidi@fullbox.test')).toBe('invalid/mailbox_full');
    expect(verdict('judy@disabled.test')).toBe('invalid/mailbox_disabled');
    expect(verdict('laura@starttls.test')).toBe('valid/valid_mailbox');
    expect(verdict('r5@ratelimit.test')).toBe('valid/valid_mailbox');
    expect(verdict('niaj@backupmx.test')).toBe('valid/valid_mailbox');
    expect(verdict('olivia@aonly.test')).toBe('valid/valid_mailbox');
    expect(verdict('peggy@nullmx.test')).toBe('invalid/null_mx');
    expect(verdict('quentin@nomail.test')).toBe('invalid/no_mail_server');
    expect(verdict('rupert@nxdomain.test')).toBe('invalid/domain_not_found');
    expect(verdict('sybil@servfail.test')).toBe('unknown/dns_error');
    expect(verdict('jane.doe@outlook.com')).toBe('catch_all/accept_all');
    expect(verdict('ceo@m365.test')).toBe('catch_all/accept_all');
    expect(verdict('nobody.here.1999@yahoo.com')).toBe('invalid/mailbox_not_found');
    expect(verdict('temp123@mailinator.com')).toBe('catch_all/accept_all');
    expect(verdict('john.smith@gmial.com')).toBe('invalid/domain_not_found');
    expect(verdict('john..smith@strict.test')).toBe('invalid/invalid_syntax');
    for (const addresses of Object.values(world.examples)) for (const email of addresses) expect(world.truth.has(email.toLowerCase())).toBe(true);
  });

  it('serves its corpus: every sampled address gets the SMTP answer its expected verdict implies', async () => {
    const corpus = makeCorpus(3000, 5);
    const world = await startMailWorld({ corpus });
    const dns = world.dnsServers[0] as string;
    try {
      expect(world.truth.size).toBeGreaterThanOrEqual(corpus.length);
      const direct = ['strict.test', 'initech.test', 'gmail.com', 'yahoo.com', 'zoho.test', 'globex.test', 'fullbox.test', 'disabled.test', 'aonly.test', 'acceptall.test', 'm365.test', 'outlook.com', 'mailinator.com'];
      const sample = corpus.filter((e) => direct.includes(e.email.split('@')[1] as string)).slice(0, 400);
      const expectedCode: Record<string, RegExp> = {
        valid_mailbox: /^250 /, accept_all: /^250 /, mailbox_not_found: /^55[04][ -]5\.1\.1/, mailbox_full: /^552[ -]5\.2\.2/, mailbox_disabled: /^55[04][ -]5\.2\.1/,
      };
      const byDomain = new Map<string, typeof sample>();
      for (const e of sample) byDomain.set(e.email.split('@')[1] as string, [...(byDomain.get(e.email.split('@')[1] as string) ?? []), e]);
      let checked = 0;
      for (const [domain, entries] of byDomain) {
        const ip = await resolveMailHost(dns, domain);
        for (const entry of entries) {
          const client = await openSession(ip, world.smtpPort);
          const reply = await client.send(`RCPT TO:<${entry.email}>`);
          client.close();
          expect(reply.lines[0], `${entry.email} ${entry.expected.reason}`).toMatch(expectedCode[entry.expected.reason] as RegExp);
          checked++;
        }
      }
      expect(checked).toBe(sample.length);
      expect(checked).toBeGreaterThan(300);
      // names outside the world answer NXDOMAIN, never anything from the internet
      for (const name of ['example.org', 'www.google.com', 'localhost']) expect((await queryDnsUdp(dns, name, 'A')).rcode).toBe('NXDOMAIN');
    } finally {
      await world.stop();
    }
  });
});
