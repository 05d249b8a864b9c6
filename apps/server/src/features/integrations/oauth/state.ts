import { createHmac, timingSafeEqual } from 'node:crypto';
import type { TDb } from '../../../platform/db/database';
import { throwFieldError } from '../../../platform/errors/app-error';
import type { TCallerContext } from '../../../platform/tenancy/context';
import { insertOAuthState, useOAuthState } from './state-queries';

/** How long a consent page may stay open before its `state` expires. */
export const OAUTH_STATE_TTL_MS = 15 * 60_000;

const sign = (appSecret: string, id: string, orgId: string, userId: string, platform: string) =>
  createHmac('sha256', appSecret).update(`integration-oauth-state|${id}|${orgId}|${userId}|${platform}`).digest('base64url');

/** Records a pending connection and answers its `state`: `<id>.<HMAC over id, org, user and platform>`. */
export async function createOAuthState(exec: TDb, appSecret: string, ctx: TCallerContext, platform: string, p: { name: string; region?: string | null }): Promise<string> {
  const id = await insertOAuthState(exec, { orgId: ctx.orgId, userId: ctx.userId, platform, name: p.name, region: p.region ?? null, expiresAt: new Date(Date.now() + OAUTH_STATE_TTL_MS) });
  return `${id}.${sign(appSecret, id, ctx.orgId, ctx.userId, platform)}`;
}

const EXPIRED = 'This connection attempt has expired or was already used; please start again';

/**
 * Takes a `state` back: it must carry this caller's signature (same org, user and platform), be unused and
 * unexpired; it is marked used in the same statement, so a replayed redirect is refused.
 */
export async function consumeOAuthState(exec: TDb, appSecret: string, ctx: TCallerContext, platform: string, state: string): Promise<{ name: string; region: string | null }> {
  const [id, mac] = state.split('.');
  const uuid = /^[0-9a-f-]{36}$/i;
  if (!id || !mac || !uuid.test(id)) throwFieldError('state', EXPIRED);
  const expected = Buffer.from(sign(appSecret, id, ctx.orgId, ctx.userId, platform));
  const given = Buffer.from(mac);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) throwFieldError('state', EXPIRED);
  const used = await useOAuthState(exec, { id, orgId: ctx.orgId, userId: ctx.userId, platform, now: new Date() });
  if (!used) throwFieldError('state', EXPIRED);
  return used;
}
