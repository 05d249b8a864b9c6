import { date, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { TAppStatus, TAppType, TFormGuardSettings } from '@verilead/contracts';
import { orgIdColumn, userIdColumn } from '../../platform/tenancy/tables';

/** Developer apps: each has one API token (stored hashed), its limits and, for client apps, allowed origins. */
export const apps = pgTable(
  'apps',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: orgIdColumn(),
    /** The member the app acts as (credits, limits and ownership of lists). */
    userId: userIdColumn(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    type: text('type').$type<TAppType>().notNull(),
    status: text('status').$type<TAppStatus>().notNull().default('new'),
    isDefault: integer('is_default').notNull().default(0),
    tokenHash: text('token_hash').notNull(),
    tokenHint: text('token_hint').notNull(),
    creditLimit: jsonb('credit_limit').$type<{ type: 'daily' | 'life_time'; value: number } | null>(),
    rateLimit: jsonb('rate_limit').$type<{ window: 'minute' | 'hour' | 'day'; max: number; scope: 'ip' | 'global' }>().notNull(),
    allowedOrigins: jsonb('allowed_origins').$type<string[]>().notNull().default([]),
    /** Set on client apps that run the form guard widget (its settings). */
    formGuard: jsonb('form_guard').$type<TFormGuardSettings>(),
    creditsUsedLifeTime: integer('credits_used_life_time').notNull().default(0),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('apps_token_hash_unique').on(t.tokenHash), index('apps_org_idx').on(t.orgId, t.createdAt)],
);

/** Credits an app spent per day (its daily limit). */
export const appDailyUsage = pgTable(
  'app_daily_usage',
  {
    appId: uuid('app_id')
      .notNull()
      .references(() => apps.id, { onDelete: 'cascade' }),
    day: date('day').notNull(),
    credits: integer('credits').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.appId, t.day] })],
);
