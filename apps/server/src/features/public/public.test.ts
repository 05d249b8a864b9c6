import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZExtensionVersionResponse, ZIpLocationResponse, ZMarketingStatsResponse, ZPriceResponse } from '@verilead/contracts';
import { applyPriceConfig } from '../billing/price-config';
import { chargeCredits, grantCredits, refundCredits } from '../../platform/credits/ledger';
import { createTestApp, type TTestApp } from '../../test/test-app';
import { extensionUninstallFeedback } from './tables';
import { getAcceptLanguageCountry } from './ip-location';
import { resetMarketingStatsCache } from './service';

describe('public calls', () => {
  let t: TTestApp;
  let owner: { token: string; userId: string; orgId: string };
  beforeAll(async () => {
    t = await createTestApp({ extension: { latestVersion: '2.3.0', minVersion: '2.0.0' }, g2ReviewUrl: 'https://g2.example/review' });
    owner = await t.createOwner('owner@public.test');
  });
  afterAll(async () => {
    await t.close();
  });

  it('keeps the extension uninstall survey and explains what is missing', async () => {
    const ok = await t.call({ method: 'POST', url: '/api/v1/public/extension_uninstall', payload: { reasons: ['too_expensive', 'others'], other_reason: 'Switching jobs', extension_version: '2.1.0' } });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    const rows = await t.db.db.select().from(extensionUninstallFeedback);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ reasons: ['too_expensive', 'others'], otherReason: 'Switching jobs', extensionVersion: '2.1.0' });
    const none = await t.call({ method: 'POST', url: '/api/v1/public/extension_uninstall', payload: { reasons: [] } });
    expect(none.status).toBe(400);
    expect(none.body.error.reasons[0]).toMatchObject({ field: 'reasons', messages: ['Please choose at least one reason'] });
    const other = await t.call({ method: 'POST', url: '/api/v1/public/extension_uninstall', payload: { reasons: ['others'] } });
    expect(other.body.error.reasons[0]).toMatchObject({ field: 'other_reason', messages: ['Please tell us the reason'] });
    const unknown = await t.call({ method: 'POST', url: '/api/v1/public/extension_uninstall', payload: { reasons: ['bored'] } });
    expect(unknown.status).toBe(400);
  });

  it('locates the visitor from the request alone', async () => {
    const india = ZIpLocationResponse.parse((await t.call({ method: 'GET', url: '/api/v1/public/ip_location', remoteAddress: '49.205.0.1' })).body).data;
    expect(india).toEqual({ ip: '49.205.0.1', country_code: 'IN', source: 'geoip', currency: 'INR' });
    const us = (await t.call({ method: 'GET', url: '/api/v1/public/ip_location', remoteAddress: '8.8.8.8' })).body.data;
    expect(us).toMatchObject({ country_code: 'US', currency: 'USD' });
    const local = (await t.call({ method: 'GET', url: '/api/v1/public/ip_location', remoteAddress: '127.0.0.1', headers: { 'accept-language': 'en-GB,en;q=0.8', 'cf-ipcountry': 'IN' } })).body.data;
    // A proxy's country header counts only when the proxy is trusted (TRUST_PROXY).
    expect(local).toMatchObject({ country_code: 'GB', source: 'accept_language', currency: 'USD' });
    const nothing = (await t.call({ method: 'GET', url: '/api/v1/public/ip_location', remoteAddress: '10.0.0.1' })).body.data;
    expect(nothing).toMatchObject({ country_code: null, source: 'unknown' });
    expect(getAcceptLanguageCountry('hi-IN')).toBe('IN');
    expect(getAcceptLanguageCountry('fr')).toBeNull();
  });

  it('answers marketing figures from the ledger and the organisations', async () => {
    resetMarketingStatsCache();
    const before = ZMarketingStatsResponse.parse((await t.call({ method: 'GET', url: '/api/v1/public/marketing_stats' })).body).data;
    expect(before.organisations).toBeGreaterThanOrEqual(1);
    expect(before.users).toBeGreaterThanOrEqual(1);
    await t.deps.database.transaction(async (tx) => {
      await grantCredits(tx, { orgId: owner.orgId, userId: owner.userId, amount: 5, reason: 'test' });
      await chargeCredits(tx, { orgId: owner.orgId, userId: owner.userId, amount: 4, reason: 'test', sourceAgent: 'bulk_verify' });
      await refundCredits(tx, { orgId: owner.orgId, userId: owner.userId, amount: 1, reason: 'test', sourceAgent: 'bulk_verify' });
      await chargeCredits(tx, { orgId: owner.orgId, userId: owner.userId, amount: 2, reason: 'test', sourceAgent: 'instant_finder' });
    });
    // Cached for five minutes, then recomputed.
    expect((await t.call({ method: 'GET', url: '/api/v1/public/marketing_stats' })).body.data.emails_verified).toBe(before.emails_verified);
    resetMarketingStatsCache();
    const after = ZMarketingStatsResponse.parse((await t.call({ method: 'GET', url: '/api/v1/public/marketing_stats' })).body).data;
    expect(after.emails_verified).toBe(before.emails_verified + 3);
    expect(after.emails_found).toBe(before.emails_found + 2);
  });

  it('answers the extension version check', async () => {
    const old = ZExtensionVersionResponse.parse((await t.call({ method: 'GET', url: '/api/v1/extension/version?v=1.9.9' })).body).data;
    expect(old).toEqual({ latest_version: '2.3.0', min_supported_version: '2.0.0', update_available: true, update_required: true });
    const cur = (await t.call({ method: 'GET', url: '/api/v1/extension/version?v=2.3' })).body.data;
    expect(cur).toMatchObject({ update_available: false, update_required: false });
    const mid = (await t.call({ method: 'GET', url: '/api/v1/extension/version?v=2.1.0' })).body.data;
    expect(mid).toMatchObject({ update_available: true, update_required: false });
    const bad = await t.call({ method: 'GET', url: '/api/v1/extension/version?v=latest' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.reasons[0].messages[0]).toMatch(/numbers and dots/);
  });

  it('gives the G2 review link to logged-in users only', async () => {
    expect((await t.call({ method: 'GET', url: '/api/v1/g2crowd/url' })).status).toBe(401);
    const res = await t.call({ method: 'GET', url: '/api/v1/g2crowd/url', token: owner.token });
    expect(res.body.data).toEqual({ url: 'https://g2.example/review' });
  });

  it('quotes the credits calculator from the price slabs, without a login, and follows the operator’s price file', async () => {
    const quote = async (credits: number | string, currency: string) => t.call({ method: 'GET', url: `/api/v1/public/price?credits=${credits}&currency=${currency}` });
    // The same figures a logged-in buyer is quoted (GET /price).
    const before = await quote(10_000, 'USD');
    expect(before.status, JSON.stringify(before.body)).toBe(200);
    const billed = await t.call({ method: 'GET', url: '/api/v1/price?credits=10000&currency=USD', token: owner.token });
    expect(ZPriceResponse.parse(before.body).data).toEqual(ZPriceResponse.parse(billed.body).data);

    await applyPriceConfig(t.db, {
      slabs: [
        { currency: 'USD', min_credits: 1_000, max_credits: 49_999, unit_price: 0.01, kind: 'standard', bonus_percent: 0 },
        { currency: 'USD', min_credits: 50_000, max_credits: null, unit_price: 0.004, kind: 'standard', bonus_percent: 0 },
        { currency: 'INR', min_credits: 1_000, max_credits: null, unit_price: 0.5, kind: 'standard', bonus_percent: 0 },
      ],
    });
    const usd = ZPriceResponse.parse((await quote(10_000, 'USD')).body).data;
    expect(usd).toMatchObject({ currency: 'USD', credits: 10_000, unit_price: 0.01, subtotal: 100, tax: 0, total: 100, coupon_code: null });
    expect(usd.total).not.toBe(ZPriceResponse.parse(before.body).data.total);
    expect(ZPriceResponse.parse((await quote(60_000, 'USD')).body).data).toMatchObject({ unit_price: 0.004, total: 240 });
    // INR adds 18% tax, rounded down.
    expect(ZPriceResponse.parse((await quote(1_001, 'INR')).body).data).toMatchObject({ subtotal: 500.5, tax_percent: 18, tax: 90.09, total: 590.59 });

    const few = await quote(10, 'USD');
    expect(few.status).toBe(400);
    expect(few.body.error.reasons[0]).toMatchObject({ field: 'credits', messages: ['You can buy at least 1,000 credits'] });
    expect((await quote(10_000, 'EUR')).status).toBe(400);
    await applyPriceConfig(t.db, { slabs: [{ currency: 'USD', min_credits: 1_000, max_credits: null, unit_price: 0.01, kind: 'standard', bonus_percent: 0 }] });
    const none = await quote(10_000, 'INR');
    expect(none.status).toBe(400);
    expect(none.body.error.message).toBe('No price is set for 10,000 credits in INR.');
  });
});
