import type { IncomingMessage, Server } from 'node:http';

/** Reads a request body as text (the local provider fakes). */
export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** Escapes text for the fakes' HTML pages. */
export function escapeHtml(v: unknown): string {
  return String(v).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);
}

/** Closes a fake's server and its open connections. */
export function closeServer(server: Server): Promise<void> {
  return new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
}

/**
 * Listens on 127.0.0.1 (`port` 0: any free port) and keeps idle connections open for 65 s, as the providers' own
 * front ends do. Node's default of 5 s closes a connection a client still holds: a request sent on it just as it closes
 * fails with ECONNRESET (CI's billing.spec saw that on a busy machine).
 */
export async function listenOnLoopback(server: Server, port = 0): Promise<void> {
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
}
