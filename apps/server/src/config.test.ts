import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig, REPO_ROOT } from './config';

describe('config', () => {
  it('has safe defaults for the embedded run and keeps a generated secret in DATA_DIR', () => {
    const dir = mkdtempSync(join(tmpdir(), 'vl-config-'));
    try {
      const c = loadConfig({ DATA_DIR: dir });
      expect(c).toMatchObject({
        port: 3000,
        host: 'localhost',
        production: false,
        demo: true,
        databaseUrl: undefined,
        pgliteDir: join(dir, 'pglite'),
        configuredPublicUrl: undefined,
        smtpUrl: undefined,
        minAppVersion: '0.0.0',
        appUpdateCode: 'reload',
        passwordMaxAgeDays: 180,
        demoMailWorld: false,
        demoGreylistDelayMs: 1_000,
        trustProxy: false,
      });
      expect(c.appSecret).toMatch(/^[0-9a-f]{64}$/);
      expect(readFileSync(join(dir, 'app-secret'), 'utf8')).toBe(c.appSecret);
      expect(loadConfig({ DATA_DIR: dir }).appSecret).toBe(c.appSecret);
      expect(loadConfig({}, { appSecret: 'x' }).dataDir).toBe(join(REPO_ROOT, 'data'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("takes the verifier's HELO name and sender from VERIFIER_HELO_NAME / VERIFIER_MAIL_FROM, else the host of PUBLIC_URL", () => {
    expect(loadConfig({ PUBLIC_URL: 'https://app.acme.io/base/' }, { appSecret: 'x' })).toMatchObject({ verifierHeloName: 'app.acme.io', verifierMailFrom: 'verify@app.acme.io' });
    expect(loadConfig({ PUBLIC_URL: 'https://app.acme.io', VERIFIER_HELO_NAME: 'mx-out.acme.io' }, { appSecret: 'x' })).toMatchObject({ verifierHeloName: 'mx-out.acme.io', verifierMailFrom: 'verify@mx-out.acme.io' });
    expect(loadConfig({ VERIFIER_MAIL_FROM: 'bounce@acme.io' }, { appSecret: 'x' })).toMatchObject({ verifierHeloName: 'verilead.localhost', verifierMailFrom: 'bounce@acme.io' });
  });

  it('lets the local payment fakes stand in for missing keys, except with NODE_ENV=production unless PAYMENTS_TEST_MODE=true', () => {
    const testModeWith = (env: Record<string, string>) => loadConfig(env, { appSecret: 'x' }).paymentsTestMode;
    expect(testModeWith({})).toBe(true);
    expect(testModeWith({ NODE_ENV: 'development' })).toBe(true);
    expect(testModeWith({ NODE_ENV: 'production' })).toBe(false);
    expect(testModeWith({ NODE_ENV: 'production', PAYMENTS_TEST_MODE: 'true' })).toBe(true);
    expect(testModeWith({ PAYMENTS_TEST_MODE: 'false' })).toBe(false);
  });

  it('reads the one private-destinations switch, its former name ALLOW_PRIVATE_WEBHOOKS as an alias, and the outbound DNS servers', () => {
    const allowed = (env: Record<string, string>) => loadConfig(env, { appSecret: 'x' }).allowPrivateDestinations;
    expect(allowed({})).toBe(false);
    expect(allowed({ ALLOW_PRIVATE_DESTINATIONS: 'true' })).toBe(true);
    expect(allowed({ ALLOW_PRIVATE_WEBHOOKS: 'true' })).toBe(true);
    expect(allowed({ ALLOW_PRIVATE_DESTINATIONS: 'false', ALLOW_PRIVATE_WEBHOOKS: 'true' })).toBe(false);
    expect(loadConfig({ OUTBOUND_DNS_SERVERS: '127.0.0.1:5353, 10.0.0.2' }, { appSecret: 'x' }).outboundDnsServers).toEqual(['127.0.0.1:5353', '10.0.0.2']);
    expect(loadConfig({}, { appSecret: 'x' }).outboundDnsServers).toEqual([]);
  });

  it('refuses test mode on a server reachable beyond loopback unless PAYMENTS_TEST_MODE=true (issue 27.16)', () => {
    const testModeWith = (env: Record<string, string>) => loadConfig(env, { appSecret: 'x' }).paymentsTestMode;
    for (const host of ['localhost', '127.0.0.1', '127.1.2.3', '::1', '[::1]', '::ffff:127.0.0.1']) expect(testModeWith({ HOST: host }), host).toBe(true);
    for (const host of ['0.0.0.0', '::', '192.168.1.20', '10.0.0.5', 'verilead.example.test', '::ffff:10.0.0.1']) {
      expect(testModeWith({ HOST: host }), host).toBe(false);
      expect(testModeWith({ HOST: host, PAYMENTS_TEST_MODE: 'true' }), host).toBe(true);
    }
    // The quick start listens on loopback, so it keeps its fakes; production listens everywhere and has none.
    expect(loadConfig({}, { appSecret: 'x' })).toMatchObject({ host: 'localhost', paymentsTestMode: true, demo: true });
    expect(loadConfig({ NODE_ENV: 'production' }, { appSecret: 'x' })).toMatchObject({ host: '0.0.0.0', paymentsTestMode: false, demo: false, production: true });
    expect(loadConfig({ NODE_ENV: 'production', HOST: '127.0.0.1' }, { appSecret: 'x' })).toMatchObject({ paymentsTestMode: false, demo: false });
  });

  it('parses values and rejects invalid ones with a readable message', () => {
    const c = loadConfig({
      PORT: '8080',
      APP_SECRET: 's',
      DATABASE_URL: ' ',
      PUBLIC_URL: 'https://app.example.test/',
      DEMO_MAIL_WORLD: 'true',
      DEMO_GREYLIST_DELAY_MS: '20000',
      DNS_SERVERS: '127.0.0.1:5353, 127.0.0.2',
      APP_UPDATE_CODE: 'hard_reload',
    });
    expect(c).toMatchObject({ port: 8080, databaseUrl: undefined, configuredPublicUrl: 'https://app.example.test', demoMailWorld: true, demoGreylistDelayMs: 20_000, dnsServers: ['127.0.0.1:5353', '127.0.0.2'], appUpdateCode: 'hard_reload' });
    expect(() => loadConfig({ APP_SECRET: 's', PORT: 'abc' })).toThrow(/PORT/);
    expect(() => loadConfig({ APP_SECRET: 's', APP_UPDATE_CODE: 'explode' })).toThrow(/APP_UPDATE_CODE/);
    expect(() => loadConfig({ APP_SECRET: 's', MIN_APP_VERSION: 'v1' })).toThrow(/MIN_APP_VERSION/);
    expect(() => loadConfig({ APP_SECRET: 's', DEMO_GREYLIST_DELAY_MS: '5' })).toThrow(/DEMO_GREYLIST_DELAY_MS/);
  });

  it('refuses a production start with an APP_SECRET shorter than 32 characters, with a readable message; the quick start and tests keep theirs', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', APP_SECRET: 'short-secret' })).toThrow(
      /APP_SECRET: with NODE_ENV=production it must be at least 32 characters long \(it has 12\)/,
    );
    expect(() => loadConfig({ NODE_ENV: 'production', APP_SECRET: 'x'.repeat(31) })).toThrow(/APP_SECRET/);
    // The environment wins over an override, so its short secret is refused too.
    expect(() => loadConfig({ NODE_ENV: 'production', APP_SECRET: 'short' }, { appSecret: 'y'.repeat(40) })).toThrow(/APP_SECRET/);
    expect(loadConfig({ NODE_ENV: 'production', APP_SECRET: 'x'.repeat(32) }).appSecret).toHaveLength(32);
    expect(loadConfig({ APP_SECRET: 'short' }).appSecret).toBe('short');
    const dir = mkdtempSync(join(tmpdir(), 'vl-config-'));
    try {
      // No APP_SECRET: the generated one (64 hex characters, kept in DATA_DIR) passes in production too.
      expect(loadConfig({ NODE_ENV: 'production', DATA_DIR: dir }).appSecret).toMatch(/^[0-9a-f]{64}$/);
      writeFileSync(join(dir, 'app-secret'), 'too-short');
      expect(() => loadConfig({ NODE_ENV: 'production', DATA_DIR: dir })).toThrow(/at least 32 characters/);
      expect(loadConfig({ DATA_DIR: dir }).appSecret).toBe('too-short');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
