import type { z } from 'zod';
import { TEAM_MESSAGES, type TTeam, type TTeamChangeData, type TTeamListData, type TTeamMembersData, type ZTeamCreateRequest, type ZTeamEditRequest, type ZTeamListRequest, type ZTeamMembersRequest } from '@verilead/contracts';
import { sqlDay } from '../../platform/credits/ledger';
import type { TDb } from '../../platform/db/database';
import type { TDeps } from '../../platform/deps';
import { AppError, throwNotFound } from '../../platform/errors/app-error';
import type { TCallerContext } from '../../platform/tenancy/context';
import { countMembers, deleteTeamMembers, insertTeam, putTeamMembers, renameTeam, selectMembers, selectOrgMemberships, selectTeam, selectTeamIdByName, selectTeams } from './queries';
import { toIso, toMember } from './service';

// The organisation's teams: named groups of members, made and edited by owners and managers.

function toTeam(row: { id: string; name: string; member_count: number; created_on: string | Date }): TTeam {
  return { id: row.id, name: row.name, member_count: row.member_count, created_on: toIso(row.created_on) ?? '' };
}

async function requireTeam(exec: TDb, ctx: TCallerContext, teamId: string): Promise<TTeam> {
  const row = await selectTeam(exec, ctx.orgId, teamId);
  if (!row) throwNotFound('Team');
  return toTeam(row);
}

async function requireMembersOf(exec: TDb, ctx: TCallerContext, userIds: string[]) {
  const ids = [...new Set(userIds)];
  const found = await selectOrgMemberships(exec, ctx.orgId, ids);
  if (found.length !== ids.length) throwNotFound('Member');
  return ids;
}

function teamNameTaken(): AppError {
  return new AppError('conflict', 'A team with this name already exists', {
    reasons: [{ field: 'name', location: 'body', messages: ['A team with this name already exists'] }],
    additional_info: { reason: 'team_name_taken' },
  });
}

export async function createTeam(deps: TDeps, ctx: TCallerContext, input: z.output<typeof ZTeamCreateRequest>): Promise<TTeamChangeData> {
  const db = deps.database.db;
  const memberIds = await requireMembersOf(db, ctx, input.member_ids);
  if (await selectTeamIdByName(db, ctx.orgId, input.name)) throw teamNameTaken();
  const teamId = await deps.database.transaction(async (tx) => {
    const id = await insertTeam(tx, { orgId: ctx.orgId, name: input.name, createdBy: ctx.userId });
    await putTeamMembers(tx, ctx.orgId, id, memberIds);
    return id;
  });
  return { message: TEAM_MESSAGES.teamCreated, team: await requireTeam(db, ctx, teamId) };
}

export async function listTeams(exec: TDb, ctx: TCallerContext, input: z.output<typeof ZTeamListRequest>): Promise<TTeamListData> {
  const { items, total } = await selectTeams(exec, ctx.orgId, { search: input.search || undefined, offset: (input.page - 1) * input.limit, limit: input.limit });
  return { items: items.map(toTeam), total, page: input.page, limit: input.limit };
}

export async function listTeamMembers(exec: TDb, ctx: TCallerContext, input: z.output<typeof ZTeamMembersRequest>): Promise<TTeamMembersData> {
  const team = await requireTeam(exec, ctx, input.team_id);
  const filter = { orgId: ctx.orgId, day: sqlDay(), teamId: input.team_id };
  const [rows, total] = await Promise.all([
    selectMembers(exec, filter, { offset: (input.page - 1) * input.limit, limit: input.limit }),
    countMembers(exec, filter),
  ]);
  return { items: rows.map(toMember), total, page: input.page, limit: input.limit, team };
}

export async function editTeam(deps: TDeps, ctx: TCallerContext, input: z.output<typeof ZTeamEditRequest>): Promise<TTeamChangeData> {
  const db = deps.database.db;
  await requireTeam(db, ctx, input.team_id);
  const add = await requireMembersOf(db, ctx, input.add_member_ids ?? []);
  const remove = await requireMembersOf(db, ctx, input.remove_member_ids ?? []);
  if (input.name !== undefined && (await selectTeamIdByName(db, ctx.orgId, input.name, input.team_id))) throw teamNameTaken();
  await deps.database.transaction(async (tx) => {
    if (input.name !== undefined) await renameTeam(tx, ctx.orgId, input.team_id, input.name);
    await deleteTeamMembers(tx, ctx.orgId, remove, input.team_id);
    await putTeamMembers(tx, ctx.orgId, input.team_id, add);
  });
  return { message: TEAM_MESSAGES.teamUpdated, team: await requireTeam(db, ctx, input.team_id) };
}
