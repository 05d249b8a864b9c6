import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { organisations, users, orgIdColumn, userIdColumn } from '../../platform/tenancy/tables';

/** A seat request's answer (the `seat_requests_status_valid` check). */
export type TSeatRequestStatus = 'requested' | 'granted' | 'declined';

/** Teams inside an organisation; a member belongs to at most one team. */
export const teams = pgTable(
  'teams',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: orgIdColumn(),
    name: text('name').notNull(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('teams_org_name_unique').on(t.orgId, sql`lower(${t.name})`), index('teams_org_idx').on(t.orgId)],
);

export const teamMembers = pgTable(
  'team_members',
  {
    teamId: uuid('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    userId: userIdColumn(),
    orgId: orgIdColumn(),
    addedAt: timestamp('added_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.userId] }), uniqueIndex('team_members_user_unique').on(t.userId), index('team_members_org_idx').on(t.orgId)],
);

/** Requests for more member seats, recorded for the operator and answered by mail. */
export const seatRequests = pgTable(
  'seat_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: orgIdColumn(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    seatCount: integer('seat_count').notNull(),
    reason: text('reason').notNull(),
    status: text('status').$type<TSeatRequestStatus>().notNull().default('requested'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    answeredAt: timestamp('answered_at', { withTimezone: true }),
  },
  (t) => [
    index('seat_requests_org_idx').on(t.orgId, t.createdAt),
    check('seat_requests_count_range', sql`${t.seatCount} between 1 and 50`),
    check('seat_requests_status_valid', sql`${t.status} in ('requested', 'granted', 'declined')`),
  ],
);

/** The organisation's default settings (admin screens); members inherit what they have not changed. */
export const orgDefaultSettings = pgTable('org_default_settings', {
  orgId: uuid('org_id')
    .primaryKey()
    .references(() => organisations.id, { onDelete: 'cascade' }),
  ev: jsonb('ev').$type<Record<string, unknown>>(),
  ef: jsonb('ef').$type<Record<string, unknown>>(),
  prospect: jsonb('prospect').$type<Record<string, unknown>>(),
  updatedBy: uuid('updated_by').references(() => users.id, { onDelete: 'set null' }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
