import net from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { startOneDomainDns, type TFakeDns } from '../test-support/fake-dns-server';
import { onSmtpLines } from '../test-support/smtp-lines';
import { until } from '../test-support/until';
import { VerifierEngine } from './engine';

/**
 * A host on loopback whose second connection is greeted only when the test says so, and which answers the RCPT of
 * slow@idle.test only when the test says so (250 to the listed mailboxes, 550 to others).
 */
async function startHeldHost(mailboxes: string[]) {
  const stats = { connections: 0, rcpts: [] as string[], greeted: 0 };
  let releaseGreeting = () => {};
  const greetingHeld = new Promise<void>((resolve) => (releaseGreeting = resolve));
  let releaseSlow = () => {};
  const slowHeld = new Promise<void>((resolve) => (releaseSlow = resolve));
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    const index = ++stats.connections;
    void (index === 2 ? greetingHeld : Promise.resolve()).then(() => {
      stats.greeted++;
      if (!socket.destroyed) socket.write('220 mx.idle.test ESMTP\r\n');
    });
    onSmtpLines(socket, (line) => {
      const verb = line.split(/[ :]/)[0]?.toUpperCase();
      if (verb === 'EHLO') socket.write('250-mx.idle.test\r\n250 PIPELINING\r\n');
      else if (verb === 'RCPT') {
        stats.rcpts.push(line);
        const answer = mailboxes.some((m) => line.includes(`<${m}>`)) ? '250 2.1.5 Ok\r\n' : '550 5.1.1 User unknown\r\n';
        if (line.includes('<slow@idle.test>')) void slowHeld.then(() => socket.write(answer));
        else socket.write(answer);
      } else if (verb === 'QUIT') socket.end('221 2.0.0 Bye\r\n');
      else socket.write('250 2.0.0 Ok\r\n');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    stats,
    releaseGreeting,
    releaseSlow,
    stop: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

let dns: TFakeDns | null = null;
let host: Awaited<ReturnType<typeof startHeldHost>> | null = null;
afterEach(async () => {
  host?.releaseGreeting();
  host?.releaseSlow();
  await dns?.stop();
  await host?.stop();
  dns = null;
  host = null;
});

it("answers a call on a busy session that frees up rather than waiting for a new session's greeting, which goes on in the background", async () => {
  dns = await startOneDomainDns('idle.test');
  host = await startHeldHost(['ann@idle.test', 'slow@idle.test', 'bob@idle.test']);
  const held = host;
  const engine = new VerifierEngine({ dnsServers: [dns.server], smtpPort: held.port, heloName: 'verifier.test', timeouts: { dnsMs: 2_000, connectMs: 5_000, replyMs: 5_000 } });
  try {
    // Session A, greeted at once; the domain's catch-all probe is done.
    expect((await engine.verify('ann@idle.test')).status).toBe('valid');
    // A is busy: the host holds its answer about slow@.
    const slow = engine.verify('slow@idle.test');
    await until(() => held.stats.rcpts.some((l) => l.includes('<slow@idle.test>')));
    // bob@ finds no idle session while A is busy: a second session is opened (the host holds its greeting) ...
    const bob = engine.verify('bob@idle.test');
    await until(() => held.stats.connections === 2);
    expect(held.stats.connections).toBe(2);
    // ... and once A is free, bob@ is asked on A, while the second session still waits for its greeting.
    held.releaseSlow();
    expect((await slow).status).toBe('valid');
    expect((await bob).status).toBe('valid');
    expect(held.stats.greeted).toBe(1);
    expect(held.stats.rcpts.filter((l) => l.includes('<bob@idle.test>'))).toHaveLength(1);
    // The second session joins the pool when greeted.
    held.releaseGreeting();
    await until(() => engine.inspectHost('127.0.0.1')?.established === 2);
    expect(engine.inspectHost('127.0.0.1')?.established).toBe(2);
  } finally {
    await engine.close();
  }
}, 20_000);
