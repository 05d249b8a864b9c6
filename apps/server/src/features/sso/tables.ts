import { index, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { organisations, users } from '../../platform/tenancy/tables';

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
    orgId: uuid('org_id')
      .notNull()
      .references(() => organisations.id, { onDelete: 'cascade' }),
    assertionId: text('assertion_id').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.assertionId] })],
);

/** Short-lived single-use login tickets (hashed): SAML hand-over to the app, one-tool links. */
export const loginTickets = pgTable('login_tickets', {
  tokenHash: text('token_hash').primaryKey(),
  kind: text('kind').notNull(),
  userId: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
