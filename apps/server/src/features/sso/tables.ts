import { sql } from 'drizzle-orm';
import { index, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { organisations, orgIdColumn, userIdColumn } from '../../platform/tenancy/tables';

/** One started OpenID Connect sign-in: its state (hashed), nonce and PKCE verifier; single use. */
export const ssoAuthRequests = pgTable(
  'sso_auth_requests',
  {
    stateHash: text('state_hash').primaryKey(),
    /** oidc (an organisation's provider), google or microsoft. */
    provider: text('provider').notNull(),
    orgId: uuid('org_id').references(() => organisations.id, { onDelete: 'cascade' }),
    nonce: text('nonce').notNull(),
    codeVerifier: text('code_verifier').notNull(),
    redirectUri: text('redirect_uri').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('sso_auth_requests_expires_idx').on(t.expiresAt)],
);

/** SAML AuthnRequest ids we sent and still accept an answer to (node-saml's cache, shared by every process). */
export const ssoSamlRequests = pgTable('sso_saml_requests', {
  requestId: text('request_id').primaryKey(),
  value: text('value').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** SAML assertion ids already used: a replayed response is refused. */
export const ssoSamlAssertions = pgTable(
  'sso_saml_assertions',
  {
    orgId: orgIdColumn(),
    assertionId: text('assertion_id').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.assertionId] })],
);

/** Short-lived single-use login tickets (hashed): SAML hand-over to the app, one-tool links. */
export const loginTickets = pgTable('login_tickets', {
  tokenHash: text('token_hash').primaryKey(),
  kind: text('kind').notNull(),
  userId: userIdColumn(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * A domain an organisation claims for single sign-on (one row per domain in its SSO settings). Pending until the
 * owner proves control of it with a DNS TXT record; only a verified claim counts for discovery and just-in-time
 * membership, and a domain is verified for one organisation at most.
 */
export const ssoDomains = pgTable(
  'sso_domains',
  {
    orgId: orgIdColumn(),
    domain: text('domain').notNull(),
    verifiedAt: timestamp('verified_at', { withTimezone: true }),
    /** The last look-up of the TXT record, and why it did not verify the domain. */
    checkedAt: timestamp('checked_at', { withTimezone: true }),
    checkFailure: text('check_failure'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.orgId, t.domain] }),
    uniqueIndex('sso_domains_verified_domain_uq').on(t.domain).where(sql`${t.verifiedAt} is not null`),
  ],
);

/** Each organisation's domain verification token, published as `verilead-domain-verification=<token>`. */
export const ssoDomainTokens = pgTable('sso_domain_tokens', {
  orgId: uuid('org_id')
    .primaryKey()
    .references(() => organisations.id, { onDelete: 'cascade' }),
  token: text('token').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** The organisation's single sign-on configuration; the client secret is kept encrypted. */
export const orgSsoSettings = pgTable('org_sso_settings', {
  orgId: uuid('org_id')
    .primaryKey()
    .references(() => organisations.id, { onDelete: 'cascade' }),
  config: jsonb('config').$type<Record<string, unknown>>().notNull(),
  clientSecretEnc: text('client_secret_enc'),
  certificate: text('certificate'),
  updatedBy: uuid('updated_by'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
