import { createHmac, randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';

/** The fake Stripe's wire pieces: objects, ids, Stripe-shaped errors, test cards, signed events and its test pages' HTML frame. */
export type TObj = Record<string, unknown> & { id: string };

/** An event as sent: its signed body and the `Stripe-Signature` header. */
export type TFakeStripeEvent = { id: string; type: string; body: string; header: string };

export type TCardBehaviour = 'succeed' | 'decline' | 'authenticate';

/** Stripe's documented test payment methods this fake honours. */
export const TEST_CARDS: Record<string, { brand: string; last4: string; behaviour: TCardBehaviour; label: string }> = {
  pm_card_visa: { brand: 'visa', last4: '4242', behaviour: 'succeed', label: 'Visa 4242 4242 4242 4242 (succeeds)' },
  pm_card_mastercard: { brand: 'mastercard', last4: '4444', behaviour: 'succeed', label: 'Mastercard 5555 5555 5555 4444 (succeeds)' },
  pm_card_amex: { brand: 'amex', last4: '8431', behaviour: 'succeed', label: 'Amex 3782 822463 10005 (succeeds)' },
  pm_card_chargeDeclined: { brand: 'visa', last4: '0002', behaviour: 'decline', label: 'Visa 4000 0000 0000 0002 (declined)' },
  pm_card_authenticationRequired: {
    brand: 'visa',
    last4: '3184',
    behaviour: 'authenticate',
    label: 'Visa 4000 0027 6000 3184 (authentication required)',
  },
};

/** The `Stripe-Signature` header of a body: `t=…,v1=HMAC-SHA256(secret, t + "." + body)`, as Stripe signs webhooks. */
export function signStripePayload(secret: string, body: string, timestamp = Math.floor(Date.now() / 1000)): string {
  const sig = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
  return `t=${timestamp},v1=${sig}`;
}

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

/** A 400 `invalid_request_error`, naming the parameter when there is one. */
export function bad(message: string, param?: string): StripeFail {
  return new StripeFail(400, { type: 'invalid_request_error', message, ...(param ? { param } : {}) });
}

/** A deep copy: what the API answers never aliases the fake's own state. */
export const copy = <T>(o: T): T => JSON.parse(JSON.stringify(o)) as T;

/** `ts` (seconds) moved on by `count` intervals, as Stripe's billing periods are counted. */
export function addInterval(ts: number, interval: string, count: number): number {
  const d = new Date(ts * 1000);
  if (interval === 'year') d.setUTCFullYear(d.getUTCFullYear() + count);
  else if (interval === 'month') d.setUTCMonth(d.getUTCMonth() + count);
  else if (interval === 'week') d.setUTCDate(d.getUTCDate() + 7 * count);
  else d.setUTCDate(d.getUTCDate() + count);
  return Math.floor(d.getTime() / 1000);
}

/** A Stripe list object of copies of `data`. */
export function list(data: TObj[], url: string) {
  return { object: 'list', data: data.map((o) => copy(o)), has_more: false, url };
}
