import { sql } from 'drizzle-orm';
import type { TRole } from '@verilead/contracts';
import { hashPassword } from './platform/auth/passwords';
import { grantCredits } from './platform/credits/ledger';
import { selectRows, type TDatabase } from './platform/db/database';
import { memberships, organisations, users } from './platform/tenancy/tables';
import { orgSsoSettings } from './features/settings/tables';
import { seedVerifiedSsoDomain } from './features/sso/domain-claims';

export const DEMO_PASSWORD = 'Demo-Password-1';
export const DEMO_ORG_NAME = 'Verilead Demo';
export const DEMO_CREDITS = 10_000;
/** The demo organisation's e-mail domain: claimed and verified for single sign-on, so the demo SSO works at once. */
export const DEMO_DOMAIN = 'demo.verilead.test';
export const DEMO_USERS: { email: string; name: string; role: TRole; label: string }[] = [
  { email: 'owner@demo.verilead.test', name: 'Demo Owner', role: 'owner', label: 'Owner' },
  { email: 'manager@demo.verilead.test', name: 'Demo Manager', role: 'admin', label: 'Manager' },
  { email: 'executive@demo.verilead.test', name: 'Demo Executive', role: 'analyst', label: 'Executive' },
];

/** Seeds the demo organisation when the database has no user yet; answers whether it did. */
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
