import { and, asc, count, desc, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { TDb } from '../db/database';
import { throwNotFound } from '../errors/app-error';
import type { TBulkListState } from './list-columns';
import { getVisibleScope, type TCallerContext, type TVisibleScope } from '../tenancy/context';

/** A bulk list table: any `pgTable` spreading `bulkListColumns` (list-columns.ts), seen through the columns the kernel reads. */
export type TBulkListTable = PgTable & {
  id: PgColumn;
  orgId: PgColumn;
  userId: PgColumn;
  name: PgColumn;
  fileName: PgColumn;
  state: PgColumn;
  rowCount: PgColumn;
  createdAt: PgColumn;
  updatedAt: PgColumn;
};

/** What every list row has, whatever the product (the shared columns the lifecycle reads). */
export type TBulkListRow<TState extends string = string> = {
  id: string;
  orgId: string;
  userId: string;
  name: string;
  fileName: string;
  storageKey: string;
  state: TState;
  jobId: string | null;
  plannedJobId: string | null;
  createdAt: Date;
  updatedAt: Date;
};

/**
 * Values of the shared columns the kernel writes itself. `in_progress` and `cancelled` are states every product has
 * (TBulkListState); the product's own values come as its table's insert type.
 */
export type TBulkListValues = { state?: TBulkListState; jobId?: string | null; plannedJobId?: string | null; stoppedReason?: string | null };

/** The list pages' query: search in the name and file name, a state, one list, a sort and a page. */
export type TListPageQuery<TState extends string> = {
  search?: string;
  state?: TState;
  listId?: string;
  sortBy: 'created_at' | 'updated_at' | 'name' | 'total';
  sortOrder: 'asc' | 'desc';
  offset: number;
  limit: number;
};

/** Escapes LIKE wildcards so a search matches its text literally. */
export function likePattern(search: string): string {
  return `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The queries every bulk list product runs on its list table, written once: by id, in the caller's visible scope,
 * locked, inserted, updated, moved between states, deleted, paged. `TRow` and `TInsert` are the table's
 * `$inferSelect` and `$inferInsert` (drizzle cannot infer them through a generic table; the product names them once).
 */
export function createListStore<TRow extends TBulkListRow, TInsert>(table: TBulkListTable) {
  type TState = TRow['state'];
  const scopeWhere = (scope: TVisibleScope): SQL[] =>
    scope.userId ? [eq(table.orgId, scope.orgId), eq(table.userId, scope.userId)] : [eq(table.orgId, scope.orgId)];
  const first = (rows: unknown[]): TRow | null => (rows[0] as TRow | undefined) ?? null;
  const sortColumns = { created_at: table.createdAt, updated_at: table.updatedAt, name: table.name, total: table.rowCount } as const;

  const store = {
    scopeWhere,

    async insert(exec: TDb, row: TInsert): Promise<TRow> {
      return first(await exec.insert(table).values(row as never).returning())!;
    },

    /** A list by id for the job handlers (the job payload carries the id; the row carries org and user). */
    async selectById(exec: TDb, listId: string): Promise<TRow | null> {
      return first(await exec.select().from(table).where(eq(table.id, listId)).limit(1));
    },

    /** The list row locked for update inside a transaction. */
    async selectForUpdate(exec: TDb, listId: string): Promise<TRow | null> {
      return first(await exec.select().from(table).where(eq(table.id, listId)).for('update').limit(1));
    },

    /** A list in the caller's visible scope (null for another organisation's, or another member's for an Executive). */
    async select(exec: TDb, scope: TVisibleScope, listId: string): Promise<TRow | null> {
      return first(await exec.select().from(table).where(and(eq(table.id, listId), ...scopeWhere(scope))).limit(1));
    },

    /** A list the caller sees (404 otherwise). */
    async require(exec: TDb, ctx: Pick<TCallerContext, 'orgId'> & Partial<Pick<TCallerContext, 'userId' | 'role'>>, listId: string): Promise<TRow> {
      const row = await store.select(exec, getVisibleScope(ctx), listId);
      if (!row) throwNotFound('List');
      return row;
    },

    async update(exec: TDb, listId: string, values: Partial<TInsert> | TBulkListValues): Promise<void> {
      await exec
        .update(table)
        .set({ ...values, updatedAt: new Date() } as never)
        .where(eq(table.id, listId));
    },

    /** Moves a list in `scope` from one of `fromStates` to the new values; answers whether it did (a single winner). */
    async transition(exec: TDb, scope: TVisibleScope, listId: string, fromStates: readonly TState[], values: Partial<TInsert>): Promise<boolean> {
      const rows = await exec
        .update(table)
        .set({ ...values, updatedAt: new Date() } as never)
        .where(and(eq(table.id, listId), ...scopeWhere(scope), inArray(table.state, [...fromStates])))
        .returning({ id: table.id });
      return rows.length > 0;
    },

    async delete(exec: TDb, scope: TVisibleScope, listId: string): Promise<void> {
      await exec.delete(table).where(and(eq(table.id, listId), ...scopeWhere(scope)));
    },

    /** One page of the lists in `scope`, searched, filtered and sorted (ties broken by id), with the total. */
    async selectPage(exec: TDb, scope: TVisibleScope, q: TListPageQuery<TState>): Promise<{ rows: TRow[]; total: number }> {
      const where: SQL[] = scopeWhere(scope);
      if (q.listId) where.push(eq(table.id, q.listId));
      if (q.state) where.push(eq(table.state, q.state));
      if (q.search) where.push(or(ilike(table.name, likePattern(q.search)), ilike(table.fileName, likePattern(q.search)))!);
      const cond = and(...where);
      const column = sortColumns[q.sortBy];
      const [rows, totals] = await Promise.all([
        exec
          .select()
          .from(table)
          .where(cond)
          .orderBy(q.sortOrder === 'asc' ? asc(column) : desc(column), desc(table.id))
          .limit(q.limit)
          .offset(q.offset),
        exec.select({ n: count() }).from(table).where(cond),
      ]);
      return { rows: rows as TRow[], total: Number(totals[0]?.n ?? 0) };
    },

    /** The newest lists in `scope` uploaded from a file of this name (`anyCase`: whatever its letters' case). */
    async selectByFileName(exec: TDb, scope: TVisibleScope, q: { fileName: string; anyCase: boolean; limit: number }): Promise<TRow[]> {
      const sameName = q.anyCase ? sql`lower(${table.fileName}) = lower(${q.fileName})` : eq(table.fileName, q.fileName);
      const rows = await exec
        .select()
        .from(table)
        .where(and(...scopeWhere(scope), sameName))
        .orderBy(desc(table.createdAt))
        .limit(q.limit);
      return rows as TRow[];
    },

    /** A member's lists whose job is queued or running (`running` says which), most recently moved first. */
    async selectRunning(exec: TDb, who: { orgId: string; userId: string }, running: SQL | undefined): Promise<TRow[]> {
      const rows = await exec
        .select()
        .from(table)
        .where(and(eq(table.orgId, who.orgId), eq(table.userId, who.userId), running))
        .orderBy(desc(table.updatedAt))
        .limit(200);
      return rows as TRow[];
    },
  };
  return store;
}

export type TListStore<TRow extends TBulkListRow, TInsert> = ReturnType<typeof createListStore<TRow, TInsert>>;
