import type { IncomingMessage, ServerResponse } from 'node:http';
import { escapeHtml } from '../http';
import { bad, copy, formatAmount, html, list, missing, newId, type TObj } from './wire';

/** What the Billing subset uses of the fake's core: its address, customers, card charges and events. */
export type TFakeCore = {
  baseUrl(): string;
  customers: Map<string, TObj>;
  /** Creates a PaymentIntent and confirms it with the card; a refused card answers the intent, never throws. */
  charge(p: { amount: number; currency: string; customer: string; paymentMethod: string; description: string; metadata: Record<string, unknown>; returnUrl: string }): Promise<TObj>;
  emit(type: string, object: TObj): Promise<void>;
};

/** A subscription: one item (its price and current period). */
export type TSub = TObj & { items: { object: 'list'; data: TObj[] } };

/** The subscription's only item. */
export function item(sub: TSub): TObj {
  return sub.items.data[0]!;
}

/** What invoices use of the subscriptions: the subscriptions, the clock of a customer and a subscription's card. */
export type TInvoicesContext = {
  core: TFakeCore;
  subs: Map<string, TSub>;
  /** The customer's time: its test clock's frozen time, else now (seconds). */
  nowFor(customerId: unknown): number;
  defaultCard(sub: TSub): string | null;
};

/**
 * The fake Stripe's Invoices: created by subscriptions (a negative total goes to the customer's credit balance, which
 * later invoices use up), paid with a card (`invoice.paid`, `invoice.payment_failed`,
 * `invoice.payment_action_required`), listed, retrieved and paid through the API, and the hosted invoice page.
 */
export function createFakeInvoices(ctx: TInvoicesContext) {
  const invoices = new Map<string, TObj>();
  const invoiceIntent = new Map<string, TObj>();
  let invoiceNumber = 0;

  function newInvoice(sub: TSub, reason: string, lines: { amount: number; description: string }[], period: { start: number; end: number }): TObj {
    const id = newId('in');
    // As on Stripe: the total may be negative (a downgrade's credit for unused time); the customer's credit balance
    // (a negative `balance`) pays what it can, and what is left over is credited back to it when the invoice is finalised.
    const total = lines.reduce((a, l) => a + l.amount, 0);
    const customer = ctx.core.customers.get(String(sub.customer));
    const startingBalance = Number(customer?.balance ?? 0);
    const applied = total + startingBalance;
    const amountDue = Math.max(0, applied);
    if (customer) customer.balance = Math.min(0, applied);
    invoiceNumber += 1;
    const inv: TObj = {
      id,
      object: 'invoice',
      number: `FAKE-${String(invoiceNumber).padStart(4, '0')}`,
      customer: sub.customer,
      billing_reason: reason,
      collection_method: 'charge_automatically',
      currency: (item(sub).price as TObj).currency,
      status: 'open',
      subtotal: total,
      total,
      starting_balance: startingBalance,
      ending_balance: Math.min(0, applied),
      amount_due: amountDue,
      amount_paid: 0,
      amount_remaining: amountDue,
      attempt_count: 0,
      attempted: false,
      period_start: period.start,
      period_end: period.end,
      lines: {
        object: 'list',
        has_more: false,
        data: lines.map((l) => ({ id: newId('il'), object: 'line_item', amount: l.amount, currency: (item(sub).price as TObj).currency, description: l.description, period })),
      },
      payments: { object: 'list', data: [], has_more: false },
      parent: { type: 'subscription_details', subscription_details: { subscription: sub.id, metadata: copy(sub.metadata) } },
      hosted_invoice_url: `${ctx.core.baseUrl()}/i/${id}`,
      invoice_pdf: `${ctx.core.baseUrl()}/i/${id}/pdf`,
      status_transitions: { finalized_at: period.start, paid_at: null },
      created: ctx.nowFor(sub.customer),
      livemode: false,
      metadata: {},
    };
    invoices.set(id, inv);
    return inv;
  }

  async function invoicePaid(inv: TObj) {
    inv.status = 'paid';
    for (const p of (inv.payments as { data: TObj[] }).data) p.status = invoiceIntent.get(inv.id)?.id === (p.payment as { payment_intent: string }).payment_intent ? 'paid' : 'canceled';
    inv.amount_paid = inv.amount_due;
    inv.amount_remaining = 0;
    (inv.status_transitions as Record<string, unknown>).paid_at = ctx.nowFor(inv.customer);
    await ctx.core.emit('invoice.paid', copy(inv));
    await ctx.core.emit('invoice.payment_succeeded', copy(inv));
    const sub = ctx.subs.get(String((inv.parent as { subscription_details: { subscription: string } }).subscription_details.subscription));
    if (sub && (sub.status === 'past_due' || sub.status === 'incomplete')) {
      sub.status = 'active';
      await ctx.core.emit('customer.subscription.updated', copy(sub));
    }
  }

  /** Charges an open invoice with a card; answers the invoice's status afterwards. */
  async function payInvoice(inv: TObj, paymentMethod: string | null): Promise<string> {
    if (Number(inv.amount_due) <= 0) {
      await invoicePaid(inv);
      return 'paid';
    }
    inv.attempted = true;
    inv.attempt_count = Number(inv.attempt_count) + 1;
    if (!paymentMethod) {
      await ctx.core.emit('invoice.payment_failed', copy(inv));
      return 'failed';
    }
    const pi = await ctx.core.charge({
      amount: Number(inv.amount_due),
      currency: String(inv.currency),
      customer: String(inv.customer),
      paymentMethod,
      description: `Invoice ${String(inv.number)}`,
      metadata: { invoice: inv.id },
      returnUrl: String(inv.hosted_invoice_url),
    });
    pi.invoice = inv.id;
    invoiceIntent.set(inv.id, pi);
    (inv.payments as { data: TObj[] }).data.push({ id: newId('inpay'), object: 'invoice_payment', invoice: inv.id, amount_requested: inv.amount_due, is_default: true, payment: { type: 'payment_intent', payment_intent: pi.id }, status: 'open' });
    if (pi.status === 'succeeded') {
      await invoicePaid(inv);
      return 'paid';
    }
    await ctx.core.emit('invoice.payment_failed', copy(inv));
    if (pi.status === 'requires_action') {
      await ctx.core.emit('invoice.payment_action_required', copy(inv));
      return 'requires_action';
    }
    return 'failed';
  }

  /** Answers GET /v1/invoices, GET /v1/invoices/{id} and POST /v1/invoices/{id}/pay. */
  async function api(method: string, id: string | undefined, action: string | undefined, params: Record<string, unknown>): Promise<[number, unknown]> {
    if (method === 'GET' && !id) {
      const data = [...invoices.values()].filter(
        (i) => (!params.customer || i.customer === params.customer) && (!params.subscription || (i.parent as { subscription_details: { subscription: string } }).subscription_details.subscription === params.subscription),
      );
      return [200, list(data.reverse(), '/v1/invoices')];
    }
    const inv = invoices.get(id ?? '');
    if (!inv) throw missing('invoice', id ?? '');
    if (method === 'POST' && action === 'pay') {
      if (inv.status !== 'open') throw bad('Invoice is already paid.');
      const sub = ctx.subs.get(String((inv.parent as { subscription_details: { subscription: string } }).subscription_details.subscription));
      await payInvoice(inv, typeof params.payment_method === 'string' ? params.payment_method : sub ? ctx.defaultCard(sub) : null);
    }
    return [200, copy(inv)];
  }

  /** The hosted invoice page: pays an open invoice, or sends the customer through the authentication its card asks for. */
  async function page(req: IncomingMessage, res: ServerResponse, id: string, form: Record<string, unknown>, cardButtons: string): Promise<void> {
    const inv = invoices.get(id);
    if (!inv) return html(res, 404, 'Not found', '<p class="err">This invoice does not exist.</p>');
    if (req.method === 'POST' && inv.status === 'open' && typeof form.payment_method === 'string') await payInvoice(inv, form.payment_method);
    const title = `<h2>Invoice ${escapeHtml(inv.number)}: ${escapeHtml(formatAmount(inv))}</h2>`;
    if (inv.status === 'paid') return html(res, 200, 'Invoice paid', `${title}<p role="status">This invoice is paid. Thank you!</p>`);
    const pi = invoiceIntent.get(inv.id);
    if (pi?.status === 'requires_action') {
      const auth = (pi.next_action as { redirect_to_url: { url: string } }).redirect_to_url.url;
      return html(res, 200, 'Confirm your payment', `${title}<p>Your bank asks you to confirm this payment.</p><a class="btn" href="${escapeHtml(auth)}">Authenticate payment</a><p>Or pay with another card:</p><form method="post">${cardButtons}</form>`);
    }
    const error = (pi?.last_payment_error as { message?: string } | null)?.message;
    return html(res, 200, 'Pay invoice', `${title}${error ? `<p class="err" role="alert">${escapeHtml(error)}</p>` : ''}<p>Choose a test card:</p><form method="post">${cardButtons}</form>`);
  }

  /** A payment intent of an invoice succeeded on the authentication page: the invoice is paid. */
  async function intentSucceeded(pi: TObj) {
    const inv = typeof pi.invoice === 'string' ? invoices.get(pi.invoice) : undefined;
    if (inv && inv.status === 'open') await invoicePaid(inv);
  }

  return { invoices, invoiceIntent, newInvoice, payInvoice, api, page, intentSucceeded };
}
