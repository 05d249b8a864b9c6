import net from 'node:net';
import { onSmtpLines } from './smtp-lines';

export type TStrictSmtpHost = Awaited<ReturnType<typeof startStrictSmtpHost>>;

/**
 * A strict SMTP host on loopback for the engine's session tests: greets at once, offers PIPELINING, answers 250 to
 * the recipients `accepts` takes and 550 5.1.1 to the others (or the reply `opts.refusal` gives for the line), and
 * counts connections, open sockets and QUITs (with their order in `events`); `verbs` lists every command's verb and
 * `rcpts` every recipient's address, in the order received (all sessions together).
 */
export async function startStrictSmtpHost(name: string, accepts: (rcptLine: string) => boolean, opts: { refusal?: (rcptLine: string) => string | undefined } = {}) {
  const stats = { connections: 0, open: 0, quits: 0, events: [] as string[], verbs: [] as string[], rcpts: [] as string[] };
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    stats.connections++;
    stats.open++;
    stats.events.push('connect');
    socket.on('close', () => {
      sockets.delete(socket);
      stats.open--;
    });
    socket.on('error', () => socket.destroy());
    socket.write(`220 ${name} ESMTP\r\n`);
    onSmtpLines(socket, (line) => {
      const verb = line.split(/[ :]/)[0]?.toUpperCase() ?? '';
      stats.verbs.push(verb);
      if (verb === 'EHLO') socket.write(`250-${name}\r\n250 PIPELINING\r\n`);
      else if (verb === 'RCPT') {
        stats.rcpts.push(/<([^>]*)>/.exec(line)?.[1] ?? '');
        socket.write(accepts(line) ? '250 2.1.5 Ok\r\n' : `${opts.refusal?.(line) ?? '550 5.1.1 User unknown'}\r\n`);
      } else if (verb === 'QUIT') {
        stats.quits++;
        stats.events.push('QUIT');
        socket.end('221 2.0.0 Bye\r\n');
      } else socket.write('250 2.0.0 Ok\r\n');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    stats,
    stop: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
