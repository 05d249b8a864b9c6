import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeDns, startOneDomainDns, type TFakeDns } from '../test-support/fake-dns-server';
import { verifyEmail } from '../verify';
import type { TDial, TVerifyOptions } from '../types';

let dns: TFakeDns | null = null;
afterEach(async () => {
  await dns?.stop();
  dns = null;
});

/** A port on loopback where nothing listens. */
async function getClosedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function makeOptions(server: string, port: number, extra: TVerifyOptions = {}): TVerifyOptions {
  return { dnsServers: [server], smtpPort: port, heloName: 'verifier.test', timeouts: { dnsMs: 300, connectMs: 300, replyMs: 300, totalMs: 3_000 }, ...extra };
}

describe('typo suggestion rule', () => {
  it('suggests a known provider when the typed domain does not exist', async () => {
    dns = await startFakeDns(() => ({ rcode: 'NXDOMAIN' }));
    const result = await verifyEmail('john@gmial.com', makeOptions(dns.server, await getClosedPort()));
    expect(result).toMatchObject({ status: 'invalid', reason: { code: 'domain_not_found' }, suggested_email_address: 'john@gmail.com' });
    // A typo domain with no mail is no mailbox provider: not a free account.
    expect(result.free_account).toBe(false);
  });

  it('flags a free account only where the domain can receive mail', async () => {
    dns = await startFakeDns(() => ({ rcode: 'NXDOMAIN' }));
    for (const email of ['jane@yahooo.com', 'jane@hotmail.de', 'jane@gmail.com']) {
      const result = await verifyEmail(email, makeOptions(dns.server, await getClosedPort()));
      expect(result.reason.code, email).toBe('domain_not_found');
      expect(result.free_account, email).toBe(false);
    }
  });

  it('does not suggest when the typed domain has mail, however close it is to a provider', async () => {
    dns = await startOneDomainDns('gmial.com');
    const result = await verifyEmail('john@gmial.com', makeOptions(dns.server, await getClosedPort()));
    expect(result.suggested_email_address).toBeNull();
    expect(result).toMatchObject({ status: 'unknown', reason: { code: 'connection_failed' }, mx_record: 'mx.gmial.com' });
  });

  it('suggests a TLD fix only when the corrected domain has MX records', async () => {
    dns = await startOneDomainDns('acme.com');
    const port = await getClosedPort();
    expect((await verifyEmail('jane@acme.con', makeOptions(dns.server, port))).suggested_email_address).toBe('jane@acme.com');
    expect((await verifyEmail('jane@nosuchco.con', makeOptions(dns.server, port))).suggested_email_address).toBeNull();
  });
});

describe('stages that must not touch the network', () => {
  const refuseDial: TDial = () => {
    throw new Error('no SMTP connection expected');
  };

  it('syntax errors are invalid_syntax with the specific reason and no DNS or SMTP traffic', async () => {
    dns = await startFakeDns(() => ({ rcode: 'NXDOMAIN' }));
    const result = await verifyEmail('john..smith@example.com', makeOptions(dns.server, 25, { dial: refuseDial }));
    expect(result).toMatchObject({ email: 'john..smith@example.com', status: 'invalid', safe_to_send: 'no', account: 'john..smith', domain: 'example.com' });
    expect(result.reason).toEqual({ code: 'invalid_syntax', text: 'Invalid syntax: the local part contains consecutive dots.' });
    expect(result.transcript).toEqual([]);
    expect(dns.queries).toEqual([]);
  });

  it('user block and allow lists decide before DNS, address entries before domain entries', async () => {
    dns = await startFakeDns(() => ({ rcode: 'NXDOMAIN' }));
    const wbList = { allow: ['boss@blocked.test', 'partner.test'], block: ['blocked.test', 'spam@partner.test'] };
    const options = makeOptions(dns.server, 25, { dial: refuseDial, wbList });
    expect(await verifyEmail('anyone@blocked.test', options)).toMatchObject({ status: 'invalid', reason: { code: 'blocked_by_user_list' }, safe_to_send: 'no' });
    expect(await verifyEmail('Boss@Blocked.test', options)).toMatchObject({ status: 'valid', reason: { code: 'allowed_by_user_list' }, safe_to_send: 'yes' });
    expect(await verifyEmail('x@partner.test', options)).toMatchObject({ status: 'valid', reason: { code: 'allowed_by_user_list' } });
    expect(await verifyEmail('spam@partner.test', options)).toMatchObject({ status: 'invalid', reason: { code: 'blocked_by_user_list' } });
    expect(dns.queries).toEqual([]);
  });
});

describe('result shape', () => {
  it('fills every field of the spec for a DNS-level verdict', async () => {
    dns = await startFakeDns(() => ({ rcode: 'NXDOMAIN' }));
    let now = Date.parse('2026-01-02T03:04:05.000Z');
    const clock = { now: () => (now += 7) };
    const result = await verifyEmail('Info@Mailinator.com', makeOptions(dns.server, 25, { clock }));
    expect(result).toMatchObject({
      email: 'Info@Mailinator.com',
      status: 'invalid',
      reason: { code: 'domain_not_found' },
      safe_to_send: 'no',
      disposable: true,
      free_account: false,
      role_account: true,
      gibberish: false,
      mx_record: null,
      smtp_provider: null,
      greylist_count: 0,
      account: 'Info',
      domain: 'mailinator.com',
      deliverability_score: 0,
    });
    expect(result.time_taken).toBeGreaterThan(0);
    expect(new Date(result.verified_on).toISOString()).toBe(result.verified_on);
    expect(result.ai_verdict).toMatch(/^Undeliverable: the domain does not exist/);
  });
});
