import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TTestApp } from './test/test-app';
import { DEMO_PASSWORD, DEMO_USERS, seedDemoIfEmpty } from './seed';

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
