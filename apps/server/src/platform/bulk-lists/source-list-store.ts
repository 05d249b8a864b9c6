import { and, asc, count, desc, eq, inArray, type SQL } from 'drizzle-orm';
import type { PgColumn, PgSelect, PgTable } from 'drizzle-orm/pg-core';
import type { TDb } from '../db/database';
import { throwNotFound } from '../errors/app-error';
import { getVisibleScope, type TCallerContext, type TVisibleScope } from '../tenancy/context';

/**
 * The state rows of lists whose source is not a file (source-chain.ts): a prospect list's enrichment, a platform list's
 * import. Each row is one run over its source, spreading `sourceListColumns` (list-columns.ts); the product's own
 * counters and cursor sit beside them. The queries every such product runs on its state table, written once: by id,
 * locked, in the caller's visible scope (404 otherwise), inserted, updated, moved between states (one winner), deleted,
 * paged newest first, running.
 */

/** A source list's state table, seen through the columns the kernel reads. */
export type TSourceListTable = PgTable & { id: PgColumn; orgId: PgColumn; userId: PgColumn; state: PgColumn; createdAt: PgColumn; updatedAt: PgColumn };

/** What every source list's state row has. */
export type TSourceListRow<TState extends string = string> = { id: string; orgId: string; userId: string; state: TState; createdAt: Date; updatedAt: Date };

/**
 * `TRow` is the row as the product reads it, `TInsert` its table's `$inferInsert`. `running` are the states of a run
 * still queued or going; `noun` names a row in a 404. `from` is the product's read of its rows when it shows more than
 * the table (a joined name): a select over the table, which the store narrows, orders, pages and locks (`for update`
 * of the state table only).
 */
export function createSourceListStore<TRow extends TSourceListRow, TInsert>(def: {
  table: TSourceListTable;
  noun: string;
  running: readonly TRow['state'][];
  from?: (exec: TDb) => PgSelect;
}) {
  type TState = TRow['state'];
  const { table } = def;
  const read = (exec: TDb): PgSelect => (def.from ? def.from(exec) : exec.select().from(table).$dynamic());
  const scopeWhere = (scope: TVisibleScope): SQL[] =>
    scope.userId ? [eq(table.orgId, scope.orgId), eq(table.userId, scope.userId)] : [eq(table.orgId, scope.orgId)];
  const first = (rows: unknown[]): TRow | null => (rows[0] as TRow | undefined) ?? null;

  const store = {
    running: def.running,

    /** Whether a run in this state is still queued or going. */
    isRunning: (state: string): state is TState => (def.running as readonly string[]).includes(state),

    async insert(exec: TDb, row: TInsert): Promise<TRow> {
      if (!def.from) return first(await exec.insert(table).values(row as never).returning())!;
      const rows = await exec.insert(table).values(row as never).returning({ id: table.id });
      return (await store.selectById(exec, (rows[0] as { id: string }).id))!;
    },

    /** A row by id for the job handlers (the payload carries the id; the row carries org and user). */
    async selectById(exec: TDb, id: string): Promise<TRow | null> {
      return first(await read(exec).where(eq(table.id, id)).limit(1));
    },

    /** The row locked for update inside a transaction (a chunk commits under this lock). */
    async selectForUpdate(exec: TDb, id: string): Promise<TRow | null> {
      return first(await read(exec).where(eq(table.id, id)).for('update', { of: table }).limit(1));
    },

    /** A row in the caller's visible scope (null for another organisation's, or another member's for an Executive). */
    async select(exec: TDb, scope: TVisibleScope, id: string): Promise<TRow | null> {
      return first(await read(exec).where(and(eq(table.id, id), ...scopeWhere(scope))).limit(1));
    },

    /** A row the caller sees (404 otherwise). */
    async require(exec: TDb, ctx: Pick<TCallerContext, 'orgId'> & Partial<Pick<TCallerContext, 'userId' | 'role'>>, id: string): Promise<TRow> {
      const row = await store.select(exec, getVisibleScope(ctx), id);
      if (!row) throwNotFound(def.noun);
      return row;
    },

    /** The state of a row (read between a chunk's rows, to see a cancel). */
    async selectState(exec: TDb, id: string): Promise<TState | undefined> {
      const rows = await exec.select({ state: table.state }).from(table).where(eq(table.id, id));
      return (rows[0] as { state: TState } | undefined)?.state;
    },

    async update(exec: TDb, id: string, values: Partial<TInsert>): Promise<void> {
      await exec
        .update(table)
        .set({ ...values, updatedAt: new Date() } as never)
        .where(eq(table.id, id));
    },

    /** Moves a row (in `scope` when given) from one of `fromStates` to the new values; answers whether it did (a single winner). */
    async transition(exec: TDb, scope: TVisibleScope | null, id: string, fromStates: readonly TState[], values: Partial<TInsert>): Promise<boolean> {
      const rows = await exec
        .update(table)
        .set({ ...values, updatedAt: new Date() } as never)
        .where(and(eq(table.id, id), ...(scope ? scopeWhere(scope) : []), inArray(table.state, [...fromStates])))
        .returning({ id: table.id });
      return rows.length > 0;
    },

    async delete(exec: TDb, scope: TVisibleScope, id: string): Promise<void> {
      await exec.delete(table).where(and(eq(table.id, id), ...scopeWhere(scope)));
    },

    /** One page of the rows in `scope` (only those in `states` when given), newest first (ties by id), with the total. */
    async selectPage(exec: TDb, scope: TVisibleScope, q: { states?: readonly TState[]; offset: number; limit: number }): Promise<{ rows: TRow[]; total: number }> {
      const cond = and(...scopeWhere(scope), q.states ? inArray(table.state, [...q.states]) : undefined);
      const [rows, totals] = await Promise.all([
        read(exec).where(cond).orderBy(desc(table.createdAt), asc(table.id)).limit(q.limit).offset(q.offset),
        exec.select({ n: count() }).from(table).where(cond),
      ]);
      return { rows: rows as TRow[], total: Number((totals[0] as { n: number } | undefined)?.n ?? 0) };
    },

    /** A member's runs still queued or going, most recently moved first. */
    async selectRunning(exec: TDb, who: { orgId: string; userId: string }): Promise<TRow[]> {
      const rows = await read(exec)
        .where(and(eq(table.orgId, who.orgId), eq(table.userId, who.userId), inArray(table.state, [...def.running])))
        .orderBy(desc(table.updatedAt))
        .limit(200);
      return rows as TRow[];
    },
  };
  return store;
}

export type TSourceListStore<TRow extends TSourceListRow, TInsert> = ReturnType<typeof createSourceListStore<TRow, TInsert>>;
