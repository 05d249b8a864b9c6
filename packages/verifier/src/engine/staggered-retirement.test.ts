import net from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { startOneDomainDns, type TFakeDns } from '../test-support/fake-dns-server';
import { onSmtpLines } from '../test-support/smtp-lines';
import { until } from '../test-support/until';
import { VerifierEngine } from './engine';

/**
 * A host on loopback that greets its first two connections at once and holds every later greeting until the test
 * says so; it accepts user…@ and hold…@ mailboxes, answering a hold…@ RCPT only when the test releases it.
 */
async function startHost() {
  const stats = { connections: 0, open: 0, quits: 0, heldRcpts: 0 };
  let releaseGreetings = () => {};
  const held = new Promise<void>((resolve) => (releaseGreetings = resolve));
  let releaseRcpt = () => {};
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    stats.connections++;
    stats.open++;
    socket.on('close', () => {
      sockets.delete(socket);
      stats.open--;
    });
    socket.on('error', () => socket.destroy());
    void (stats.connections > 2 ? held : Promise.resolve()).then(() => socket.destroyed || socket.write('220 mx.stagger.test ESMTP\r\n'));
    // replies in the order of the commands (pipelining), a held one holding those after it
    let replies = Promise.resolve();
    const reply = (text: string, hold?: Promise<void>) => {
      replies = replies.then(() => hold).then(() => void (socket.destroyed || socket.write(text)));
    };
    onSmtpLines(socket, (line) => {
      const verb = line.split(/[ :]/)[0]?.toUpperCase();
      if (verb === 'EHLO') reply('250-mx.stagger.test\r\n250 PIPELINING\r\n');
      else if (verb === 'RCPT') {
        const answer = /<(user|hold)/.test(line) ? '250 2.1.5 Ok\r\n' : '550 5.1.1 User unknown\r\n';
        if (!line.includes('<hold')) reply(answer);
        else {
          stats.heldRcpts++;
          reply(answer, new Promise<void>((resolve) => (releaseRcpt = resolve)));
        }
      } else if (verb === 'QUIT') {
        stats.quits++;
        replies = replies.then(() => void socket.end('221 2.0.0 Bye\r\n'));
      } else reply('250 2.0.0 Ok\r\n');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    stats,
    releaseGreetings,
    releaseRcpt: () => releaseRcpt(),
    stop: () => {
      releaseGreetings();
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

let dns: TFakeDns | null = null;
let host: Awaited<ReturnType<typeof startHost>> | null = null;
afterEach(async () => {
  await dns?.stop();
  await host?.stop();
  dns = null;
  host = null;
});

it('retires the sessions of a host one at a time: while a successor waits for its greeting, the others serve on past 50 transactions', async () => {
  dns = await startOneDomainDns('stagger.test');
  host = await startHost();
  const h = host;
  const engine = new VerifierEngine({ dnsServers: [dns.server], smtpPort: h.port, heloName: 'verifier.test', timeouts: { dnsMs: 2_000, connectMs: 2_000, replyMs: 2_000 }, perHostConcurrency: 2, sessionBudget: { nonMail: 1_000 } });
  const verdicts: string[] = [];
  let n = 0;
  // Two sessions at most (so no spare is opened beside them ahead of a retirement).
  /** One transaction on each of the host's two sessions: a call held on one, another call meanwhile on the other. */
  const round = async () => {
    const heldBefore = h.stats.heldRcpts;
    const holding = engine.verify(`hold${n++}@stagger.test`);
    await until(() => h.stats.heldRcpts > heldBefore);
    const other = engine.verify(`user${n++}@stagger.test`);
    await Promise.race([other, new Promise((resolve) => setTimeout(resolve, 20))]);
    h.releaseRcpt();
    for (const r of await Promise.all([holding, other])) verdicts.push(`${r.email} ${r.status}`);
  };
  try {
    await round(); // the first session, and the second opened beside it while the first is held
    expect(engine.inspectHost('127.0.0.1')).toMatchObject({ established: 2 });
    // Both sessions reach their 50th transaction in the same round. The first to end it retires and its successor's
    // greeting is held by the host: the other one goes on serving (every call answered, no second QUIT) ...
    for (let i = 0; i < 60; i++) await round();
    expect(verdicts.filter((v) => !v.endsWith(' valid'))).toEqual([]);
    expect(h.stats.quits).toBe(1);
    // ... and once the successor is greeted, the one that served on retires at its next transaction
    h.releaseGreetings();
    await until(() => engine.inspectHost('127.0.0.1')?.opening === 0);
    await round();
    expect(h.stats.quits).toBe(2);
    expect(verdicts.filter((v) => !v.endsWith(' valid'))).toEqual([]);
  } finally {
    await engine.close();
  }
}, 30_000);
