import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCorpus, makeRealisticCorpus } from './corpus';
import { startMailWorld } from './mail-world';
import { DOMAINS } from './scenarios';
import { openSession, RawSmtpClient, resolveMailHost } from './test-support/raw-clients';
import type { TMailWorld } from './types';

let world: TMailWorld;
let dns: string;
let skewMs = 0;
const hostOf = (domain: string) => resolveMailHost(dns, domain);

beforeAll(async () => {
  world = await startMailWorld({
    preset: 'realistic',
    corpus: makeRealisticCorpus(2_000, 7),
    greylistDelayMs: 200,
    postscreenPauseMs: 300,
    now: () => Date.now() + skewMs,
  });
  dns = world.dnsServers[0] as string;
});
afterAll(() => world?.stop());

async function rcpt(address: string): Promise<string> {
  const client = await openSession(await hostOf(address.split('@')[1] as string), world.smtpPort);
  try {
    return (await client.send(`RCPT TO:<${address}>`)).lines.join('\n');
  } finally {
    client.close();
  }
}

describe('the realistic mail world', () => {
  it('delays every greeting by at least 100 ms and every reply by at least 10 ms', async () => {
    expect(world.preset).toBe('realistic');
    const started = performance.now();
    const client = await RawSmtpClient.connect(await hostOf('strict.test'), world.smtpPort);
    expect((await client.readReply()).code).toBe(220);
    const greeted = performance.now();
    expect(greeted - started).toBeGreaterThanOrEqual(95);
    expect((await client.send('NOOP')).code).toBe(250);
    expect(performance.now() - greeted).toBeGreaterThanOrEqual(9);
    client.close();
  });

  it('postscreen: a long pause and 450 4.3.2 on the first connection, accepted on the next', async () => {
    const host = await hostOf('postscreen.test');
    const started = performance.now();
    const first = await openSession(host, world.smtpPort);
    expect(performance.now() - started).toBeGreaterThanOrEqual(300);
    expect((await first.send('RCPT TO:<paula@postscreen.test>')).lines[0]).toBe('450 4.3.2 Service currently unavailable');
    first.close();
    expect(await rcpt('paula@postscreen.test')).toMatch(/^250 /);
    expect(await rcpt('nobody@postscreen.test')).toMatch(/^550 5\.1\.1 /);
  });

  it('busy host: 421 to a 4th concurrent connection from one IP, served again once one closes', async () => {
    const host = await hostOf('busy.test');
    const clients = await Promise.all([1, 2, 3].map(() => openSession(host, world.smtpPort)));
    const fourth = await RawSmtpClient.connect(host, world.smtpPort);
    expect((await fourth.readReply()).lines[0]).toMatch(/^421 4\.7\.0 mx\.busy\.test Error: too many connections from /);
    const stats = world.hostStats('mx.busy.test');
    expect(stats).toMatchObject({ refusedTooMany: 1, peakConcurrentPerClient: 3 });
    // the refused connection is recorded with the number of connections the host had taken when the client closed it
    fourth.close();
    await expect.poll(() => world.hostStats('mx.busy.test').refusals).toEqual([{ connection: stats.connections, closedAfter: stats.connections }]);
    (clients[0] as RawSmtpClient).close();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await rcpt('bea@busy.test')).toMatch(/^250 /);
    for (const client of clients) client.close();
  });

  it('Microsoft 365 edge blocking: 550 5.4.1 after an accepted MAIL FROM to every recipient not in the directory (postmaster too); the blocking tenant refuses the sender', async () => {
    const client = await openSession(await hostOf('fabrikam.test'), world.smtpPort);
    expect((await client.send('RCPT TO:<jane.doe@fabrikam.test>')).lines[0]).toBe('250 2.1.5 Recipient OK');
    expect((await client.send('RCPT TO:<no.such.person@fabrikam.test>')).lines[0]).toMatch(/^550 5\.4\.1 Recipient address rejected: Access denied\./);
    // postmaster is no exception (only the corpus's mailboxes are in the directory)
    const postmaster = world.truth.get('postmaster@fabrikam.test')?.status === 'valid' ? /^250 / : /^550 5\.4\.1 /;
    expect((await client.send('RCPT TO:<postmaster@fabrikam.test>')).lines[0]).toMatch(postmaster);
    client.close();
    const blocked = await RawSmtpClient.connect(await hostOf('northwind.test'), world.smtpPort);
    await blocked.readReply();
    await blocked.send('EHLO verifier.local');
    expect((await blocked.send('MAIL FROM:<probe@verifier.local>')).lines[0]).toMatch(/^550 5\.7\.606 Access denied, banned sending IP /);
    blocked.close();
    expect(world.truth.get('jane.doe@fabrikam.test')).toEqual({ status: 'valid', reason: 'valid_mailbox' });
    expect(world.truth.get('no.such.person@fabrikam.test')).toEqual({ status: 'invalid', reason: 'mailbox_not_found' });
    expect(world.truth.get('ceo@northwind.test')).toEqual({ status: 'unknown', reason: 'verifier_blocked' });
  });

  it('the slow host waits 700 ms before every reply', async () => {
    const host = await hostOf('slowpoke.test');
    const started = performance.now();
    const client = await RawSmtpClient.connect(host, world.smtpPort);
    await client.readReply();
    expect(performance.now() - started).toBeGreaterThanOrEqual(690);
    const sent = performance.now();
    expect((await client.send('NOOP')).code).toBe(250);
    expect(performance.now() - sent).toBeGreaterThanOrEqual(690);
    client.close();
  });

  it('5-minute greylisting: 451 until 300 s after the first attempt (world clock), then strict', async () => {
    expect(await rcpt('gina@greylist5.test')).toMatch(/^451 4\.7\.1 /);
    skewMs += 60_000;
    expect(await rcpt('gina@greylist5.test')).toMatch(/^451 4\.7\.1 .*try again in 300 seconds/);
    skewMs += 241_000;
    expect(await rcpt('gina@greylist5.test')).toMatch(/^250 /);
  });

  it('UTF-8 local parts on a host without SMTPUTF8: not offered, and the truth is unknown (smtp_error)', async () => {
    const client = await RawSmtpClient.connect(await hostOf('oldschool.test'), world.smtpPort);
    await client.readReply();
    const ehlo = await client.send('EHLO verifier.local');
    expect(ehlo.lines.join('\n')).not.toMatch(/SMTPUTF8/);
    client.close();
    expect(world.truth.get('josé@oldschool.test')).toEqual({ status: 'unknown', reason: 'smtp_error' });
    expect(world.truth.get('otto@oldschool.test')).toEqual({ status: 'valid', reason: 'valid_mailbox' });
  });

  it('the realistic corpus covers every realistic scenario; the fast corpus none of them', () => {
    const realistic = makeRealisticCorpus(5_000, 3);
    const fast = makeCorpus(5_000, 3);
    const domainsOf = (list: { email: string }[]) => new Set(list.map((e) => e.email.split('@')[1]));
    const inRealistic = domainsOf(realistic);
    const inFast = domainsOf(fast);
    for (const spec of DOMAINS.filter((d) => d.realistic)) {
      expect(inRealistic.has(spec.domain), spec.domain).toBe(true);
      expect(inFast.has(spec.domain), spec.domain).toBe(false);
    }
    expect(realistic.some((e) => e.tags.includes('utf8') && e.expected.reason === 'smtp_error')).toBe(true);
  });
});
