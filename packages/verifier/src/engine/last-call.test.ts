import net from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { startOneDomainDns, type TFakeDns } from '../test-support/fake-dns-server';
import { startStrictSmtpHost, type TStrictSmtpHost } from '../test-support/strict-smtp-host';
import { until } from '../test-support/until';
import type { TVerificationResult } from '../types';
import { VerifierEngine } from './engine';

/**
 * A session's last call (session-budget.ts, LAST_CALL_ROOM): with two refusals left it asks its last batch with QUIT
 * pipelined behind the recipients, in one write, and ends with it. The host here greets at once, offers PIPELINING,
 * accepts user…@ and postmaster@, answers `deny…@` with a policy-worded refusal (one that needs a control recipient)
 * and every other recipient with 550 5.1.1.
 */
const startHost = () =>
  startStrictSmtpHost('mx.last.test', (line) => line.includes('<user') || line.includes('<postmaster@'), {
    refusal: (line) => (line.includes('<deny') ? '550 5.7.1 Recipient address rejected: Access denied' : undefined),
  });

let dns: TFakeDns | null = null;
let host: TStrictSmtpHost | null = null;
afterEach(async () => {
  await dns?.stop();
  await host?.stop();
  dns = null;
  host = null;
});

/** An engine on one connection to the host whose writes are recorded, one list per connection. */
async function setUp() {
  dns = await startOneDomainDns('last.test');
  host = await startHost();
  const writes: string[][] = [];
  const dial = ({ host: address, port }: { host: string; port: number }) => {
    const socket = net.connect({ host: address, port, noDelay: true });
    const mine: string[] = [];
    writes.push(mine);
    const write = socket.write.bind(socket) as (chunk: unknown, ...rest: unknown[]) => boolean;
    (socket as { write: unknown }).write = (chunk: unknown, ...rest: unknown[]) => {
      mine.push(String(chunk));
      return write(chunk, ...rest);
    };
    return socket;
  };
  // only the refused-reply budget (9) ends sessions here; one connection, so no successor is opened ahead
  const engine = new VerifierEngine({ dnsServers: [dns.server], smtpPort: host.port, heloName: 'verifier.test', timeouts: { dnsMs: 2_000, connectMs: 2_000, replyMs: 2_000 }, perHostConcurrency: 1, sessionBudget: { nonMail: 1_000 }, dial });
  return { engine, writes, stats: host.stats };
}

const verdict = (r: TVerificationResult) => `${r.email} ${r.status}/${r.reason.code}`;

it('with two refusals left, a session asks its last batch with QUIT behind it in the same write; its successor, opened after the QUIT, serves the next call', async () => {
  const { engine, writes, stats } = await setUp();
  const verdicts: string[] = [];
  try {
    // user0 with the catch-all probe (refused: 1 refusal), then 6 unknown mailboxes: 7 refusals, room for 2
    verdicts.push(verdict(await engine.verify('user0@last.test')));
    for (let i = 1; i <= 6; i++) verdicts.push(verdict(await engine.verify(`nobody${i}@last.test`)));
    expect(stats.events).toEqual(['connect']);
    expect(engine.inspectHost('127.0.0.1')?.budget.isLastCall({ errors: 7, nonMail: 1 })).toBe(true);
    const last = await engine.verify('nobody7@last.test');
    verdicts.push(verdict(last));
    // the recipient and QUIT went out in one write; the host answered both and the session ended
    expect(writes[0]?.at(-1)).toBe('RCPT TO:<nobody7@last.test>\r\nQUIT\r\n');
    expect(writes[0]?.filter((w) => w.includes('QUIT'))).toHaveLength(1);
    expect(stats.events.slice(0, 2)).toEqual(['connect', 'QUIT']);
    expect(last.transcript.map((l) => l.line)).toEqual(expect.arrayContaining(['RCPT TO:<nobody7@last.test>', 'QUIT', '221 2.0.0 Bye']));
    // its successor is opened at once in the freed slot (after the QUIT: never two connections) and serves the next call
    await until(() => engine.inspectHost('127.0.0.1')?.established === 1);
    verdicts.push(verdict(await engine.verify('user1@last.test')));
    expect(stats.events).toEqual(['connect', 'QUIT', 'connect']);
    expect(writes).toHaveLength(2);
    expect(engine.inspectHost('127.0.0.1')?.budget.lastCalls).toBe(true);
  } finally {
    await engine.close();
  }
  expect(stats.events).toEqual(['connect', 'QUIT', 'connect', 'QUIT']);
  expect(verdicts).toEqual([
    'user0@last.test valid/valid_mailbox',
    ...Array.from({ length: 7 }, (_, i) => `nobody${i + 1}@last.test invalid/mailbox_not_found`),
    'user1@last.test valid/valid_mailbox',
  ]);
}, 30_000);

it('a refusal in a last call that needs a control recipient is asked again on a new session (with the control), and the host gets no more last calls', async () => {
  const { engine, writes, stats } = await setUp();
  try {
    await engine.verify('user0@last.test');
    for (let i = 1; i <= 6; i++) await engine.verify(`nobody${i}@last.test`);
    // the last call: `deny7` refused in policy words; no control can follow a QUIT, so it is asked again
    const denied = await engine.verify('deny7@last.test');
    expect(writes[0]?.at(-1)).toBe('RCPT TO:<deny7@last.test>\r\nQUIT\r\n');
    expect(stats.rcpts.filter((r) => r === 'deny7@last.test')).toHaveLength(2);
    // on the new session its refusal is judged against postmaster, accepted there: no such mailbox
    expect(stats.rcpts.at(-1)).toBe('postmaster@last.test');
    expect(`${denied.status}/${denied.reason.code}`).toBe('invalid/mailbox_not_found');
    expect(engine.inspectHost('127.0.0.1')?.budget.lastCalls).toBe(false);
    expect(engine.inspectHost('127.0.0.1')?.budget.isLastCall({ errors: 7, nonMail: 1 })).toBe(false);
  } finally {
    await engine.close();
  }
  expect(stats.events).toEqual(['connect', 'QUIT', 'connect', 'QUIT']);
}, 30_000);
