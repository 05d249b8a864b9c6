import { createHash, randomBytes } from 'node:crypto';

/** SHA-256 of a token, hex: what the database keeps. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** An opaque random token with a readable prefix, and its hash. */
export function generateToken(prefix: string, bytes = 32): { token: string; hash: string } {
  const token = `${prefix}_${randomBytes(bytes).toString('base64url')}`;
  return { token, hash: hashToken(token) };
}
