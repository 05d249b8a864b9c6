import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { TImportSource, TImportState } from '@verilead/contracts';
import { sourceListColumns } from '../../platform/bulk-lists/list-columns';
import { orgIdColumn, userIdColumn } from '../../platform/tenancy/tables';

/** A connected platform account: friendly name unique per organisation and platform; credentials encrypted (AES-256-GCM). */
export const integrationAccounts = pgTable(
  'integration_accounts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: orgIdColumn(),
    userId: userIdColumn(),
    platform: text('platform').notNull(),
    name: text('name').notNull(),
    /** `v1.<iv>.<tag>.<ciphertext>` of the JSON credentials. */
    credentials: text('credentials').notNull(),
    remoteAccount: text('remote_account'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('integration_accounts_org_platform_name_idx').on(t.orgId, t.platform, sql`lower(${t.name})`)],
);

export type TWriteBackChoice = { unsubscribe: boolean; append: boolean };

/** One import of a platform list into a verifier list, then its write-back: the state the chunk jobs read and advance. */
export const integrationImports = pgTable(
  'integration_imports',
  {
    /** id, org, user, state (importing | verifying | writing_back | completed | failed | cancelled), error and times: a source list's row (bulk-list kernel). */
    ...sourceListColumns<TImportState>({ initialState: 'importing' }),
    accountId: uuid('account_id').references(() => integrationAccounts.id, { onDelete: 'set null' }),
    accountName: text('account_name').notNull(),
    platform: text('platform').$type<TImportSource>().notNull(),
    remoteListId: text('remote_list_id').notNull(),
    remoteListName: text('remote_list_name').notNull(),
    remoteTotal: integer('remote_total'),
    /** The platform's opaque cursor of the next page (null before the first page). */
    cursor: text('cursor'),
    /** Pages stored so far: a page job whose number is below it already ran (idempotency). */
    pagesDone: integer('pages_done').notNull().default(0),
    imported: integer('imported').notNull().default(0),
    /** The verifier list the members became (its id is chosen up front). */
    verifyListId: uuid('verify_list_id').notNull(),
    verifyListCreated: integer('verify_list_created').notNull().default(0),
    writeBack: jsonb('write_back').$type<TWriteBackChoice>().notNull(),
    /** Last member sequence number written back. */
    writeCursor: integer('write_cursor').notNull().default(0),
    writtenBack: integer('written_back').notNull().default(0),
  },
  (t) => [index('integration_imports_org_created_idx').on(t.orgId, t.createdAt)],
);

/** The members an import read, numbered in arrival order (seq = the verifier list's row number). */
export const integrationImportMembers = pgTable(
  'integration_import_members',
  {
    importId: uuid('import_id')
      .notNull()
      .references(() => integrationImports.id, { onDelete: 'cascade' }),
    seq: bigint('seq', { mode: 'number' }).notNull(),
    remoteId: text('remote_id').notNull(),
    email: text('email').notNull(),
    firstName: text('first_name').notNull().default(''),
    lastName: text('last_name').notNull().default(''),
  },
  (t) => [primaryKey({ columns: [t.importId, t.seq] }), uniqueIndex('integration_import_members_remote_idx').on(t.importId, t.remoteId)],
);

/** A pending OAuth connection (Mailchimp, Zoho): the `state` sent to the platform, bound to org and user, single use, expiring. */
export const integrationOauthStates = pgTable('integration_oauth_states', {
  id: uuid('id').primaryKey().defaultRandom(),
  orgId: orgIdColumn(),
  userId: userIdColumn(),
  platform: text('platform').notNull(),
  /** The friendly name the account will get. */
  name: text('name').notNull(),
  /** Zoho: the data centre the user picked (com, eu, in, com.au, jp, com.cn). */
  region: text('region'),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** An imported platform list whose new contacts are verified automatically (migration 0081; no row: off). */
export const integrationAutoVerify = pgTable('integration_auto_verify', {
  importId: uuid('import_id')
    .primaryKey()
    .references(() => integrationImports.id, { onDelete: 'cascade' }),
  orgId: orgIdColumn(),
  enabled: boolean('enabled').notNull().default(true),
  /** When the last poll started (the next one is due a poll interval later). */
  polledAt: timestamp('polled_at', { withTimezone: true }),
  /** New contacts found and appended to the verifier list so far. */
  added: integer('added').notNull().default(0),
  lastError: text('last_error'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
