import { and, asc, eq, gt, inArray, isNotNull, isNull, lt, ne, notInArray, sql } from 'drizzle-orm';
import type { TRole } from '@verilead/contracts';
import type { TDb } from '../../platform/db/database';
import { memberships, organisations, users, type TUserSignupSource } from '../../platform/tenancy/tables';
import { loginTickets, orgSsoSettings, ssoAuthRequests, ssoDomains, ssoDomainTokens, ssoSamlAssertions, ssoSamlRequests } from './tables';

export type TOrgSsoRow = typeof orgSsoSettings.$inferSelect;

/** The organisation whose enabled SSO claims this e-mail domain and proved it (a verified claim). */
export async function selectSsoByDomain(exec: TDb, domain: string): Promise<TOrgSsoRow | null> {
  const rows = await exec
    .select({ settings: orgSsoSettings })
    .from(ssoDomains)
    .innerJoin(orgSsoSettings, eq(orgSsoSettings.orgId, ssoDomains.orgId))
    .where(and(eq(ssoDomains.domain, domain), isNotNull(ssoDomains.verifiedAt), sql`${orgSsoSettings.config}->>'enabled' = 'true'`))
    .limit(1);
  return rows[0]?.settings ?? null;
}

// ---------- domain claims ----------

export type TSsoDomainRow = typeof ssoDomains.$inferSelect;

export async function selectDomainClaims(exec: TDb, orgId: string): Promise<TSsoDomainRow[]> {
  return exec.select().from(ssoDomains).where(eq(ssoDomains.orgId, orgId)).orderBy(asc(ssoDomains.domain));
}

export async function selectDomainClaim(exec: TDb, orgId: string, domain: string): Promise<TSsoDomainRow | null> {
  const rows = await exec.select().from(ssoDomains).where(and(eq(ssoDomains.orgId, orgId), eq(ssoDomains.domain, domain))).limit(1);
  return rows[0] ?? null;
}

/** The first of these domains that another organisation has verified. */
export async function selectVerifiedElsewhere(exec: TDb, orgId: string, domains: string[]): Promise<string | null> {
  if (domains.length === 0) return null;
  const rows = await exec
    .select({ domain: ssoDomains.domain })
    .from(ssoDomains)
    .where(and(inArray(ssoDomains.domain, domains), isNotNull(ssoDomains.verifiedAt), ne(ssoDomains.orgId, orgId)))
    .orderBy(asc(ssoDomains.domain))
    .limit(1);
  return rows[0]?.domain ?? null;
}

/** Makes the organisation's claims exactly `domains`: new ones pending, dropped ones gone, the rest kept as they are. */
export async function replaceDomainClaims(exec: TDb, orgId: string, domains: string[]): Promise<void> {
  await exec.delete(ssoDomains).where(and(eq(ssoDomains.orgId, orgId), domains.length > 0 ? notInArray(ssoDomains.domain, domains) : sql`true`));
  if (domains.length > 0) await exec.insert(ssoDomains).values(domains.map((domain) => ({ orgId, domain }))).onConflictDoNothing();
}

/** Records a look-up: verified (`verifiedAt`) or why not (`failure`). A pending claim only; answers the row. */
export async function updateDomainCheck(exec: TDb, orgId: string, domain: string, f: { verifiedAt: Date | null; failure: string | null }) {
  const rows = await exec
    .update(ssoDomains)
    .set({ checkedAt: new Date(), checkFailure: f.failure, ...(f.verifiedAt ? { verifiedAt: f.verifiedAt } : {}) })
    .where(and(eq(ssoDomains.orgId, orgId), eq(ssoDomains.domain, domain), isNull(ssoDomains.verifiedAt)))
    .returning();
  return rows[0] ?? null;
}

/** The organisation's token, created (from `fresh`) on first use. */
export async function ensureDomainToken(exec: TDb, orgId: string, fresh: string): Promise<string> {
  await exec.insert(ssoDomainTokens).values({ orgId, token: fresh }).onConflictDoNothing();
  const rows = await exec.select({ token: ssoDomainTokens.token }).from(ssoDomainTokens).where(eq(ssoDomainTokens.orgId, orgId)).limit(1);
  return rows[0]!.token;
}

export async function selectDomainToken(exec: TDb, orgId: string): Promise<string | null> {
  const rows = await exec.select({ token: ssoDomainTokens.token }).from(ssoDomainTokens).where(eq(ssoDomainTokens.orgId, orgId)).limit(1);
  return rows[0]?.token ?? null;
}

export async function selectSsoByOrg(exec: TDb, orgId: string): Promise<TOrgSsoRow | null> {
  const rows = await exec.select().from(orgSsoSettings).where(eq(orgSsoSettings.orgId, orgId)).limit(1);
  return rows[0] ?? null;
}

export async function insertAuthRequest(exec: TDb, values: typeof ssoAuthRequests.$inferInsert) {
  await exec.insert(ssoAuthRequests).values(values);
}

/** Marks the started sign-in used and answers it; null when unknown, used or expired. */
export async function consumeAuthRequest(exec: TDb, stateHash: string) {
  const rows = await exec
    .update(ssoAuthRequests)
    .set({ usedAt: new Date() })
    .where(and(eq(ssoAuthRequests.stateHash, stateHash), isNull(ssoAuthRequests.usedAt), gt(ssoAuthRequests.expiresAt, new Date())))
    .returning();
  return rows[0] ?? null;
}

export async function deleteExpiredAuthRequests(exec: TDb) {
  await exec.delete(ssoAuthRequests).where(lt(ssoAuthRequests.expiresAt, new Date()));
}

// ---------- SAML request ids and used assertions ----------

export async function insertSamlRequest(exec: TDb, requestId: string, value: string) {
  await exec.insert(ssoSamlRequests).values({ requestId, value }).onConflictDoNothing();
}
export async function selectSamlRequest(exec: TDb, requestId: string, notBefore: Date): Promise<string | null> {
  const rows = await exec
    .select()
    .from(ssoSamlRequests)
    .where(and(eq(ssoSamlRequests.requestId, requestId), gt(ssoSamlRequests.createdAt, notBefore)))
    .limit(1);
  return rows[0]?.value ?? null;
}
export async function deleteSamlRequest(exec: TDb, requestId: string): Promise<string | null> {
  const rows = await exec.delete(ssoSamlRequests).where(eq(ssoSamlRequests.requestId, requestId)).returning();
  return rows[0]?.value ?? null;
}

/** Records an assertion id; false when it was already used (a replay). */
export async function insertSamlAssertion(exec: TDb, orgId: string, assertionId: string, expiresAt: Date): Promise<boolean> {
  const rows = await exec.insert(ssoSamlAssertions).values({ orgId, assertionId, expiresAt }).onConflictDoNothing().returning();
  return rows.length === 1;
}

// ---------- login tickets ----------

export async function insertLoginTicket(exec: TDb, values: typeof loginTickets.$inferInsert) {
  await exec.insert(loginTickets).values(values);
}
export async function selectLoginTicket(exec: TDb, tokenHash: string, kind: string) {
  const rows = await exec
    .select({ ticket: loginTickets, email: users.email })
    .from(loginTickets)
    .innerJoin(users, eq(users.id, loginTickets.userId))
    .where(and(eq(loginTickets.tokenHash, tokenHash), eq(loginTickets.kind, kind), isNull(loginTickets.usedAt), gt(loginTickets.expiresAt, new Date())))
    .limit(1);
  return rows[0] ?? null;
}
export async function consumeLoginTicket(exec: TDb, tokenHash: string, kind: string) {
  const rows = await exec
    .update(loginTickets)
    .set({ usedAt: new Date() })
    .where(and(eq(loginTickets.tokenHash, tokenHash), eq(loginTickets.kind, kind), isNull(loginTickets.usedAt), gt(loginTickets.expiresAt, new Date())))
    .returning();
  return rows[0] ?? null;
}

// ---------- accounts ----------

export async function selectUserMembership(exec: TDb, userId: string) {
  const rows = await exec.select().from(memberships).where(eq(memberships.userId, userId)).limit(1);
  return rows[0] ?? null;
}

/** A user who arrives through SSO: no password; the identity provider vouched for the e-mail. */
export async function insertSsoUser(exec: TDb, f: { email: string; name: string; signupSource: TUserSignupSource }) {
  const rows = await exec
    .insert(users)
    .values({ email: f.email, name: f.name, emailVerifiedAt: new Date(), signupSource: f.signupSource })
    .returning();
  return rows[0]!;
}

export async function insertOrgMembership(exec: TDb, f: { orgId: string; userId: string; role: TRole }) {
  const rows = await exec.insert(memberships).values(f).returning();
  return rows[0]!;
}

export async function insertOrg(exec: TDb, name: string) {
  const rows = await exec.insert(organisations).values({ name }).returning();
  return rows[0]!;
}

export async function markUserEmailVerified(exec: TDb, userId: string) {
  await exec.update(users).set({ emailVerifiedAt: new Date() }).where(and(eq(users.id, userId), isNull(users.emailVerifiedAt)));
}

// ---------- the organisation's SSO settings ----------

export async function selectSso(exec: TDb, orgId: string) {
  const rows = await exec.select().from(orgSsoSettings).where(eq(orgSsoSettings.orgId, orgId)).limit(1);
  return rows[0] ?? null;
}

export async function upsertSso(
  exec: TDb,
  f: { orgId: string; userId: string; config: Record<string, unknown>; clientSecretEnc: string | null | undefined; certificate: string | null | undefined },
) {
  const now = new Date();
  const set: Record<string, unknown> = { config: f.config, updatedBy: f.userId, updatedAt: now };
  if (f.clientSecretEnc !== undefined) set.clientSecretEnc = f.clientSecretEnc;
  if (f.certificate !== undefined) set.certificate = f.certificate;
  await exec
    .insert(orgSsoSettings)
    .values({ orgId: f.orgId, config: f.config, clientSecretEnc: f.clientSecretEnc ?? null, certificate: f.certificate ?? null, updatedBy: f.userId, updatedAt: now })
    .onConflictDoUpdate({ target: orgSsoSettings.orgId, set });
}
