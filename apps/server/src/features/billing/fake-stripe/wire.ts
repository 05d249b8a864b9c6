import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';

/** The fake Stripe's wire pieces: objects, ids, Stripe-shaped errors and its test pages' HTML frame. */
export type TObj = Record<string, unknown> & { id: string };

export class StripeFail extends Error {
  constructor(
    public status: number,
    public body: Record<string, unknown>,
  ) {
    super(String(body.message));
  }
}

export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString('hex')}`;
}

export function missing(what: string, id: string, param = 'id'): StripeFail {
  return new StripeFail(404, { type: 'invalid_request_error', code: 'resource_missing', param, message: `No such ${what}: '${id}'` });
}

export function html(res: ServerResponse, status: number, title: string, body: string) {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
  res.end(`<!doctype html><html><head><meta charset="utf-8"><title>${title}</title>
<style>body{font-family:system-ui,sans-serif;max-width:520px;margin:40px auto;color:#1f2937}button,a.btn{display:block;width:100%;box-sizing:border-box;margin:8px 0;padding:12px;font-size:15px;border-radius:8px;border:1px solid #cbd5e1;background:#fff;cursor:pointer;text-align:left;color:inherit;text-decoration:none}button:hover{background:#eef2ff}.err{color:#b91c1c;background:#fef2f2;padding:10px;border-radius:8px}.badge{display:inline-block;background:#fef3c7;color:#92400e;padding:2px 8px;border-radius:6px;font-size:12px}</style></head>
<body><span class="badge">Test mode</span>${body}</body></html>`);
}

export function formatAmount(o: Record<string, unknown>): string {
  const amount = Number(o.amount ?? o.amount_due) / 100;
  return `${String(o.currency).toUpperCase()} ${amount.toFixed(2)}`;
}
