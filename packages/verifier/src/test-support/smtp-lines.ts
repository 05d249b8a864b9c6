import type net from 'node:net';

/** Calls `onLine` with each CRLF-terminated line a client sends on `socket` (a test SMTP server's command reader). */
export function onSmtpLines(socket: net.Socket, onLine: (line: string) => void): void {
  let buffer = '';
  socket.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    let i: number;
    while ((i = buffer.indexOf('\r\n')) >= 0) {
      const line = buffer.slice(0, i);
      buffer = buffer.slice(i + 2);
      onLine(line);
    }
  });
}
