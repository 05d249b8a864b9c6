import { sql } from 'drizzle-orm';
import { isLoopbackHost, type TConfig } from './config';
import { hashPassword } from './platform/auth/passwords';
import { grantCredits } from './platform/credits/ledger';
import { selectRows, type TDatabase } from './platform/db/database';
import { memberships, organisations, users } from './platform/tenancy/tables';
import { DEMO_PASSWORD, DEMO_USERS } from './features/auth';
import { orgSsoSettings } from './features/sso/tables';
import { seedVerifiedSsoDomain } from './features/sso';
import { getPublicBaseUrl } from './platform/http/public-url';

export const DEMO_ORG_NAME = 'Verilead Demo';
export const DEMO_CREDITS = 10_000;
/** The demo organisation's e-mail domain: claimed and verified for single sign-on, so the demo SSO works at once. */
export const DEMO_DOMAIN = 'demo.verilead.test';
export { DEMO_PASSWORD, DEMO_USERS } from './features/auth';

/** Whether any account exists (a production start with none says how to make the first owner). */
export async function hasAnyUser(database: TDatabase): Promise<boolean> {
  const rows = await selectRows<{ any: boolean }>(database.db, sql`select exists (select 1 from users) as any`);
  return rows[0]?.any === true;
}

/**
 * Seeds the demo organisation when the database has no user yet; answers whether it did. Only the quick start's demo
 * calls it (`config.demo`): a production start seeds nothing.
 */
export async function seedDemoIfEmpty(database: TDatabase, print: (line: string) => void = (l) => console.log(l)): Promise<boolean> {
  const rows = await selectRows<{ n: number }>(database.db, sql`select count(*)::int as n from users`);
  if ((rows[0]?.n ?? 0) > 0) return false;
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  await database.transaction(async (tx) => {
    const [org] = await tx.insert(organisations).values({ name: DEMO_ORG_NAME, websiteUrl: 'https://demo.verilead.test', userCreateLimit: 10 }).returning();
    if (!org) throw new Error('seed: organisation not created');
    const now = new Date();
    for (const u of DEMO_USERS) {
      const [user] = await tx
        .insert(users)
        .values({ email: u.email, name: u.name, passwordHash, passwordUpdatedAt: now, emailVerifiedAt: now, dashboardType: u.role === 'analyst' ? 'individual' : 'team' })
        .returning();
      await tx.insert(memberships).values({ orgId: org.id, userId: user!.id, role: u.role });
    }
    await grantCredits(tx, { orgId: org.id, amount: DEMO_CREDITS, reason: 'Demo credits' });
    // Single sign-on is off, but its domain is proved already (no DNS answers for a .test name): the owner only
    // connects an identity provider (npm start -- --demo-idp) in Account → Authentication.
    const ssoConfig = { enabled: false, enforce: false, provider: null, domains: [DEMO_DOMAIN], default_role: 'analyst' };
    await tx.insert(orgSsoSettings).values({ orgId: org.id, config: ssoConfig, updatedAt: now });
    await seedVerifiedSsoDomain(tx, org.id, DEMO_DOMAIN);
  });
  print('');
  print(`Seeded the demo organisation "${DEMO_ORG_NAME}" with ${DEMO_CREDITS.toLocaleString('en-US')} credits. Log in with:`);
  for (const u of DEMO_USERS) print(`  ${u.label.padEnd(10)} ${u.email.padEnd(30)} password ${DEMO_PASSWORD}`);
  print('');
  return true;
}


export type TStartNotice = { level: 'info' | 'warn'; message: string };

/** What the log says at start about the demo, the first owner and payments (main.ts prints it). */
export function describeInstallation(
  config: Pick<TConfig, 'demo' | 'host' | 'configuredPublicUrl' | 'port' | 'paymentsTestMode' | 'production' | 'stripe' | 'paypal'>,
  state: { hasUsers: boolean },
): TStartNotice[] {
  const notices: TStartNotice[] = [];
  const reachable = !isLoopbackHost(config.host);
  if (config.demo) {
    notices.push({
      level: 'info',
      message:
        'Demo: this is the quick start (NODE_ENV is not production). The demo organisation\'s accounts share a published password ' +
        'and its data is made up; see "Running in production" in the README for a real installation.',
    });
    if (reachable) {
      notices.push({
        level: 'warn',
        message: `Demo reachable beyond this machine (HOST=${config.host}): anyone who reaches it can log in to the demo organisation with the published password.`,
      });
    }
  } else {
    notices.push({ level: 'info', message: 'Production (NODE_ENV=production): no demo data is seeded.' });
    if (!state.hasUsers) {
      notices.push({
        level: 'info',
        message: `No account yet: sign up at ${getPublicBaseUrl(config)}/signup, or run \`npm run ops -- create-owner --email you@company.com --org "Your company"\` for a one-time setup link.`,
      });
    }
  }
  const keys = Boolean(config.stripe.secretKey) || Boolean(config.paypal.clientId && config.paypal.clientSecret);
  if (!keys && !config.paymentsTestMode && !config.production && reachable) {
    notices.push({
      level: 'warn',
      message:
        `Payments are off: HOST=${config.host} is reachable beyond loopback and no Stripe or PayPal keys are set, so the test-mode fakes ` +
        'do not take payments. Set the providers\' keys, or PAYMENTS_TEST_MODE=true for a demo.',
    });
  } else if (!keys && config.paymentsTestMode) {
    notices.push({ level: 'info', message: 'Payments in test mode: local fake Stripe and PayPal take every payment for nothing.' });
  }
  return notices;
}
