import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { TTokenKind } from '@verilead/contracts';
import type { TDb } from '../db/database';
import { oneTimeTokens } from './tables';
import { generateToken, hashToken } from './tokens';

export const TOKEN_TTL_MS: Record<TTokenKind, number> = {
  email_verification: 7 * 24 * 3600_000,
  password_reset: 3600_000,
  setup_password: 7 * 24 * 3600_000,
  email_change: 24 * 3600_000,
  password_change: 3600_000,
};

/** Issues a single-use token (older unused tokens of the same kind for the user are voided). */
export async function issueOneTimeToken(exec: TDb, userId: string, kind: TTokenKind, data: Record<string, string> = {}): Promise<string> {
  await exec
    .update(oneTimeTokens)
    .set({ usedAt: new Date() })
    .where(and(eq(oneTimeTokens.userId, userId), eq(oneTimeTokens.kind, kind), isNull(oneTimeTokens.usedAt)));
  const { token, hash } = generateToken('vlt', 24);
  await exec.insert(oneTimeTokens).values({ userId, kind, tokenHash: hash, data, expiresAt: new Date(Date.now() + TOKEN_TTL_MS[kind]) });
  return token;
}

export type TTokenRow = typeof oneTimeTokens.$inferSelect;

/** Reads a token without consuming it. */
export async function findOneTimeToken(exec: TDb, token: string): Promise<TTokenRow | null> {
  const rows = await exec.select().from(oneTimeTokens).where(eq(oneTimeTokens.tokenHash, hashToken(token))).limit(1);
  return rows[0] ?? null;
}

/** Atomically consumes a valid token of one of `kinds`; null when unknown, used, expired or of another kind. */
export async function consumeOneTimeToken(exec: TDb, token: string, kinds: TTokenKind[]): Promise<TTokenRow | null> {
  const rows = await exec
    .update(oneTimeTokens)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(oneTimeTokens.tokenHash, hashToken(token)),
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
