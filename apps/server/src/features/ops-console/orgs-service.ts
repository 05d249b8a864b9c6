import type { TOpsOrgDetail, TOpsOrgSummary } from '@verilead/contracts';
import type { TDatabase, TDb } from '../../platform/db/database';
import { invalidateCallers } from '../../platform/cache/ttl-cache';
import { AppError } from '../../platform/errors/app-error';
import { resumePausedJobs } from '../../platform/jobs/org-jobs';
import type { TOperatorCaller } from './guard';
import {
  revokeAllUserSessions,
  searchOrganisations,
  selectActivityCounts,
  selectMember,
  selectMembers,
  selectOrganisation,
  selectRecentAdjustments,
  selectUserOrgIds,
  setOrganisationSuspended,
  setUserSuspended,
} from './org-queries';
import { recordOperatorAction } from './record-action';

type TDeps = { database: TDatabase };

function iso(value: Date | string | null): string | null {
  return value === null ? null : new Date(value).toISOString();
}

function toSummary(row: NonNullable<Awaited<ReturnType<typeof selectOrganisation>>>): TOpsOrgSummary {
  return {
    id: row.id,
    name: row.name,
    owner_email: row.owner_email,
    members: row.members,
    credits_balance: row.credits_balance,
    plan_interval: row.plan_interval,
    suspended: row.suspended_at !== null,
    created_at: iso(row.created_at)!,
  };
}

export async function searchOrgs(deps: TDeps, query: { q?: string; page: number; limit: number }) {
  const { items, total } = await searchOrganisations(deps.database.db, { q: query.q || undefined, limit: query.limit, offset: (query.page - 1) * query.limit });
  return { items: items.map(toSummary), total, page: query.page, limit: query.limit };
}

async function requireOrg(deps: TDeps, orgId: string) {
  const row = await selectOrganisation(deps.database.db, orgId);
  if (!row) throw new AppError('not_found', 'Organisation not found');
  return row;
}

/** An organisation as support sees it: plan, balance, members, activity counts (never lists' contents or contacts). */
export async function openOrg(deps: TDeps, orgId: string): Promise<TOpsOrgDetail> {
  const row = await requireOrg(deps, orgId);
  const db = deps.database.db;
  const [members, activity, adjustments] = await Promise.all([selectMembers(db, orgId), selectActivityCounts(db, orgId), selectRecentAdjustments(db, orgId)]);
  const until = row.support_access_until ? new Date(row.support_access_until) : null;
  return {
    ...toSummary(row),
    members_list: members.map((m) => ({
      user_id: m.user_id,
      email: m.email,
      name: m.name,
      role: m.role,
      status: m.status,
      suspended: m.suspended_at !== null,
      last_sign_in_at: iso(m.last_sign_in_at),
      open_sessions: m.open_sessions,
    })),
    activity_30d: activity,
    support_access_until: until && until > new Date() ? until.toISOString() : null,
    recent_adjustments: adjustments.map((a) => ({ ...a, created_at: iso(a.created_at)! })),
  };
}

async function requireMember(deps: TDeps, orgId: string, userId: string) {
  const member = await selectMember(deps.database.db, orgId, userId);
  if (!member) throw new AppError('not_found', 'User not found in this organisation');
  return member;
}

/** The organisations a user-wide action is recorded in: the one it was asked from first, then every other of the user's. */
async function orgsOfUser(tx: TDb, orgId: string, userId: string): Promise<string[]> {
  return [orgId, ...(await selectUserOrgIds(tx, userId)).filter((id) => id !== orgId)];
}

/**
 * Suspends or restores a user: a suspended user cannot sign in, and their sessions and API key are refused with
 * account_suspended and a readable message (sessions are kept, so a restore lets them work again; "reset sessions"
 * ends them). The user is suspended in every organisation they belong to, so the action is recorded in each one's
 * audit log (and the operator-side log), not only in the one it was asked from.
 */
export async function setUserSuspension(deps: TDeps, operator: TOperatorCaller, input: { orgId: string; userId: string; suspended: boolean; reason?: string }) {
  const member = await requireMember(deps, input.orgId, input.userId);
  const { done, orgIds } = await deps.database.transaction(async (tx) => {
    await setUserSuspended(tx, input.userId, input.suspended);
    // their bulk jobs paused by the suspension go on now (platform/jobs pauses them while suspended)
    if (!input.suspended) await resumePausedJobs(tx, { userId: input.userId });
    const orgIds = await orgsOfUser(tx, input.orgId, input.userId);
    for (const orgId of orgIds) {
      await recordOperatorAction(tx, operator, {
        action: input.suspended ? 'operator.user_suspended' : 'operator.user_restored',
        orgId,
        targetType: 'user',
        targetId: input.userId,
        details: { email: member.email, ...(input.reason ? { reason: input.reason } : {}) },
      });
    }
    const message = input.suspended ? `${member.email} is suspended: cannot sign in, and their sessions, API key and apps' tokens are refused.` : `${member.email} can sign in again.`;
    return { done: { message }, orgIds };
  });
  // The /v2 app tokens' caller cache of this process forgets the user's apps (other processes within seconds).
  for (const orgId of orgIds) invalidateCallers({ userId: input.userId, orgId });
  return done;
}

/** Signs a user out everywhere (every open session revoked), recorded in each of the user's organisations. */
export async function resetUserSessions(deps: TDeps, operator: TOperatorCaller, input: { orgId: string; userId: string }) {
  const member = await requireMember(deps, input.orgId, input.userId);
  return deps.database.transaction(async (tx) => {
    const revoked = await revokeAllUserSessions(tx, input.userId);
    for (const orgId of await orgsOfUser(tx, input.orgId, input.userId)) {
      await recordOperatorAction(tx, operator, {
        action: 'operator.sessions_reset',
        orgId,
        targetType: 'user',
        targetId: input.userId,
        details: { email: member.email, sessions_revoked: revoked },
      });
    }
    return { message: `${member.email} was signed out of ${revoked} session${revoked === 1 ? '' : 's'}.` };
  });
}

/**
 * Suspends or restores a whole organisation: while suspended nobody of it signs in or uses a session, key or app token,
 * and its bulk work waits (nothing verified or charged); restored, that work goes on at once.
 */
export async function setOrgSuspension(deps: TDeps, operator: TOperatorCaller, input: { orgId: string; suspended: boolean; reason?: string }) {
  const org = await requireOrg(deps, input.orgId);
  const done = await deps.database.transaction(async (tx) => {
    await setOrganisationSuspended(tx, input.orgId, input.suspended);
    // its bulk jobs paused by the suspension go on now (platform/jobs pauses them while suspended)
    if (!input.suspended) await resumePausedJobs(tx, { orgId: input.orgId });
    await recordOperatorAction(tx, operator, {
      action: input.suspended ? 'operator.org_suspended' : 'operator.org_restored',
      orgId: input.orgId,
      targetType: 'organisation',
      targetId: input.orgId,
      details: { name: org.name, ...(input.reason ? { reason: input.reason } : {}) },
    });
    return { message: input.suspended ? `${org.name} is suspended.` : `${org.name} is active again.` };
  });
  invalidateCallers({ orgId: input.orgId });
  return done;
}
