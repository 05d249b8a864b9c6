import { index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { TAuditAction } from '@verilead/contracts';

/**
 * The organisation's audit log (migration 0050): who did what, append-only (a trigger refuses UPDATE, and DELETE
 * except the retention purge and an organisation's own deletion). No foreign keys: an entry outlives its actor.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id').notNull(),
    actorUserId: uuid('actor_user_id'),
    actorEmail: text('actor_email'),
    action: text('action').$type<TAuditAction>().notNull(),
    targetType: text('target_type'),
    targetId: text('target_id'),
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    ip: text('ip'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('audit_log_org_created_idx').on(t.orgId, t.createdAt.desc(), t.id), index('audit_log_created_idx').on(t.createdAt)],
);
