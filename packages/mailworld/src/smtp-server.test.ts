import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMailWorld } from './mail-world';
import { openSession, RawSmtpClient, resolveMailHost } from './test-support/raw-clients';
import type { TMailWorld } from './types';

const GREYLIST_MS = 300;
const TARPIT_MS = 400;

let world: TMailWorld;
let dns: string;
const hostOf = (domain: string, rank = 0) => resolveMailHost(dns, domain, rank);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  world = await startMailWorld({ greylistDelayMs: GREYLIST_MS, tarpitDelayMs: TARPIT_MS });
  dns = world.dnsServers[0] as string;
});
afterAll(() => world.stop());

/** One RCPT in a fresh session; returns the reply. */
async function probe(address: string, options: { tls?: boolean; from?: string } = {}) {
  const domain = address.split('@')[1] as string;
  const client = await openSession(await hostOf(domain), world.smtpPort, options);
  try {
    return await client.send(`RCPT TO:<${address}>`);
  } finally {
    client.close();
  }
}

describe('strict.test', () => {
  it('speaks SMTP: Postfix banner, multi-line EHLO advertising STARTTLS, RCPT verdicts, RSET, NOOP, DATA refused, QUIT', async () => {
    const client = await RawSmtpClient.connect(await hostOf('strict.test'), world.smtpPort);
    const greeting = await client.readReply();
    expect(greeting.lines[0]).toBe('220 mx.strict.test ESMTP Postfix (Debian/GNU)');
    const ehlo = await client.send('EHLO verifier.local');
    expect(ehlo.code).toBe(250);
    expect(ehlo.lines.length).toBeGreaterThan(3);
    expect(ehlo.lines.slice(0, -1).every((l) => l.startsWith('250-'))).toBe(true);
    expect(ehlo.lines.at(-1)).toMatch(/^250 /);
    expect(ehlo.lines).toContain('250-STARTTLS');
    expect(ehlo.lines).toContain('250-ENHANCEDSTATUSCODES');
    expect((await client.send('RCPT TO:<alice@strict.test>')).lines[0]).toBe('503 5.5.1 Error: need MAIL command');
    expect((await client.send('MAIL FROM:<probe@verifier.local>')).lines[0]).toBe('250 2.1.0 Ok');
    expect((await client.send('RCPT TO:<alice@strict.test>')).lines[0]).toBe('250 2.1.5 Ok');
    const unknown = await client.send('RCPT TO:<x8f7a6d5c@strict.test>');
    expect(unknown.lines[0]).toBe('550 5.1.1 <x8f7a6d5c@strict.test>: Recipient address rejected: User unknown in local recipient table');
    expect((await client.send('DATA')).code).toBe(554);
    expect((await client.send('RSET')).code).toBe(250);
    expect((await client.send('NOOP')).code).toBe(250);
    expect((await client.send('DATA')).code).toBe(503);
    expect((await client.send('FOO bar')).code).toBe(502);
    expect((await client.send('QUIT')).code).toBe(221);
  });

  it('accepts HELO, the null sender and answers pipelined commands in order', async () => {
    const client = await RawSmtpClient.connect(await hostOf('strict.test'), world.smtpPort);
    await client.readReply();
    expect((await client.send('HELO verifier.local')).lines).toEqual(['250 mx.strict.test']);
    const replies = [];
    client.writeRaw('MAIL FROM:<>\r\nRCPT TO:<john.smith@strict.test>\r\nRCPT TO:<nobody@strict.test>\r\n');
    for (let i = 0; i < 3; i++) replies.push((await client.readReply()).code);
    expect(replies).toEqual([250, 250, 550]);
    client.close();
  });

  it('denies relaying for a domain the host does not serve', async () => {
    const client = await openSession(await hostOf('strict.test'), world.smtpPort);
    expect((await client.send('RCPT TO:<john.smith@gmail.com>')).lines[0]).toMatch(/^554 5\.7\.1 /);
    client.close();
  });
});

describe('scripted behaviours', () => {
  it('acceptall.test accepts a random address', async () => {
    expect((await probe('zq8x7w6v5u@acceptall.test')).code).toBe(250);
  });

  it('greylist.test answers 451 4.7.1 for a new triplet until greylistDelayMs has passed, then behaves strictly', async () => {
    const first = await probe('carol@greylist.test', { from: 'grey1@verifier.local' });
    expect(first.code).toBe(451);
    expect(first.lines[0]).toMatch(/^451 4\.7\.1 /);
    expect((await probe('carol@greylist.test', { from: 'grey1@verifier.local' })).code).toBe(451);
    expect((await probe('ghost@greylist.test', { from: 'grey1@verifier.local' })).code).toBe(451);
    await sleep(GREYLIST_MS + 100);
    expect((await probe('carol@greylist.test', { from: 'grey1@verifier.local' })).code).toBe(250);
    const ghost = await probe('ghost@greylist.test', { from: 'grey1@verifier.local' });
    expect(ghost.lines[0]).toMatch(/^550 5\.1\.1 /);
    // another sender is another triplet
    expect((await probe('carol@greylist.test', { from: 'other@verifier.local' })).code).toBe(451);
  });

  it('ratelimit.test answers 452 4.5.3 from the 4th RCPT of a session, and a new session starts afresh', async () => {
    const client = await openSession(await hostOf('ratelimit.test'), world.smtpPort);
    const codes = [];
    for (const user of ['r1', 'nobody', 'r3', 'r4', 'r5']) codes.push((await client.send(`RCPT TO:<${user}@ratelimit.test>`)).code);
    expect(codes).toEqual([250, 550, 250, 452, 452]);
    expect((await client.send('RSET')).code).toBe(250);
    expect((await client.send('MAIL FROM:<probe@verifier.local>')).code).toBe(250);
    expect((await client.send('RCPT TO:<r1@ratelimit.test>')).lines[0]).toMatch(/^452 4\.5\.3 /);
    client.close();
    expect((await probe('r4@ratelimit.test')).code).toBe(250);
  });

  it('starttls.test answers 530 5.7.0 until STARTTLS, then works over TLS with a self-signed certificate', async () => {
    const client = await RawSmtpClient.connect(await hostOf('starttls.test'), world.smtpPort);
    await client.readReply();
    const ehlo = await client.send('EHLO verifier.local');
    expect(ehlo.lines).toContain('250-STARTTLS');
    expect((await client.send('MAIL FROM:<probe@verifier.local>')).lines[0]).toMatch(/^530 5\.7\.0 /);
    expect((await client.startTls()).code).toBe(220);
    expect(client.encrypted).toBe(true);
    const secureEhlo = await client.send('EHLO verifier.local');
    expect(secureEhlo.code).toBe(250);
    expect(secureEhlo.lines.some((l) => l.includes('STARTTLS'))).toBe(false);
    expect((await client.send('MAIL FROM:<probe@verifier.local>')).code).toBe(250);
    expect((await client.send('RCPT TO:<laura@starttls.test>')).code).toBe(250);
    expect((await client.send('RCPT TO:<missing@starttls.test>')).lines[0]).toMatch(/^550 5\.1\.1 /);
    client.close();
  });

  it('policy.test rejects every RCPT with 550 5.7.1', async () => {
    for (const address of ['grace@policy.test', 'anyone@policy.test']) {
      expect((await probe(address)).lines[0]).toMatch(/^550 5\.7\.1 .*blocked/);
    }
  });

  it('fullbox.test answers 552 5.2.2 for full mailboxes and disabled.test 550 5.2.1 for disabled ones, strict otherwise', async () => {
    expect((await probe('heidi@fullbox.test')).lines[0]).toMatch(/^552 5\.2\.2 /);
    expect((await probe('ivan@fullbox.test')).code).toBe(250);
    expect((await probe('nobody@fullbox.test')).lines[0]).toMatch(/^550 5\.1\.1 /);
    expect((await probe('judy@disabled.test')).lines[0]).toMatch(/^550 5\.2\.1 /);
    expect((await probe('ken@disabled.test')).code).toBe(250);
    expect((await probe('nobody@disabled.test')).lines[0]).toMatch(/^550 5\.1\.1 /);
  });

  it('refused.test and the preference-10 MX of backupmx.test refuse connections; the preference-20 MX works', async () => {
    await expect(RawSmtpClient.connect(await hostOf('refused.test'), world.smtpPort)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    await expect(RawSmtpClient.connect(await hostOf('backupmx.test', 0), world.smtpPort)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    const client = await openSession(await hostOf('backupmx.test', 1), world.smtpPort);
    expect((await client.send('RCPT TO:<niaj@backupmx.test>')).code).toBe(250);
    expect((await client.send('RCPT TO:<nobody@backupmx.test>')).code).toBe(550);
    client.close();
  });

  it('aonly.test runs a strict server on the address of its A record', async () => {
    expect((await probe('olivia@aonly.test')).code).toBe(250);
    expect((await probe('nobody@aonly.test')).lines[0]).toMatch(/^550 5\.1\.1 /);
  });

  it('timeout.test accepts the connection and never greets', async () => {
    const client = await RawSmtpClient.connect(await hostOf('timeout.test'), world.smtpPort);
    expect(await client.staysSilent(500)).toBe(true);
    expect(client.isClosed).toBe(false);
    client.close();
  });

  it('tarpit.test delays every reply by tarpitDelayMs: nothing before it, then the normal dialogue', async () => {
    const client = await RawSmtpClient.connect(await hostOf('tarpit.test'), world.smtpPort);
    expect(await client.staysSilent(TARPIT_MS / 4)).toBe(true);
    expect((await client.readReply()).code).toBe(220);
    client.writeRaw('EHLO verifier.local\r\n');
    expect(await client.staysSilent(TARPIT_MS / 4)).toBe(true);
    expect((await client.readReply()).code).toBe(250);
    client.close();
  });
});

describe('provider look-alikes', () => {
  it('Google answers like gmail-smtp-in and rejects unknown users with a multi-line 550 5.1.1', async () => {
    const client = await RawSmtpClient.connect(await hostOf('gmail.com'), world.smtpPort);
    expect((await client.readReply()).lines[0]).toMatch(/^220 mx\.google\.com ESMTP \S+ - gsmtp$/);
    expect((await client.send('EHLO verifier.local')).lines[0]).toMatch(/^250-mx\.google\.com at your service, \[127\./);
    expect((await client.send('MAIL FROM:<probe@verifier.local>')).lines[0]).toMatch(/^250 2\.1\.0 OK .* - gsmtp$/);
    expect((await client.send('RCPT TO:<john.smith@gmail.com>')).lines[0]).toMatch(/^250 2\.1\.5 OK /);
    const unknown = await client.send('RCPT TO:<xkqzvbn.qwop@gmail.com>');
    expect(unknown.code).toBe(550);
    expect(unknown.lines).toHaveLength(4);
    expect(unknown.lines[0]).toMatch(/^550-5\.1\.1 The email account that you tried to reach does not exist/);
    client.close();
  });

  it('Microsoft 365 and outlook.com accept any recipient at RCPT time', async () => {
    const client = await RawSmtpClient.connect(await hostOf('m365.test'), world.smtpPort);
    expect((await client.readReply()).lines[0]).toMatch(/^220 \S+\.mail\.protection\.outlook\.com Microsoft ESMTP MAIL Service ready/);
    client.close();
    expect((await probe('zz9q8w7e6r@m365.test')).lines[0]).toBe('250 2.1.5 Recipient OK');
    expect((await probe('zz9q8w7e6r@outlook.com')).code).toBe(250);
  });

  it('Yahoo and Zoho look-alikes greet with their host names and are strict', async () => {
    const yahoo = await RawSmtpClient.connect(await hostOf('yahoo.com'), world.smtpPort);
    expect((await yahoo.readReply()).lines[0]).toMatch(/^220 mta\d\.am0\.yahoodns\.net ESMTP ready$/);
    yahoo.close();
    expect((await probe('mike.brown@yahoo.com')).code).toBe(250);
    expect((await probe('nobody.here.1999@yahoo.com')).lines[0]).toMatch(/^554 5\.1\.1 delivery error: dd This user doesn't have a yahoo\.com account/);
    const zoho = await RawSmtpClient.connect(await hostOf('zoho.test'), world.smtpPort);
    expect((await zoho.readReply()).lines[0]).toMatch(/^220 mx\.zohomail\.com SMTP Server ready/);
    zoho.close();
    expect((await probe('trent@zoho.test')).code).toBe(250);
    expect((await probe('nobody@zoho.test')).lines[0]).toMatch(/^550 5\.1\.1 User does not exist/);
  });

  it('mailinator.com accepts anything', async () => {
    expect((await probe('whatever-123@mailinator.com')).code).toBe(250);
  });
});

describe('ports', () => {
  it('binds port 25 as root, or one high port for all hosts', async () => {
    const ip = await hostOf('strict.test');
    expect(world.smtpPort === 25 || world.smtpPort > 1024).toBe(true);
    await new Promise<void>((resolve, reject) => {
      const s = net.connect(world.smtpPort, ip, () => {
        s.destroy();
        resolve();
      });
      s.on('error', reject);
    });
  });
});
