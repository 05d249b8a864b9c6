import { afterEach, expect, it } from 'vitest';
import { TRANSACTION_RECIPIENTS } from '../smtp/smtp-transaction';
import { startOneDomainDns, type TFakeDns } from '../test-support/fake-dns-server';
import { startStrictSmtpHost, type TStrictSmtpHost } from '../test-support/strict-smtp-host';
import { VerifierEngine } from './engine';

let dns: TFakeDns | null = null;
let host: TStrictSmtpHost | null = null;
afterEach(async () => {
  await dns?.stop();
  await host?.stop();
  dns = null;
  host = null;
});

it('keeps one mail transaction open across batches: one MAIL FROM, no RSET, until the transaction has taken 100 recipients (then RSET and MAIL FROM)', async () => {
  dns = await startOneDomainDns('open.test');
  host = await startStrictSmtpHost('mx.open.test', (line) => line.includes('<user'));
  const h = host;
  const engine = new VerifierEngine({ dnsServers: [dns.server], smtpPort: h.port, heloName: 'verifier.test', timeouts: { dnsMs: 2_000, connectMs: 2_000, replyMs: 2_000 }, perHostConcurrency: 1 });
  try {
    // one call at a time: each is a batch of its own on the one session
    for (let i = 0; i < 5; i++) expect((await engine.verify(`user${i}@open.test`)).status).toBe('valid');
    // the first batch carried the catch-all probe (refused: the domain is no catch-all), the others only their address
    expect(h.stats.verbs).toEqual(['EHLO', 'MAIL', 'RCPT', 'RCPT', 'RCPT', 'RCPT', 'RCPT', 'RCPT']);
    // a refusal does not close the transaction either (Postfix and Exim answer RCPT on its own)
    expect((await engine.verify('nobody@open.test')).status).toBe('invalid');
    expect((await engine.verify('user5@open.test')).status).toBe('valid');
    expect(h.stats.verbs.filter((v) => v === 'MAIL' || v === 'RSET')).toEqual(['MAIL']);
    // past TRANSACTION_RECIPIENTS (RFC 5321: every server takes 100 per message), a new transaction: RSET and MAIL FROM
    const more = Array.from({ length: TRANSACTION_RECIPIENTS }, (_, i) => `user${i + 6}@open.test`);
    for await (const r of engine.verifyMany(more, { concurrency: TRANSACTION_RECIPIENTS })) expect(r.status).toBe('valid');
    expect(h.stats.verbs.filter((v) => v === 'MAIL' || v === 'RSET')).toEqual(['MAIL', 'RSET', 'MAIL']);
    expect(h.stats.verbs.filter((v) => v === 'RCPT')).toHaveLength(TRANSACTION_RECIPIENTS + 8);
    expect(h.stats.connections).toBe(1);
  } finally {
    await engine.close();
  }
  expect(h.stats.events).toEqual(['connect', 'QUIT']);
}, 30_000);
