import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TTestApp } from './test/test-app';
import { loadConfig } from './config';
import { DEMO_PASSWORD, DEMO_USERS, describeInstallation, seedDemoIfEmpty } from './seed';

describe('demo seed', () => {
  let t: TTestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('seeds the demo organisation once, printing the credentials', async () => {
    const lines: string[] = [];
    expect(await seedDemoIfEmpty(t.deps.database, (l) => lines.push(l))).toBe(true);
    expect(lines.join('\n')).toContain('owner@demo.verilead.test');
    expect(lines.join('\n')).toContain(DEMO_PASSWORD);
    expect(await seedDemoIfEmpty(t.deps.database, () => undefined)).toBe(false);
    const roles: Record<string, string> = {};
    for (const u of DEMO_USERS) {
      const res = await t.call({ method: 'POST', url: '/api/v1/user/login', payload: { email: u.email, password: DEMO_PASSWORD } });
      expect(res.status, u.email).toBe(200);
      expect(res.body.data.user).toMatchObject({ isEmailVerified: true, credits: 10_000 });
      expect(res.body.data.user.organisation.name).toBe('Verilead Demo');
      roles[u.email] = res.body.data.user.user_role;
    }
    expect(roles).toEqual({ 'owner@demo.verilead.test': 'owner', 'manager@demo.verilead.test': 'admin', 'executive@demo.verilead.test': 'analyst' });
  });

  it("has the demo organisation's own domain verified for single sign-on (off until an identity provider is connected)", async () => {
    const login = await t.call({ method: 'POST', url: '/api/v1/user/login', payload: { email: 'owner@demo.verilead.test', password: DEMO_PASSWORD } });
    const sso = await t.call({ method: 'GET', url: '/api/v1/user_preferences/sso', token: login.body.data.token });
    expect(sso.body.data).toMatchObject({ enabled: false, domains: ['demo.verilead.test'], domain_claims: [{ domain: 'demo.verilead.test', status: 'verified', failure: null }] });
  });
});

describe('what the log says at start', () => {
  const notices = (env: Record<string, string>, hasUsers = true) =>
    describeInstallation(loadConfig(env, { appSecret: 'x' }), { hasUsers }).map((n) => `${n.level}: ${n.message}`);

  it('says the quick start is a demo with test-mode payments', () => {
    const lines = notices({});
    expect(lines[0]).toMatch(/^info: Demo: this is the quick start/);
    expect(lines).toContain('info: Payments in test mode: local fake Stripe and PayPal take every payment for nothing.');
    expect(lines.some((l) => l.startsWith('warn:'))).toBe(false);
  });

  it('warns that a server reachable beyond loopback takes no payments without keys, unless PAYMENTS_TEST_MODE=true (issue 27.16)', () => {
    const lines = notices({ HOST: '0.0.0.0' });
    expect(lines).toContain(
      'warn: Payments are off: HOST=0.0.0.0 is reachable beyond loopback and no Stripe or PayPal keys are set, so the test-mode fakes do not take payments. ' +
        "Set the providers' keys, or PAYMENTS_TEST_MODE=true for a demo.",
    );
    expect(lines).toContain('warn: Demo reachable beyond this machine (HOST=0.0.0.0): anyone who reaches it can log in to the demo organisation with the published password.');
    expect(notices({ HOST: '0.0.0.0', PAYMENTS_TEST_MODE: 'true' }).filter((l) => l.includes('Payments'))).toEqual([
      'info: Payments in test mode: local fake Stripe and PayPal take every payment for nothing.',
    ]);
    expect(notices({ HOST: '0.0.0.0', STRIPE_SECRET_KEY: 'sk_live_x' }).filter((l) => l.includes('Payments'))).toEqual([]);
  });

  it('in production: no demo data, and how to make the first owner while there is no account', () => {
    expect(notices({ NODE_ENV: 'production', PUBLIC_URL: 'https://app.example.test' }, false)).toEqual([
      'info: Production (NODE_ENV=production): no demo data is seeded.',
      'info: No account yet: sign up at https://app.example.test/signup, or run `npm run ops -- create-owner --email you@company.com --org "Your company"` for a one-time setup link.',
    ]);
    expect(notices({ NODE_ENV: 'production' }, true)).toEqual(['info: Production (NODE_ENV=production): no demo data is seeded.']);
  });
});
