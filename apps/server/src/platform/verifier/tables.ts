import { integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Mail hosts an operator paused (migration 0073): an "ip:port", an ip or an MX host name. Every process reads them
 * every few seconds (host-sync.ts) and its engine holds new work for those hosts until the row is gone.
 */
export const mailHostPauses = pgTable('mail_host_pauses', {
  host: text('host').primaryKey(),
  note: text('note'),
  pausedBy: text('paused_by'),
  pausedAt: timestamp('paused_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Each process's latest view of its mail hosts (the engine's listHosts, busiest first, bounded), replaced every few seconds. */
export const mailHostSnapshots = pgTable('mail_host_snapshots', {
  processId: text('process_id').primaryKey(),
  role: text('role').notNull(),
  hostname: text('hostname').notNull(),
  pid: integer('pid').notNull(),
  hosts: jsonb('hosts').$type<unknown[]>().notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
