import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { onSmtpLines } from '../test-support/smtp-lines';
import { SmtpFailure, SmtpSession, dialTcp } from './smtp-session';

let server: net.Server | null = null;
afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = null;
});

/** A scripted SMTP server: `script(line)` returns the reply lines for each command; QUIT is answered after `quitDelayMs`. */
async function startScripted(greeting: string[], script: (line: string) => string[], quitDelayMs = 0): Promise<number> {
  server = net.createServer((socket) => {
    socket.write(greeting.map((l) => `${l}\r\n`).join(''));
    onSmtpLines(socket, (line) => {
      const reply = script(line);
      const send = (): void => {
        if (reply.length > 0 && socket.writable) socket.write(reply.map((l) => `${l}\r\n`).join(''));
        if (line === 'QUIT') socket.end();
      };
      if (line === 'QUIT' && quitDelayMs > 0) setTimeout(send, quitDelayMs);
      else send();
    });
    socket.on('error', () => socket.destroy());
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return (server.address() as net.AddressInfo).port;
}

function open(port: number, lines: Array<[string, string]>, replyMs = 500) {
  return SmtpSession.open({
    address: '127.0.0.1',
    port,
    serverName: 'mx.example.test',
    heloName: 'verifier.test',
    dial: dialTcp,
    connectMs: 500,
    replyMs,
    budgetMs: 5_000,
    sink: (d, l) => lines.push([d, l]),
  });
}

describe('SmtpSession', () => {
  it('reads a multi-line greeting and multi-line EHLO replies with extensions', async () => {
    const port = await startScripted(['220-mx.example.test ESMTP', '220-second line', '220 ready'], (line) =>
      line.startsWith('EHLO') ? ['250-mx.example.test', '250-PIPELINING', '250-SMTPUTF8', '250 8BITMIME'] : ['250 2.0.0 Ok'],
    );
    const lines: Array<[string, string]> = [];
    const { session, greeting } = await open(port, lines);
    expect(greeting).toMatchObject({ code: 220, lines: ['220-mx.example.test ESMTP', '220-second line', '220 ready'] });
    const hello = await session.greet();
    expect(hello.code).toBe(250);
    expect([...session.extensions]).toEqual(['PIPELINING', 'SMTPUTF8', '8BITMIME']);
    const rcpt = await session.command('RCPT TO:<a@b.test>');
    expect(rcpt).toMatchObject({ code: 250, enhanced: '2.0.0' });
    await session.quit();
    expect(lines[0]).toEqual(['S', '220-mx.example.test ESMTP']);
    expect(lines).toContainEqual(['C', 'EHLO verifier.test']);
    expect(lines).toContainEqual(['C', 'QUIT']);
  });

  it("waits for the host's answer to QUIT, even once the last verification's deadline has passed", async () => {
    const port = await startScripted(['220 mx.example.test ESMTP'], (line) => (line === 'QUIT' ? ['221 2.0.0 Bye'] : ['250 2.0.0 Ok']), 50);
    const lines: Array<[string, string]> = [];
    const { session } = await open(port, lines);
    await session.greet();
    // an idle session is closed after the verification that used it is over
    session.setBudget(-1);
    await session.quit();
    expect(lines).toContainEqual(['S', '221 2.0.0 Bye']);
    expect(session.closed).toBe(true);
  });

  it('falls back to HELO when EHLO is refused with 5xx', async () => {
    const port = await startScripted(['220 old server'], (line) => (line.startsWith('EHLO') ? ['502 5.5.2 Command not recognized'] : ['250 hello']));
    const lines: Array<[string, string]> = [];
    const { session } = await open(port, lines);
    const hello = await session.greet();
    expect(hello.code).toBe(250);
    expect(lines.filter(([d]) => d === 'C').map(([, l]) => l)).toEqual(['EHLO verifier.test', 'HELO verifier.test']);
    session.close();
  });

  it('times out when the server never answers', async () => {
    const port = await startScripted([], () => []);
    await expect(open(port, [], 150)).rejects.toMatchObject({ kind: 'timeout' });
  });

  it('reports a refused connection', async () => {
    const port = await startScripted(['220 x'], () => []);
    await new Promise<void>((resolve) => server?.close(() => resolve()));
    server = null;
    const error = await open(port, []).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SmtpFailure);
    expect((error as SmtpFailure).kind).toBe('refused');
  });
});
