import { afterEach, describe, expect, it } from 'vitest';
import { createTestDoubles, type TStandIn } from './stand-ins';

const seed = { apiKey: 'key-1', lists: [{ id: 'l1', name: 'List', members: [{ id: 'm1', email: 'a@example.test', firstName: 'A', lastName: 'B' }] }] };

// The record the composition root hands to the product: each stand-in starts on loopback with what the product asked for.
describe('createTestDoubles', () => {
  const started: TStandIn[] = [];
  afterEach(async () => {
    for (const s of started.splice(0)) await s.close();
  });
  const doubles = createTestDoubles();

  it('starts a fake Stripe that answers its API with a test key', async () => {
    const stripe = await doubles.stripe({ webhookSecret: 'whsec_x', webhookUrl: 'http://127.0.0.1:9/none' });
    started.push(stripe);
    expect(stripe.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const res = await fetch(`${stripe.baseUrl}/v1/customers`, { method: 'POST', headers: { authorization: 'Bearer sk_test_x' }, body: 'email=a%40example.test' });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ object: 'customer', email: 'a@example.test' });
  });

  it('starts a fake PayPal that gives client-credential tokens', async () => {
    const paypal = await doubles.paypal({ webhookId: 'WH-1', webhookUrl: 'http://127.0.0.1:9/none' });
    started.push(paypal);
    const res = await fetch(`${paypal.baseUrl}/v1/oauth2/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from('id:secret').toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ token_type: 'Bearer' });
  });

  it('starts CleverTap with the account and region it is given, refusing another account', async () => {
    const fake = await doubles.platform('clevertap', { seed, accountId: 'ACC-1', region: 'eu1' });
    started.push(fake);
    const ask = (account: string, region: string) =>
      fetch(`${fake.baseUrl}/${region}/1/profile.json?email=a@example.test`, { headers: { 'x-clevertap-account-id': account, 'x-clevertap-passcode': 'key-1' } });
    expect((await ask('ACC-1', 'eu1')).status).toBe(200);
    expect((await ask('ACC-2', 'eu1')).status).toBe(401);
    expect((await ask('ACC-1', 'in1')).status).toBe(401);
  });

  it('starts Mailchimp with the OAuth client it is given', async () => {
    const fake = await doubles.platform('mailchimp', { seed, oauthClient: { clientId: 'mine', clientSecret: 's' } });
    started.push(fake);
    const consent = (clientId: string) => fetch(`${new URL(fake.baseUrl).origin}/oauth2/authorize?response_type=code&client_id=${clientId}&redirect_uri=http://app.test/back`);
    expect((await consent('mine')).status).toBe(200);
    expect((await consent('fake-mailchimp-client')).status).toBe(400);
  });

  it('starts every other platform with a fake, and refuses one without', async () => {
    for (const platform of ['hubspot', 'active_campaign', 'mailerlite', 'moosend', 'kit', 'sendgrid', 'lemlist', 'go_high_level', 'apollo', 'zoho'] as const) {
      const fake = await doubles.platform(platform, { seed });
      started.push(fake);
      expect(fake.baseUrl, platform).toMatch(/^http:\/\/127\.0\.0\.1:\d+/);
    }
    await expect(doubles.platform('skylead', { seed })).rejects.toThrow(/No local fake of skylead/);
  });
});
