import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { TEST_PASSWORD, type TTestApp } from '../../test/test-app';
import type { TFakePayPal, TFakeStripe } from '@verilead/test-doubles/payments';
import { inviteMember } from '../auth/service';
import { payments } from './tables';
import { applyPriceConfig } from './price-config';
import { createBillingTestApp, payOnCheckout } from './test-support';

type TOwner = { token: string; userId: string; orgId: string };

describe('plans: confirmed before charged, current plan, cancel and resume, invoices numbered at payment', () => {
  let t: TTestApp;
  let fake: TFakeStripe;
  let paypal: TFakePayPal;

  const get = (o: { token: string }, url: string) => t.call({ method: 'GET', url: `/api/v1${url}`, token: o.token });
  const balance = async (o: TOwner) => (await get(o, '/user/credits_and_limits')).body.data.org_credits as number;
  const paymentCount = async (o: TOwner) => (await t.db.db.select({ n: sql<number>`count(*)::int` }).from(payments).where(eq(payments.orgId, o.orgId)))[0]!.n;
  const withCard = async (email: string) => {
    const o = await t.createOwner(email);
    const card = await t.call({ method: 'POST', url: '/api/v1/payment/card/add', token: o.token, payload: { payment_method: 'pm_card_visa' } });
    expect(card.status).toBe(200);
    return o;
  };

  beforeAll(async () => {
    ({ t, fake, paypal } = await createBillingTestApp());
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
    await paypal.close();
  });

  it('previews a subscription and an upgrade (proration) without charging, then charges exactly what was previewed', async () => {
    const o = await withCard('preview@plans.test');
    const before = await balance(o);
    const sub = await get(o, '/payment/upgrade/preview?plan_id=starter-monthly-usd');
    expect(sub.status, JSON.stringify(sub.body)).toBe(200);
    expect(sub.body.data).toMatchObject({ change: 'subscribe', amount_due: 48, proration_credit: 0, credits_granted: 10000, currency: 'USD', card: { brand: 'visa', last4: '4242' } });
    expect(sub.body.data.plan).toMatchObject({ id: 'starter-monthly-usd', name: 'Starter', seats: 1 });
    expect(Date.parse(sub.body.data.renews_on)).toBeGreaterThan(Date.now() + 27 * 86_400_000);
    // A preview charges nothing and records no payment.
    expect(await balance(o)).toBe(before);
    expect(await paymentCount(o)).toBe(0);

    // A confirmed amount that is not today's amount charges nothing.
    const stale = await get(o, '/payment/upgrade?plan_id=starter-monthly-usd&expected_amount=40');
    expect(stale.status).toBe(409);
    expect(stale.body.error.message).toBe('The amount to pay changed to USD 48.00: please confirm it again.');
    expect(await paymentCount(o)).toBe(0);

    const paid = await get(o, '/payment/upgrade?plan_id=starter-monthly-usd&expected_amount=48');
    expect(paid.body.data.payment).toMatchObject({ status: 'paid', total: 48 });

    const up = await get(o, '/payment/upgrade/preview?plan_id=growth-monthly-usd');
    expect(up.body.data).toMatchObject({ change: 'upgrade', credits_granted: 50000 });
    expect(up.body.data.proration_credit).toBeGreaterThan(47);
    expect(up.body.data.lines.map((l: { proration: boolean }) => l.proration)).toEqual([true, false]);
    expect(up.body.data.amount_due).toBeCloseTo(240 - up.body.data.proration_credit, 2);
    expect(up.body.data.proration_date).toBeGreaterThan(0);
    // A proration instant from the future, or older than the preview allows, charges nothing.
    for (const at of [up.body.data.proration_date + 60, up.body.data.proration_date - 601]) {
      const old = await get(o, `/payment/upgrade?plan_id=growth-monthly-usd&expected_amount=${up.body.data.amount_due}&proration_date=${at}`);
      expect(old.status).toBe(409);
      expect(old.body.error.message).toBe('This price preview has expired: please look at the amount again and confirm it.');
    }
    const changed = await get(o, `/payment/upgrade?plan_id=growth-monthly-usd&expected_amount=${up.body.data.amount_due}&proration_date=${up.body.data.proration_date}`);
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.data.payment.total).toBe(up.body.data.amount_due);

    // Down again: nothing to pay today, the rest kept as credit for the next invoices.
    const down = await get(o, '/payment/upgrade/preview?plan_id=starter-monthly-usd');
    expect(down.body.data).toMatchObject({ change: 'downgrade', amount_due: 0 });
    expect(down.body.data.credit_carried).toBeGreaterThan(150);
    const same = await get(o, '/payment/upgrade/preview?plan_id=growth-monthly-usd');
    expect(same.status).toBe(409);
  });

  it('offers card entry when no card is saved: the card set-up page comes back to the plan to confirm, card saved', async () => {
    const o = await t.createOwner('nocard@plans.test');
    const preview = await get(o, '/payment/upgrade/preview?plan_id=starter-monthly-usd');
    expect(preview.body.data).toMatchObject({ card: null, amount_due: 48 });
    const bad = await t.call({ method: 'POST', url: '/api/v1/payment/setup_intent/create', token: o.token, payload: { return_to: 'elsewhere' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toBe('Please choose billing, pricing or plan.');
    const setup = await t.call({ method: 'POST', url: '/api/v1/payment/setup_intent/create', token: o.token, payload: { return_to: 'pricing', plan_id: 'starter-monthly-usd' } });
    expect(setup.status, JSON.stringify(setup.body)).toBe(200);
    const back = await payOnCheckout(setup.body.data.checkout_url, 'pm_card_visa');
    const url = new URL(back.location!);
    expect(url.pathname).toBe('/pricing');
    expect(url.searchParams.get('subscribe')).toBe('starter-monthly-usd');
    expect(url.searchParams.get('setup_intent')).toBe(setup.body.data.setup_intent_id);
    const saved = await t.call({ method: 'POST', url: '/api/v1/payment/setup_intent/confirm', token: o.token, payload: { setup_intent_id: url.searchParams.get('setup_intent') } });
    expect(saved.body.data).toMatchObject({ last4: '4242', is_default: true });
    // Nothing was charged on the way: the confirmation now names the card.
    expect(await paymentCount(o)).toBe(0);
    expect((await get(o, '/payment/upgrade/preview?plan_id=starter-monthly-usd')).body.data.card).toEqual({ brand: 'visa', last4: '4242' });
  });

  it('answers the plan subscribed to in current_plan (name, price, seats) and on the plan screen, then cancel and resume', async () => {
    const o = await withCard('current@plans.test');
    const free = await get(o, '/payment/plan');
    expect(free.body.data).toMatchObject({ plan: null, renews_on: null, cancels_on: null });
    await get(o, '/payment/upgrade?plan_id=growth-monthly-usd');
    const current = await get(o, '/user/current_plan');
    expect(current.body.data).toMatchObject({ plan_id: 'growth-monthly-usd', name: 'Growth', price: 240, currency: 'USD', seats: 5, credits: 50000, cancel_at_period_end: false, ends_on: null });
    const plan = await get(o, '/payment/plan');
    expect(plan.body.data).toMatchObject({ plan: { name: 'Growth', seats: 5, price: 240 }, status: 'active', cancel_at_period_end: false, cancels_on: null, payment_method: { kind: 'card', brand: 'visa', last4: '4242' } });
    const renews = plan.body.data.renews_on as string;
    expect(renews).toBe(current.body.data.renews_on);

    const cancel = await get(o, '/payment/subscription/cancel?reason=Too%20expensive');
    expect(cancel.status).toBe(200);
    const cancelled = await get(o, '/user/current_plan');
    expect(cancelled.body.data).toMatchObject({ cancel_at_period_end: true, renews_on: null, ends_on: renews });
    expect((await get(o, '/payment/plan')).body.data).toMatchObject({ cancel_at_period_end: true, renews_on: null, cancels_on: renews });

    const resume = await get(o, '/payment/subscription/resume');
    expect(resume.status, JSON.stringify(resume.body)).toBe(200);
    expect(resume.body.data).toMatchObject({ cancel_at_period_end: false, cancel_reason: null });
    expect((await get(o, '/user/current_plan')).body.data).toMatchObject({ cancel_at_period_end: false, renews_on: renews, ends_on: null });
    const again = await get(o, '/payment/subscription/resume');
    expect(again.status).toBe(409);
  });

  it('lets a manager see the plan screen but not preview or change a plan', async () => {
    const o = await withCard('team@plans.test');
    await get(o, '/payment/upgrade?plan_id=starter-monthly-usd');
    await inviteMember(t.deps, { ...o, role: 'owner', sessionId: null, via: 'session' }, { email: 'manager@plans.test', name: 'Manager', role: 'admin' });
    const setup = await t.mailedToken('manager@plans.test', '/setup_password');
    await t.call({ method: 'POST', url: '/api/v1/user/password/setup', payload: { token: setup, password: TEST_PASSWORD } });
    const manager = { token: (await t.call({ method: 'POST', url: '/api/v1/user/login', payload: { email: 'manager@plans.test', password: TEST_PASSWORD } })).body.data.token as string };
    const seen = await get(manager, '/payment/plan');
    expect(seen.status).toBe(200);
    expect(seen.body.data.plan).toMatchObject({ name: 'Starter' });
    expect((await get(manager, '/payment/upgrade/preview?plan_id=growth-monthly-usd')).status).toBe(403);
    expect((await get(manager, '/payment/subscription/resume')).status).toBe(403);
  });

  it('numbers only payments made, without gaps; abandoned and declined checkouts are no invoices', async () => {
    const o = await t.createOwner('numbers@plans.test');
    const start = async () => (await t.call({ method: 'POST', url: '/api/v1/payment/getPaymentIntent', token: o.token, payload: { credits: 1000, currency: 'USD' } })).body.data;
    const abandoned = await start();
    expect(abandoned.payment.number).toBeNull();
    const declined = await start();
    await payOnCheckout(declined.checkout_url, 'pm_card_chargeDeclined');
    await t.call({ method: 'POST', url: '/api/v1/payment/confirm', token: o.token, payload: { payment_id: declined.payment.id } });
    const first = await start();
    await payOnCheckout(first.checkout_url, 'pm_card_visa');
    await t.call({ method: 'POST', url: '/api/v1/payment/confirm', token: o.token, payload: { payment_id: first.payment.id } });
    const second = await start();
    await payOnCheckout(second.checkout_url, 'pm_card_visa');
    await t.call({ method: 'POST', url: '/api/v1/payment/confirm', token: o.token, payload: { payment_id: second.payment.id } });

    const invoices = (await get(o, '/invoice/list')).body.data;
    expect(invoices.items.map((p: { id: string }) => p.id)).toEqual([second.payment.id, first.payment.id]);
    const [n2, n1] = invoices.items.map((p: { number: string }) => Number(p.number.slice(4)));
    expect(n2).toBe(n1 + 1);
    // The abandoned checkout waits a day as pending (its page is still open), the declined one is gone; after a day neither is listed.
    const pending = (await get(o, '/invoice/pending_list')).body.data;
    expect(pending.items.map((p: { id: string }) => p.id)).toEqual([abandoned.payment.id]);
    await t.db.db.update(payments).set({ createdAt: sql`now() - interval '25 hours'` }).where(eq(payments.id, abandoned.payment.id));
    expect((await get(o, '/invoice/pending_list')).body.data.total).toBe(0);
    expect((await get(o, `/receipt/download?id=${declined.payment.id}`)).status).toBe(404);
    expect((await get(o, `/invoice/download?id=${declined.payment.id}`)).status).toBe(404);
    const numbered = await t.db.db.select({ n: payments.number }).from(payments).where(and(eq(payments.orgId, o.orgId), sql`${payments.number} is not null`));
    expect(numbered).toHaveLength(2);
  });

  it('prints the seller, the buyer’s billing details and the plan with its period on the invoice', async () => {
    await applyPriceConfig(t.db, { seller: { name: 'Verilead Labs SAS', address: '12 rue de la Paix, 75002 Paris, France', tax_id: 'FR12345678901' } });
    const o = await withCard('pdf@plans.test');
    const bad = await t.call({ method: 'POST', url: '/api/v1/payment/billing_details', token: o.token, payload: { name: ' ' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toBe('Please enter the name to bill.');
    const saved = await t.call({ method: 'POST', url: '/api/v1/payment/billing_details', token: o.token, payload: { name: 'Acme Widgets Ltd', address: '1 Main Street, Springfield', tax_id: 'GB999999973' } });
    expect(saved.body.data.details).toEqual({ name: 'Acme Widgets Ltd', address: '1 Main Street, Springfield', tax_id: 'GB999999973' });
    const sub = await get(o, '/payment/upgrade?plan_id=starter-monthly-usd');
    const id = sub.body.data.payment.id as string;
    expect(sub.body.data.payment.plan_name).toBeNull(); // the outcome answer; the list names the plan
    const listed = (await get(o, '/invoice/list')).body.data.items[0];
    expect(listed).toMatchObject({ id, plan_name: 'Starter' });
    // Editing the details later leaves a paid invoice as it was.
    await t.call({ method: 'POST', url: '/api/v1/payment/billing_details', token: o.token, payload: { name: 'Renamed Later Ltd' } });
    const pdf = await t.app.inject({ method: 'GET', url: `/api/v1/invoice/download?id=${id}`, headers: { authorization: `Bearer ${o.token}` } });
    expect(pdf.statusCode).toBe(200);
    const dir = mkdtempSync(join(tmpdir(), 'invoice-'));
    writeFileSync(join(dir, 'invoice.pdf'), pdf.rawPayload);
    const text = execFileSync('pdftotext', ['-layout', join(dir, 'invoice.pdf'), '-'], { encoding: 'utf8' });
    expect(text).toContain('Verilead Labs SAS');
    expect(text).toContain('12 rue de la Paix, 75002 Paris, France');
    expect(text).toContain('Tax id: FR12345678901');
    expect(text).toContain('Billed to: Acme Widgets Ltd');
    expect(text).toContain('1 Main Street, Springfield');
    expect(text).toContain('Tax id: GB999999973');
    expect(text).not.toContain('Renamed Later');
    expect(text).toMatch(/Plan Starter \(monthly\), \d{4}-\d{2}-\d{2} to \d{4}-\d{2}-\d{2}: 10,000 credits/);
    expect(text).toContain(`Invoice ${listed.number}`);
  });
});
