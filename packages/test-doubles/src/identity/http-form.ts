import type { IncomingMessage } from 'node:http';

/** Escapes text for an HTML attribute or body. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Reads a url-encoded form body (capped at `maxBytes`). */
export function readForm(req: IncomingMessage, maxBytes = 100_000): Promise<Record<string, string>> {
  return new Promise((resolve, reject) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      body += chunk;
      if (body.length > maxBytes) req.destroy();
    });
    req.on('end', () => resolve(Object.fromEntries(new URLSearchParams(body))));
    req.on('error', reject);
  });
}
