import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { TTokenKind } from '@verilead/contracts';
import type { TDb } from '../db/database';
import { oneTimeTokens } from './tables';

export type TTokenRow = typeof oneTimeTokens.$inferSelect;

/** Marks the user's unused tokens of `kind` used (voided). */
export async function voidUnusedTokens(exec: TDb, userId: string, kind: TTokenKind): Promise<void> {
  await exec
    .update(oneTimeTokens)
    .set({ usedAt: new Date() })
    .where(and(eq(oneTimeTokens.userId, userId), eq(oneTimeTokens.kind, kind), isNull(oneTimeTokens.usedAt)));
}

export async function insertOneTimeToken(exec: TDb, row: typeof oneTimeTokens.$inferInsert): Promise<void> {
  await exec.insert(oneTimeTokens).values(row);
}

export async function selectTokenByHash(exec: TDb, tokenHash: string): Promise<TTokenRow | null> {
  const rows = await exec.select().from(oneTimeTokens).where(eq(oneTimeTokens.tokenHash, tokenHash)).limit(1);
  return rows[0] ?? null;
}

/** One conditional update: marks the token used only if unused, unexpired and of one of `kinds`; the row, or null. */
export async function markTokenUsed(exec: TDb, tokenHash: string, kinds: TTokenKind[]): Promise<TTokenRow | null> {
  const rows = await exec
    .update(oneTimeTokens)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(oneTimeTokens.tokenHash, tokenHash),
        isNull(oneTimeTokens.usedAt),
        gt(oneTimeTokens.expiresAt, new Date()),
        sql`${oneTimeTokens.kind} in (${sql.join(
          kinds.map((k) => sql`${k}`),
          sql`, `,
        )})`,
      ),
    )
    .returning();
  return rows[0] ?? null;
}

export async function deleteUserTokens(exec: TDb, userId: string): Promise<void> {
  await exec.delete(oneTimeTokens).where(eq(oneTimeTokens.userId, userId));
}
