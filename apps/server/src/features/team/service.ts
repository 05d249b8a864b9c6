import type { z } from 'zod';
import { recordAudit } from '../../platform/audit/record';
import { TEAM_MESSAGES, formatMembersRemoved, type TBulkRemoveData, type TMember, type TMemberChangeData, type TMemberListData, type TMemberRemoveData, type TOrgEditData, type TRole, type TSeatRequestData, type TTeamConflictReason, type ZBulkRemoveRequest, type ZMemberAddRequest, type ZMemberEditRequest, type ZMemberListRequest, type ZMemberStatusUpdateRequest, type ZOrgEditRequest, type ZSeatRequest } from '@verilead/contracts';
import { revokeUserSessions } from '../../platform/auth/sessions';
import { sqlDay } from '../../platform/credits/ledger';
import type { TDb } from '../../platform/db/database';
import type { TDeps } from '../../platform/deps';
import { AppError, throwNotFound } from '../../platform/errors/app-error';
import type { TCallerContext } from '../../platform/tenancy/context';
import { countSeatsUsed, getSeats } from '../../platform/tenancy/members';
import { getProfile } from '../account';
import { inviteMember } from '../auth';
import { countMembers, countMembersByRole, deleteTeamMembers, foldDueDailyLimit, insertSeatRequest, lockOrgSeatLimit, putTeamMembers, scheduleDailyLimit, selectMembers, selectOrgMembership, selectOrgMemberships, selectTeam, setDailyRemaining, setInitialLimits, setLifeTimeLimit, updateMemberRole, updateMemberStatus, updateOrganisation, updateUserName, type TMemberRow } from './queries';
import { getPublicBaseUrl } from '../../platform/http/public-url';

/** Options for tests: the member's day (YYYY-MM-DD) for daily limits; defaults to the database's current date. */
export type TTeamClock = { today?: string };

function conflict(reason: TTeamConflictReason, message: string, extra: Record<string, unknown> = {}): AppError {
  return new AppError('conflict', message, { additional_info: { reason, ...extra } });
}

export function toIso(value: string | Date | null): string | null {
  if (value === null) return null;
  return (value instanceof Date ? value : new Date(value)).toISOString();
}

export function toMember(row: TMemberRow): TMember {
  const remaining = (limit: number | null, used: number) => (limit === null ? null : Math.max(0, limit - used));
  return {
    member_id: row.user_id,
    name: row.name,
    email: row.email,
    role: row.role as TRole,
    status: row.status as TMember['status'],
    has_password: row.has_password,
    teams: row.team_id && row.team_name ? [{ id: row.team_id, name: row.team_name }] : [],
    limits: {
      daily: {
        limit: row.daily_cap,
        used: row.daily_used,
        remaining: remaining(row.daily_cap, row.daily_used),
        next_limit: row.daily_next_from ? { limit: row.daily_next, from: row.daily_next_from } : null,
        remaining_override: row.daily_cap_today,
      },
      life_time: { limit: row.life_time_limit, used: row.life_time_used, remaining: remaining(row.life_time_limit, row.life_time_used) },
    },
    added_on: toIso(row.added_on) ?? '',
    last_login_on: toIso(row.last_login_on),
  };
}

async function loadMember(exec: TDb, ctx: TCallerContext, userId: string, clock: TTeamClock = {}): Promise<TMember> {
  const rows = await selectMembers(exec, { orgId: ctx.orgId, day: sqlDay(clock.today), userIds: [userId] });
  const row = rows[0];
  if (!row) throwNotFound('Member');
  return toMember(row);
}

/** Refuses when every seat is taken (inside the transaction: the organisation row is locked first). */
async function assertSeatAvailable(tx: TDb, orgId: string, adding: number) {
  const limit = (await lockOrgSeatLimit(tx, orgId)) ?? 0;
  const used = await countSeatsUsed(tx, orgId);
  if (used + adding > limit) {
    throw conflict('seat_limit_reached', TEAM_MESSAGES.seatLimitReached, { seats: { limit, used, available: Math.max(0, limit - used) } });
  }
}

/** A member of the caller's organisation, or 404. */
async function requireMember(exec: TDb, ctx: TCallerContext, userId: string) {
  const m = await selectOrgMembership(exec, ctx.orgId, userId);
  if (!m) throwNotFound('Member');
  return m;
}

/** Nobody changes the owner's role or status, nor their own. */
function assertMayManage(ctx: TCallerContext, target: { role: string }, userId: string) {
  if (target.role === 'owner') throw conflict('cannot_change_owner', 'The owner cannot be changed here');
  if (userId === ctx.userId) throw conflict('cannot_change_self', 'You cannot change your own membership');
}

// ---------- members ----------

export async function listMembers(exec: TDb, ctx: TCallerContext, input: z.output<typeof ZMemberListRequest>, clock: TTeamClock = {}): Promise<TMemberListData> {
  const filter = {
    orgId: ctx.orgId,
    day: sqlDay(clock.today),
    role: input.role === 'all' ? undefined : input.role,
    status: input.status === 'all' ? undefined : input.status,
    search: input.search || undefined,
    teamId: input.team_id,
  };
  const [rows, total, byRole, seats] = await Promise.all([
    selectMembers(exec, filter, { offset: (input.page - 1) * input.limit, limit: input.limit }),
    countMembers(exec, filter),
    countMembersByRole(exec, ctx.orgId),
    getSeats(exec, ctx.orgId),
  ]);
  const count = (role: string) => byRole[role] ?? 0;
  return {
    items: rows.map(toMember),
    total,
    page: input.page,
    limit: input.limit,
    seats,
    counts: { all: count('owner') + count('admin') + count('analyst'), owner: count('owner'), admin: count('admin'), analyst: count('analyst') },
  };
}

/** Adds a member (Manager or Executive) by e-mail and mails the set-up-password invitation. */
export async function addMember(deps: TDeps, ctx: TCallerContext, input: z.output<typeof ZMemberAddRequest>): Promise<TMemberChangeData> {
  const db = deps.database.db;
  if (input.team_id && !(await selectTeam(db, ctx.orgId, input.team_id))) throwNotFound('Team');
  const seats = await getSeats(db, ctx.orgId);
  if (seats.available < 1) throw conflict('seat_limit_reached', TEAM_MESSAGES.seatLimitReached, { seats });
  let userId: string;
  try {
    ({ userId } = await inviteMember(deps, ctx, { email: input.email, name: input.name ?? 'User', role: input.role }));
  } catch (err) {
    if (err instanceof AppError && err.code === 'email_already_registered') {
      throw new AppError('conflict', 'A user with this e-mail already exists', {
        reasons: [{ field: 'email', location: 'body', messages: ['A user with this e-mail already exists'] }],
        additional_info: { reason: 'email_already_registered' },
      });
    }
    throw err;
  }
  await deps.database.transaction(async (tx) => {
    await setInitialLimits(tx, ctx.orgId, userId, { daily: input.daily_limit, lifeTime: input.life_time_limit });
    if (input.team_id) await putTeamMembers(tx, ctx.orgId, input.team_id, [userId]);
    await recordAudit(tx, ctx, { action: 'team.member_invited', targetType: 'member', targetId: userId, details: { email: input.email, role: input.role, daily_limit: input.daily_limit ?? null, life_time_limit: input.life_time_limit ?? null } });
  });
  return { message: TEAM_MESSAGES.memberAdded, member: await loadMember(db, ctx, userId), seats: await getSeats(db, ctx.orgId) };
}

/**
 * Edits a member. A new daily limit applies from the start of the next day; a new remaining daily
 * allowance applies at once and lapses at the end of the day; the life-time limit applies at once.
 */
export async function editMember(
  deps: TDeps,
  ctx: TCallerContext,
  input: z.output<typeof ZMemberEditRequest>,
  clock: TTeamClock = {},
): Promise<TMemberChangeData> {
  const db = deps.database.db;
  const target = await requireMember(db, ctx, input.member_id);
  if (target.status === 'removed') throw conflict('member_removed', 'This member was removed. Reactivate the member first.');
  if (input.role !== undefined && input.role !== target.role) assertMayManage(ctx, target, input.member_id);
  if (target.role === 'owner' && ctx.role !== 'owner') throw conflict('cannot_change_owner', 'Only the owner can change the owner');
  if (input.team_id && !(await selectTeam(db, ctx.orgId, input.team_id))) throwNotFound('Team');
  const day = sqlDay(clock.today);
  await deps.database.transaction(async (tx) => {
    // Every request reads the role afresh, so a role change applies to open sessions at once.
    if (input.role !== undefined && input.role !== target.role) await updateMemberRole(tx, ctx.orgId, input.member_id, input.role);
    if (input.name !== undefined) await updateUserName(tx, input.member_id, input.name);
    if (input.team_id !== undefined) {
      if (input.team_id === null) await deleteTeamMembers(tx, ctx.orgId, [input.member_id]);
      else await putTeamMembers(tx, ctx.orgId, input.team_id, [input.member_id]);
    }
    if (input.daily_limit !== undefined || input.daily_remaining !== undefined) await foldDueDailyLimit(tx, ctx.orgId, input.member_id, day);
    if (input.daily_limit !== undefined) await scheduleDailyLimit(tx, ctx.orgId, input.member_id, input.daily_limit, day);
    if (input.daily_remaining !== undefined) await setDailyRemaining(tx, ctx.orgId, input.member_id, input.daily_remaining, day);
    if (input.life_time_limit !== undefined) await setLifeTimeLimit(tx, ctx.orgId, input.member_id, input.life_time_limit);
    const limits = { daily_limit: input.daily_limit, daily_remaining: input.daily_remaining, life_time_limit: input.life_time_limit };
    if (input.role !== undefined && input.role !== target.role) await recordAudit(tx, ctx, { action: 'team.member_role_changed', targetType: 'member', targetId: input.member_id, details: { from: target.role, to: input.role } });
    if (Object.values(limits).some((v) => v !== undefined)) await recordAudit(tx, ctx, { action: 'team.member_limits_changed', targetType: 'member', targetId: input.member_id, details: limits });
  });
  return { message: TEAM_MESSAGES.memberUpdated, member: await loadMember(db, ctx, input.member_id, clock), seats: await getSeats(db, ctx.orgId) };
}

/** Removes a member: they can no longer log in (every session ends) and their seat is freed. */
export async function removeMember(deps: TDeps, ctx: TCallerContext, memberId: string): Promise<TMemberRemoveData> {
  const target = await requireMember(deps.database.db, ctx, memberId);
  if (target.role === 'owner') throw conflict('owner_cannot_be_removed', TEAM_MESSAGES.ownerCannotBeRemoved);
  if (target.status === 'removed') throw conflict('member_already_removed', 'This member is already removed');
  if (memberId === ctx.userId) throw conflict('cannot_change_self', 'You cannot remove yourself');
  await deps.database.transaction(async (tx) => {
    await updateMemberStatus(tx, ctx.orgId, [memberId], 'removed');
    await deleteTeamMembers(tx, ctx.orgId, [memberId]);
    await revokeUserSessions(tx, memberId);
    await recordAudit(tx, ctx, { action: 'team.member_removed', targetType: 'member', targetId: memberId });
  });
  return { message: TEAM_MESSAGES.memberRemoved, member_id: memberId, seats: await getSeats(deps.database.db, ctx.orgId) };
}

/** Removes many members; owners, already-removed members and the caller are skipped with the spec's message. */
export async function bulkRemoveMembers(deps: TDeps, ctx: TCallerContext, input: z.output<typeof ZBulkRemoveRequest>): Promise<TBulkRemoveData> {
  const ids = [...new Set(input.member_ids)];
  const found = await selectOrgMemberships(deps.database.db, ctx.orgId, ids);
  if (found.length !== ids.length) throwNotFound('Member');
  const removable = found.filter((m) => m.role !== 'owner' && m.status !== 'removed' && m.userId !== ctx.userId).map((m) => m.userId);
  const removed = await deps.database.transaction(async (tx) => {
    const done = await updateMemberStatus(tx, ctx.orgId, removable, 'removed');
    await deleteTeamMembers(tx, ctx.orgId, done);
    for (const userId of done) await revokeUserSessions(tx, userId);
    return done;
  });
  const removedSet = new Set(removed);
  const notRemoved = ids.filter((id) => !removedSet.has(id));
  return {
    message: removed.length > 0 ? formatMembersRemoved(removed.length) : TEAM_MESSAGES.membersNotRemoved,
    removed_count: removed.length,
    removed_ids: removed,
    not_removed_ids: notRemoved,
    not_removed_message: notRemoved.length > 0 ? TEAM_MESSAGES.membersNotRemoved : null,
    seats: await getSeats(deps.database.db, ctx.orgId),
  };
}

/** Sets a member active or inactive; an inactive member cannot log in, call the API or spend. */
export async function updateMemberStatusOf(
  deps: TDeps,
  ctx: TCallerContext,
  input: z.output<typeof ZMemberStatusUpdateRequest>,
): Promise<TMemberChangeData> {
  const db = deps.database.db;
  const target = await requireMember(db, ctx, input.member_id);
  assertMayManage(ctx, target, input.member_id);
  if (target.status === 'removed') throw conflict('member_removed', 'This member was removed. Reactivate the member first.');
  if (target.status !== input.status) await updateMemberStatus(db, ctx.orgId, [input.member_id], input.status);
  return { message: TEAM_MESSAGES.memberUpdated, member: await loadMember(db, ctx, input.member_id), seats: await getSeats(db, ctx.orgId) };
}

/** Brings a removed member back (active), if a seat is free. */
export async function reactivateMember(deps: TDeps, ctx: TCallerContext, memberId: string): Promise<TMemberChangeData> {
  const db = deps.database.db;
  const target = await requireMember(db, ctx, memberId);
  if (target.status !== 'removed') throw conflict('member_not_removed', 'Only removed members can be reactivated');
  await deps.database.transaction(async (tx) => {
    await assertSeatAvailable(tx, ctx.orgId, 1);
    await updateMemberStatus(tx, ctx.orgId, [memberId], 'active');
  });
  return { message: TEAM_MESSAGES.memberReactivated, member: await loadMember(db, ctx, memberId), seats: await getSeats(db, ctx.orgId) };
}

/** Records a request for more seats for the operator and confirms it to the requester by mail. */
export async function requestSeats(deps: TDeps, ctx: TCallerContext, input: z.output<typeof ZSeatRequest>): Promise<TSeatRequestData> {
  return deps.database.transaction(async (tx) => {
    const row = await insertSeatRequest(tx, { orgId: ctx.orgId, userId: ctx.userId, seatCount: input.seat_count, reason: input.reason });
    const profile = await getProfile(tx, ctx);
    await deps.mailer.send(
      { to: profile.email, template: 'seat_request', vars: { name: profile.name, url: `${getPublicBaseUrl(deps.config)}/admin`, orgName: profile.organisation.name } },
      { tx, orgId: ctx.orgId, userId: ctx.userId },
    );
    return {
      message: TEAM_MESSAGES.seatRequestReceived,
      request_id: row.id,
      seat_count: row.seatCount,
      status: row.status,
      requested_on: row.createdAt.toISOString(),
    };
  });
}

// ---------- organisation ----------

/** Edits the organisation's name, website and telephone; answers the organisation as the session shows it. */
export async function editOrganisation(deps: TDeps, ctx: TCallerContext, input: z.output<typeof ZOrgEditRequest>): Promise<TOrgEditData> {
  const set: { name?: string; websiteUrl?: string | null; tel?: string | null } = {};
  if (input.name !== undefined) set.name = input.name;
  if (input.org_website_url !== undefined) set.websiteUrl = input.org_website_url || null;
  if (input.org_tel !== undefined) set.tel = input.org_tel || null;
  await updateOrganisation(deps.database.db, ctx.orgId, set);
  const profile = await getProfile(deps.database.db, ctx);
  return { message: TEAM_MESSAGES.organisationUpdated, organisation: profile.organisation };
}

