import { createFakeInvoices, item, type TFakeCore, type TSub } from './invoices';
import { addInterval, bad, copy, list, missing, newId, StripeFail, type TObj } from './wire';

export type { TFakeCore } from './invoices';

/**
 * The fake Stripe's Billing subset: Products, Prices (`lookup_key`, `recurring`), Subscriptions (create with
 * `payment_behavior`, update with `proration_behavior` and `billing_cycle_anchor=now`, `cancel_at_period_end`,
 * delete), Invoices (retrieve, list, pay, create_preview, a hosted invoice page; a negative total goes to the customer's credit
 * balance, which later invoices use up) and test clocks (`/v1/test_helpers/test_clocks`:
 * create, list, retrieve, advance, delete). Advancing a clock renews the subscriptions of its customers as Stripe
 * does: one invoice per period, charged to the default payment method; a card that asks for authentication
 * leaves the invoice open with `invoice.payment_action_required`, paid later on the hosted invoice page.
 */
export function createFakeBilling(core: TFakeCore) {
  const products = new Map<string, TObj>();
  const prices = new Map<string, TObj>();
  const subs = new Map<string, TSub>();
  const clocks = new Map<string, TObj>();

  function nowFor(customerId: unknown): number {
    const customer = core.customers.get(String(customerId));
    const clock = customer?.test_clock ? clocks.get(String(customer.test_clock)) : undefined;
    return clock ? Number(clock.frozen_time) : Math.floor(Date.now() / 1000);
  }

  function priceOf(id: unknown): TObj {
    const price = prices.get(String(id));
    if (!price) throw missing('price', String(id), 'items[0][price]');
    return price;
  }

  function defaultCard(sub: TSub): string | null {
    if (typeof sub.default_payment_method === 'string' && sub.default_payment_method) return sub.default_payment_method;
    const settings = core.customers.get(String(sub.customer))?.invoice_settings as { default_payment_method?: string | null } | undefined;
    return settings?.default_payment_method ?? null;
  }

  const invoicing = createFakeInvoices({ core, subs, nowFor, defaultCard });
  const { invoices, invoiceIntent, newInvoice, payInvoice } = invoicing;

  function expandSub(sub: TSub, params: Record<string, unknown>): TObj {
    const out = copy(sub) as TObj;
    const expand = ([] as unknown[]).concat(params.expand ?? []).map(String);
    if (expand.some((e) => e.startsWith('latest_invoice')) && typeof sub.latest_invoice === 'string') out.latest_invoice = copy(invoices.get(sub.latest_invoice));
    return out;
  }

  function subOr404(id: string): TSub {
    const sub = subs.get(id);
    if (!sub) throw missing('subscription', id);
    return sub;
  }

  async function createSubscription(params: Record<string, unknown>): Promise<TObj> {
    const customer = core.customers.get(String(params.customer ?? ''));
    if (!customer) throw missing('customer', String(params.customer ?? ''), 'customer');
    const items = (params.items as Record<string, unknown>[] | undefined) ?? [];
    if (items.length !== 1) throw bad('Give exactly one subscription item.', 'items');
    const price = priceOf(items[0]!.price);
    const recurring = price.recurring as { interval: string; interval_count: number } | null;
    if (!recurring) throw bad('The price specified is set to `type=one_time` but this field only accepts prices with `type=recurring`.', 'items[0][price]');
    const start = nowFor(customer.id);
    const end = addInterval(start, recurring.interval, recurring.interval_count);
    const sub: TSub = {
      id: newId('sub'),
      object: 'subscription',
      customer: customer.id,
      status: 'incomplete',
      items: { object: 'list', data: [{ id: newId('si'), object: 'subscription_item', price: copy(price), quantity: 1, current_period_start: start, current_period_end: end }] },
      billing_cycle_anchor: start,
      cancel_at_period_end: false,
      canceled_at: null,
      ended_at: null,
      cancellation_details: { comment: null, feedback: null, reason: null },
      default_payment_method: params.default_payment_method ?? null,
      latest_invoice: null,
      metadata: params.metadata ?? {},
      start_date: start,
      test_clock: customer.test_clock ?? null,
      created: start,
      livemode: false,
    };
    if (!defaultCard(sub)) throw bad('This customer has no attached payment source or default payment method.');
    subs.set(sub.id, sub);
    const inv = newInvoice(sub, 'subscription_create', [{ amount: Number(price.unit_amount), description: `1 × ${String(products.get(String(price.product))?.name ?? 'plan')}` }], { start, end });
    sub.latest_invoice = inv.id;
    const outcome = await payInvoice(inv, defaultCard(sub));
    if (outcome === 'paid') sub.status = 'active';
    else if (params.payment_behavior === 'error_if_incomplete') {
      subs.delete(sub.id);
      inv.status = 'void';
      const pi = invoiceIntent.get(inv.id);
      const err = (pi?.last_payment_error as Record<string, unknown> | null) ?? { type: 'card_error', code: 'card_declined', message: 'Your card was declined.' };
      throw new StripeFail(402, { ...err, type: 'card_error' });
    }
    await core.emit('customer.subscription.created', copy(sub));
    return expandSub(sub, params);
  }

  async function updateSubscription(sub: TSub, params: Record<string, unknown>): Promise<TObj> {
    if (sub.status === 'canceled') throw bad('A canceled subscription can only update its cancellation_details and metadata.');
    if (params.metadata) sub.metadata = { ...(sub.metadata as object), ...(params.metadata as object) };
    if (params.default_payment_method) sub.default_payment_method = params.default_payment_method;
    if (params.cancel_at_period_end !== undefined) sub.cancel_at_period_end = params.cancel_at_period_end === 'true';
    if (params.cancellation_details) sub.cancellation_details = { ...(sub.cancellation_details as object), ...(params.cancellation_details as object) };
    const items = params.items as Record<string, unknown>[] | undefined;
    if (items?.[0]?.price) {
      const current = item(sub);
      if (items[0].id && items[0].id !== current.id) throw missing('subscription item', String(items[0].id), 'items[0][id]');
      const oldPrice = current.price as TObj;
      const price = priceOf(items[0].price);
      const recurring = price.recurring as { interval: string; interval_count: number };
      const now = nowFor(sub.customer);
      const start = Number(current.current_period_start);
      const end = Number(current.current_period_end);
      // The unused part of the current period, credited as Stripe prorates: by the second.
      // `proration_date`: the instant the unused time is counted from (the one a preview showed), as on Stripe.
      const at = params.proration_date !== undefined ? Number(params.proration_date) : now;
      const unused = end > at && end > start ? Math.round((Number(oldPrice.unit_amount) * (end - at)) / (end - start)) : 0;
      current.price = copy(price);
      const anchor = params.billing_cycle_anchor as string | { type?: string } | undefined;
      // `billing_cycle_anchor=now` (older API versions) or `billing_cycle_anchor[type]=now` (2026 versions).
      const anchorNow = anchor === 'now' || (typeof anchor === 'object' && anchor.type === 'now') || recurring.interval !== (oldPrice.recurring as { interval: string }).interval;
      if (anchorNow) {
        current.current_period_start = now;
        current.current_period_end = addInterval(now, recurring.interval, recurring.interval_count);
        sub.billing_cycle_anchor = now;
      }
      if (params.proration_behavior !== 'none' && anchorNow) {
        const lines = [
          { amount: -unused, description: `Unused time on ${String(products.get(String(oldPrice.product))?.name ?? 'plan')}` },
          { amount: Number(price.unit_amount), description: `1 × ${String(products.get(String(price.product))?.name ?? 'plan')}` },
        ].filter((l) => l.amount !== 0);
        const inv = newInvoice(sub, 'subscription_update', lines, { start: now, end: Number(current.current_period_end) });
        sub.latest_invoice = inv.id;
        const outcome = await payInvoice(inv, defaultCard(sub));
        if (outcome !== 'paid') sub.status = 'past_due';
      }
    }
    await core.emit('customer.subscription.updated', copy(sub));
    return expandSub(sub, params);
  }

  /**
   * POST /v1/invoices/create_preview: the invoice a subscription (`customer` + `subscription_details[items]`) or a
   * change of one (`subscription` + `subscription_details[items][0][id|price]`, `proration_behavior`,
   * `billing_cycle_anchor=now`, `proration_date`) would make now, computed as the change itself does, nothing stored
   * or charged. The customer's credit balance is applied as on the real invoice.
   */
  function preview(params: Record<string, unknown>): TObj {
    const details = (params.subscription_details as Record<string, unknown> | undefined) ?? {};
    const items = (details.items as Record<string, unknown>[] | undefined) ?? [];
    if (!items[0]?.price) throw bad('Give subscription_details[items][0][price].', 'subscription_details[items]');
    const price = priceOf(items[0].price);
    const recurring = price.recurring as { interval: string; interval_count: number } | null;
    if (!recurring) throw bad('The price specified is set to `type=one_time` but this field only accepts prices with `type=recurring`.', 'subscription_details[items][0][price]');
    const sub = params.subscription ? subOr404(String(params.subscription)) : null;
    const customerId = String(sub?.customer ?? params.customer ?? '');
    const customer = core.customers.get(customerId);
    if (!customer) throw missing('customer', customerId, 'customer');
    const now = details.proration_date !== undefined ? Number(details.proration_date) : nowFor(customerId);
    const name = (p: TObj) => String(products.get(String(p.product))?.name ?? 'plan');
    const lines: { amount: number; description: string; proration: boolean }[] = [];
    if (sub) {
      const current = item(sub);
      const oldPrice = current.price as TObj;
      const start = Number(current.current_period_start);
      const end = Number(current.current_period_end);
      const unused = end > now && end > start ? Math.round((Number(oldPrice.unit_amount) * (end - now)) / (end - start)) : 0;
      if (details.proration_behavior !== 'none' && unused > 0) lines.push({ amount: -unused, description: `Unused time on ${name(oldPrice)}`, proration: true });
    }
    lines.push({ amount: Number(price.unit_amount), description: `1 × ${name(price)}`, proration: false });
    const total = lines.reduce((a, l) => a + l.amount, 0);
    const startingBalance = Number(customer.balance ?? 0);
    const applied = total + startingBalance;
    const periodEnd = addInterval(now, recurring.interval, recurring.interval_count);
    const period = { start: now, end: periodEnd };
    return {
      id: `upcoming_${newId('in')}`,
      object: 'invoice',
      customer: customerId,
      currency: price.currency,
      status: 'draft',
      subtotal: total,
      total,
      starting_balance: startingBalance,
      ending_balance: Math.min(0, applied),
      amount_due: Math.max(0, applied),
      period_start: now,
      period_end: periodEnd,
      lines: { object: 'list', has_more: false, data: lines.map((l) => ({ id: newId('il'), object: 'line_item', amount: l.amount, currency: price.currency, description: l.description, period, parent: { type: 'subscription_item_details', subscription_item_details: { proration: l.proration } } })) },
      created: now,
      livemode: false,
      metadata: {},
    };
  }

  async function cancelNow(sub: TSub, at: number) {
    sub.status = 'canceled';
    sub.canceled_at = sub.canceled_at ?? at;
    sub.ended_at = at;
    await core.emit('customer.subscription.deleted', copy(sub));
  }

  /** Time moves to `to` for the clock's customers: each subscription renews (or ends) at each period end it passes. */
  async function advance(clock: TObj, to: number) {
    clock.status = 'advancing';
    for (const sub of subs.values()) {
      if (sub.test_clock !== clock.id) continue;
      for (let guard = 0; guard < 36 && sub.status !== 'canceled' && sub.status !== 'incomplete'; guard += 1) {
        const current = item(sub);
        const end = Number(current.current_period_end);
        if (end > to) break;
        clock.frozen_time = end;
        if (sub.cancel_at_period_end) {
          await cancelNow(sub, end);
          break;
        }
        const price = current.price as TObj;
        const recurring = price.recurring as { interval: string; interval_count: number };
        current.current_period_start = end;
        current.current_period_end = addInterval(end, recurring.interval, recurring.interval_count);
        const inv = newInvoice(sub, 'subscription_cycle', [{ amount: Number(price.unit_amount), description: `1 × ${String(products.get(String(price.product))?.name ?? 'plan')}` }], {
          start: end,
          end: Number(current.current_period_end),
        });
        sub.latest_invoice = inv.id;
        const outcome = await payInvoice(inv, defaultCard(sub));
        if (outcome !== 'paid') sub.status = 'past_due';
        await core.emit('customer.subscription.updated', copy(sub));
      }
    }
    clock.frozen_time = to;
    clock.status = 'ready';
  }

  /** Answers a /v1 call of the Billing subset, or null when the path is not one of its resources. */
  async function api(method: string, parts: string[], params: Record<string, unknown>): Promise<[number, unknown] | null> {
    const [, resource, id, action] = parts;
    if (resource === 'products') {
      if (method === 'POST' && !id) {
        const pid = typeof params.id === 'string' && params.id ? params.id : newId('prod');
        if (products.has(pid)) throw new StripeFail(400, { type: 'invalid_request_error', code: 'resource_already_exists', message: `Product already exists.` });
        const p: TObj = { id: pid, object: 'product', name: params.name ?? '', active: true, metadata: params.metadata ?? {}, created: Math.floor(Date.now() / 1000), livemode: false };
        products.set(pid, p);
        return [200, p];
      }
      const p = products.get(id ?? '');
      if (!p) throw missing('product', id ?? '');
      return [200, p];
    }
    if (resource === 'prices') {
      if (method === 'POST' && !id) {
        if (!products.has(String(params.product ?? ''))) throw missing('product', String(params.product ?? ''), 'product');
        const amount = Number(params.unit_amount);
        if (!Number.isInteger(amount) || amount < 0) throw bad('Invalid integer: unit_amount', 'unit_amount');
        const recurring = params.recurring as { interval?: string; interval_count?: string } | undefined;
        const lookupKey = typeof params.lookup_key === 'string' ? params.lookup_key : null;
        if (lookupKey && [...prices.values()].some((p) => p.lookup_key === lookupKey)) {
          throw bad(`A price (\`${[...prices.values()].find((p) => p.lookup_key === lookupKey)!.id}\`) already uses that lookup key.`, 'lookup_key');
        }
        const p: TObj = {
          id: newId('price'),
          object: 'price',
          product: params.product,
          currency: String(params.currency ?? 'usd').toLowerCase(),
          unit_amount: amount,
          type: recurring ? 'recurring' : 'one_time',
          recurring: recurring ? { interval: recurring.interval ?? 'month', interval_count: Number(recurring.interval_count ?? 1), usage_type: 'licensed' } : null,
          lookup_key: lookupKey,
          active: true,
          metadata: params.metadata ?? {},
          created: Math.floor(Date.now() / 1000),
          livemode: false,
        };
        prices.set(p.id, p);
        return [200, p];
      }
      if (method === 'GET' && !id) {
        const keys = ([] as unknown[]).concat((params.lookup_keys as unknown) ?? []).map(String);
        return [200, list([...prices.values()].filter((p) => keys.length === 0 || keys.includes(String(p.lookup_key))), '/v1/prices')];
      }
      return [200, priceOf(id)];
    }
    if (resource === 'subscriptions') {
      if (method === 'POST' && !id) return [200, await createSubscription(params)];
      if (method === 'GET' && !id) return [200, list([...subs.values()].filter((s) => !params.customer || s.customer === params.customer), '/v1/subscriptions')];
      const sub = subOr404(id ?? '');
      if (method === 'GET') return [200, expandSub(sub, params)];
      if (method === 'DELETE') {
        if (sub.status !== 'canceled') await cancelNow(sub, nowFor(sub.customer));
        return [200, copy(sub)];
      }
      return [200, await updateSubscription(sub, params)];
    }
    if (resource === 'invoices') {
      if (method === 'POST' && id === 'create_preview') return [200, preview(params)];
      return invoicing.api(method, id, action, params);
    }
    if (resource === 'test_helpers' && id === 'test_clocks') {
      const clockId = action;
      if (method === 'POST' && !clockId) {
        const frozen = Number(params.frozen_time);
        if (!Number.isInteger(frozen)) throw bad('Missing required param: frozen_time.', 'frozen_time');
        const clock: TObj = { id: newId('clock'), object: 'test_helpers.test_clock', frozen_time: frozen, name: params.name ?? null, status: 'ready', created: Math.floor(Date.now() / 1000), deletes_after: frozen + 30 * 86_400, livemode: false };
        clocks.set(clock.id, clock);
        return [200, clock];
      }
      if (method === 'GET' && !clockId) return [200, list([...clocks.values()], '/v1/test_helpers/test_clocks')];
      const clock = clocks.get(clockId ?? '');
      if (!clock) throw missing('test clock', clockId ?? '');
      if (method === 'DELETE') {
        clocks.delete(clock.id);
        return [200, { id: clock.id, object: 'test_helpers.test_clock', deleted: true }];
      }
      if (method === 'POST' && parts[4] === 'advance') {
        const to = Number(params.frozen_time);
        if (!Number.isInteger(to) || to <= Number(clock.frozen_time)) throw bad('The frozen_time must be after the current frozen time of the test clock.', 'frozen_time');
        await advance(clock, to);
      }
      return [200, copy(clock)];
    }
    return null;
  }

  return { api, page: invoicing.page, intentSucceeded: invoicing.intentSucceeded };
}
