import type { TTokenKind } from '@verilead/contracts';
import type { TDb } from '../db/database';
import { insertOneTimeToken, markTokenUsed, selectTokenByHash, voidUnusedTokens, type TTokenRow } from './one-time-token-queries';
import { generateToken, hashToken } from './tokens';

export { deleteUserTokens, type TTokenRow } from './one-time-token-queries';

export const TOKEN_TTL_MS: Record<TTokenKind, number> = {
  email_verification: 7 * 24 * 3600_000,
  password_reset: 3600_000,
  setup_password: 7 * 24 * 3600_000,
  email_change: 24 * 3600_000,
  password_change: 3600_000,
};

/** Voids the user's unused tokens of these kinds (e.g. the links mailed to an address the account no longer has). */
export async function voidOneTimeTokens(exec: TDb, userId: string, kinds: readonly TTokenKind[]): Promise<void> {
  for (const kind of kinds) await voidUnusedTokens(exec, userId, kind);
}

/** Issues a single-use token (older unused tokens of the same kind for the user are voided). */
export async function issueOneTimeToken(exec: TDb, userId: string, kind: TTokenKind, data: Record<string, string> = {}): Promise<string> {
  await voidUnusedTokens(exec, userId, kind);
  const { token, hash } = generateToken('vlt', 24);
  await insertOneTimeToken(exec, { userId, kind, tokenHash: hash, data, expiresAt: new Date(Date.now() + TOKEN_TTL_MS[kind]) });
  return token;
}

/** Reads a token without consuming it. */
export async function findOneTimeToken(exec: TDb, token: string): Promise<TTokenRow | null> {
  return selectTokenByHash(exec, hashToken(token));
}

/** Atomically consumes a valid token of one of `kinds`; null when unknown, used, expired or of another kind. */
export async function consumeOneTimeToken(exec: TDb, token: string, kinds: TTokenKind[]): Promise<TTokenRow | null> {
  return markTokenUsed(exec, hashToken(token), kinds);
}
