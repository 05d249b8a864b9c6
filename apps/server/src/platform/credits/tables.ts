import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { TCreditTransactionKind, TSourceAgent } from '@verilead/contracts';
import { users, orgIdColumn } from '../tenancy/tables';

/** The credits ledger: one row per grant, purchase, charge or refund, with the balance after it. */
export const creditTransactions = pgTable(
  'credit_transactions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: orgIdColumn(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    kind: text('kind').$type<TCreditTransactionKind>().notNull(),
    amount: integer('amount').notNull(),
    reason: text('reason').notNull(),
    sourceAgent: text('source_agent').$type<TSourceAgent>(),
    objectType: text('object_type'),
    objectId: text('object_id'),
    balanceAfter: integer('balance_after').notNull(),
    /** The order rows were written in (an organisation's rows take it under its balance row's lock). */
    seq: bigint('seq', { mode: 'number' }).generatedByDefaultAsIdentity(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('credit_transactions_org_created_idx').on(t.orgId, t.createdAt),
    index('credit_transactions_org_seq_idx').on(t.orgId, t.seq),
    check('credit_transactions_kind_valid', sql`${t.kind} in ('grant', 'purchase', 'charge', 'refund')`),
    check('credit_transactions_amount_positive', sql`${t.amount} > 0`),
    check('credit_transactions_balance_nonnegative', sql`${t.balanceAfter} >= 0`),
  ],
);
