import { and, desc, eq, inArray } from 'drizzle-orm';
import { oneTimeTokens } from '../../platform/auth/tables';
import type { TDb } from '../../platform/db/database';
import { memberships, organisations, users } from '../../platform/tenancy/tables';

export async function insertOrganisation(exec: TDb, values: typeof organisations.$inferInsert) {
  const rows = await exec.insert(organisations).values(values).returning();
  return rows[0]!;
}

export async function insertUser(exec: TDb, values: typeof users.$inferInsert) {
  const rows = await exec.insert(users).values(values).returning();
  return rows[0]!;
}

export async function insertMembership(exec: TDb, values: typeof memberships.$inferInsert) {
  const rows = await exec.insert(memberships).values(values).returning();
  return rows[0]!;
}

export async function selectMembership(exec: TDb, userId: string) {
  const rows = await exec.select().from(memberships).where(eq(memberships.userId, userId)).limit(1);
  return rows[0] ?? null;
}

export async function selectOrgName(exec: TDb, orgId: string) {
  const rows = await exec.select({ name: organisations.name }).from(organisations).where(eq(organisations.id, orgId)).limit(1);
  return rows[0]?.name ?? null;
}

export async function setUserPassword(exec: TDb, userId: string, passwordHash: string, extra: Partial<typeof users.$inferInsert> = {}) {
  await exec.update(users).set({ passwordHash, passwordUpdatedAt: new Date(), ...extra }).where(eq(users.id, userId));
}

export async function markEmailVerified(exec: TDb, userId: string) {
  await exec.update(users).set({ emailVerifiedAt: new Date() }).where(eq(users.id, userId));
}

export async function selectUserEmail(exec: TDb, userId: string) {
  const rows = await exec.select({ email: users.email }).from(users).where(eq(users.id, userId)).limit(1);
  return rows[0]?.email ?? null;
}

/** The user's name, address and whether it is verified. */
export async function selectUserForReminder(exec: TDb, userId: string) {
  const rows = await exec.select({ name: users.name, email: users.email, verifiedAt: users.emailVerifiedAt }).from(users).where(eq(users.id, userId)).limit(1);
  return rows[0] ?? null;
}

/** When the user's newest e-mail verification link was issued, or null. */
export async function selectLastVerificationLinkAt(exec: TDb, userId: string): Promise<Date | null> {
  const rows = await exec
    .select({ at: oneTimeTokens.createdAt })
    .from(oneTimeTokens)
    .where(and(eq(oneTimeTokens.userId, userId), eq(oneTimeTokens.kind, 'email_verification')))
    .orderBy(desc(oneTimeTokens.createdAt))
    .limit(1);
  return rows[0]?.at ?? null;
}

/** Which of these e-mail addresses belong to a user. */
export async function selectExistingUserEmails(exec: TDb, emails: string[]): Promise<Set<string>> {
  const found = await exec.select({ email: users.email }).from(users).where(inArray(users.email, emails));
  return new Set(found.map((r) => r.email));
}
