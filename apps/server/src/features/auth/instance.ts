import type { TInstanceData, TRole } from '@verilead/contracts';
import type { TDatabase } from '../../platform/db/database';
import { selectExistingUserEmails } from './queries';

/** The quick start's demo accounts (seed.ts creates them; the sign-in pages list the ones that exist). */
export const DEMO_PASSWORD = 'Demo-Password-1';
export const DEMO_USERS: { email: string; name: string; role: TRole; label: string }[] = [
  { email: 'owner@demo.verilead.test', name: 'Demo Owner', role: 'owner', label: 'Owner' },
  { email: 'manager@demo.verilead.test', name: 'Demo Manager', role: 'admin', label: 'Manager' },
  { email: 'executive@demo.verilead.test', name: 'Demo Executive', role: 'analyst', label: 'Executive' },
];

/** What the sign-in pages show: whether this server is the quick start's demo, and its seeded accounts that exist. */
export async function readInstanceInfo(database: TDatabase, config: { demo: boolean }): Promise<TInstanceData> {
  if (!config.demo) return { demo: false, demo_accounts: [], demo_password: null };
  const present = await selectExistingUserEmails(
    database.db,
    DEMO_USERS.map((u) => u.email),
  );
  const accounts = DEMO_USERS.filter((u) => present.has(u.email)).map((u) => ({ role: u.label, email: u.email }));
  return { demo: true, demo_accounts: accounts, demo_password: accounts.length > 0 ? DEMO_PASSWORD : null };
}
