import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ZBulkRemoveRequest,
  ZBulkRemoveResponse,
  ZMemberAddRequest,
  ZMemberChangeResponse,
  ZMemberEditRequest,
  ZMemberIdRequest,
  ZMemberListRequest,
  ZMemberListResponse,
  ZMemberRemoveResponse,
  ZMemberStatusUpdateRequest,
  ZOrgDefaultSettingsChangeResponse,
  ZOrgDefaultSettingsResponse,
  ZOrgEditRequest,
  ZOrgEditResponse,
  ZOrgEfSettingsRequest,
  ZOrgEvSettingsRequest,
  ZOrgProspectSettingsRequest,
  ZSeatRequest,
  ZSeatRequestResponse,
  ZTeamChangeResponse,
  ZTeamCreateRequest,
  ZTeamEditRequest,
  ZTeamListRequest,
  ZTeamListResponse,
  ZTeamMembersRequest,
  ZTeamMembersResponse,
} from '@verilead/contracts';
import { getCaller, type TGuards } from '../../platform/auth/guards';
import type { TDeps } from '../../platform/deps';
import { ok, withErrorResponses } from '../../platform/http/responses';
import { getOrgDefaultSettings, updateOrgEfDefaults, updateOrgEvDefaults, updateOrgProspectDefaults } from './org-defaults';
import { addMember, bulkRemoveMembers, editMember, editOrganisation, listMembers, reactivateMember, removeMember, requestSeats, updateMemberStatusOf } from './service';
import { createTeam, editTeam, listTeamMembers, listTeams } from './teams';

/** Team and organisation administration: owner and Managers (the authorisation table enforces it). */
export function registerTeamRoutes(app: FastifyInstance, deps: TDeps, guards: TGuards) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const db = deps.database.db;
  const auth = { onRequest: guards.requireAuth };
  const base = { tags: ['admin'], security: [{ bearer: [] }] };

  r.post(
    '/admin/member/list',
    { ...auth, schema: { ...base, summary: 'Members with role and status filters, search and paging; seats', body: ZMemberListRequest, response: withErrorResponses({ 200: ZMemberListResponse }) } },
    async (req) => ok(await listMembers(db, getCaller(req), req.body)),
  );
  r.post(
    '/admin/member/add',
    {
      ...auth,
      schema: { ...base, summary: 'Add a Manager (admin) or Executive (analyst) by e-mail; mails the set-up-password invitation', body: ZMemberAddRequest, response: withErrorResponses({ 200: ZMemberChangeResponse }) },
    },
    async (req) => ok(await addMember(deps, getCaller(req), req.body)),
  );
  r.post(
    '/admin/member/edit',
    {
      ...auth,
      schema: {
        ...base,
        summary: 'Edit role, name, team and limits (a daily limit applies from the next day; the remaining daily allowance at once)',
        body: ZMemberEditRequest,
        response: withErrorResponses({ 200: ZMemberChangeResponse }),
      },
    },
    async (req) => ok(await editMember(deps, getCaller(req), req.body)),
  );
  r.post(
    '/admin/member/remove',
    { ...auth, schema: { ...base, summary: 'Remove a member (the owner cannot be removed)', body: ZMemberIdRequest, response: withErrorResponses({ 200: ZMemberRemoveResponse }) } },
    async (req) => ok(await removeMember(deps, getCaller(req), req.body.member_id)),
  );
  r.post(
    '/admin/member/update_status',
    { ...auth, schema: { ...base, summary: 'Set a member active or inactive', body: ZMemberStatusUpdateRequest, response: withErrorResponses({ 200: ZMemberChangeResponse }) } },
    async (req) => ok(await updateMemberStatusOf(deps, getCaller(req), req.body)),
  );
  r.post(
    '/admin/member/reactivate',
    { ...auth, schema: { ...base, summary: 'Reactivate a removed member', body: ZMemberIdRequest, response: withErrorResponses({ 200: ZMemberChangeResponse }) } },
    async (req) => ok(await reactivateMember(deps, getCaller(req), req.body.member_id)),
  );
  r.post(
    '/admin/member/seatrequest',
    { ...auth, schema: { ...base, summary: 'Request more member seats (1 to 50) with a reason', body: ZSeatRequest, response: withErrorResponses({ 200: ZSeatRequestResponse }) } },
    async (req) => ok(await requestSeats(deps, getCaller(req), req.body)),
  );
  r.post(
    '/admin/bulk/remove',
    { ...auth, schema: { ...base, summary: 'Remove several members (owners and removed members are skipped)', body: ZBulkRemoveRequest, response: withErrorResponses({ 200: ZBulkRemoveResponse }) } },
    async (req) => ok(await bulkRemoveMembers(deps, getCaller(req), req.body)),
  );

  r.post(
    '/admin/team/create',
    { ...auth, schema: { ...base, summary: 'Create a team', body: ZTeamCreateRequest, response: withErrorResponses({ 200: ZTeamChangeResponse }) } },
    async (req) => ok(await createTeam(deps, getCaller(req), req.body)),
  );
  r.post(
    '/admin/team/list',
    { ...auth, schema: { ...base, summary: 'Teams, paged', body: ZTeamListRequest, response: withErrorResponses({ 200: ZTeamListResponse }) } },
    async (req) => ok(await listTeams(db, getCaller(req), req.body)),
  );
  r.post(
    '/admin/team/members',
    { ...auth, schema: { ...base, summary: "A team's members, paged", body: ZTeamMembersRequest, response: withErrorResponses({ 200: ZTeamMembersResponse }) } },
    async (req) => ok(await listTeamMembers(db, getCaller(req), req.body)),
  );
  r.post(
    '/admin/team/edit',
    { ...auth, schema: { ...base, summary: 'Rename a team, add or remove members', body: ZTeamEditRequest, response: withErrorResponses({ 200: ZTeamChangeResponse }) } },
    async (req) => ok(await editTeam(deps, getCaller(req), req.body)),
  );

  r.post(
    '/admin/edit',
    { ...auth, schema: { ...base, summary: 'Edit the organisation name, website and telephone', body: ZOrgEditRequest, response: withErrorResponses({ 200: ZOrgEditResponse }) } },
    async (req) => ok(await editOrganisation(deps, getCaller(req), req.body)),
  );
  r.get(
    '/admin/settings',
    { ...auth, schema: { ...base, summary: "The organisation's default settings members inherit", response: withErrorResponses({ 200: ZOrgDefaultSettingsResponse }) } },
    async (req) => ok(await getOrgDefaultSettings(db, getCaller(req).orgId)),
  );
  r.put(
    '/admin/settings/email_verifier',
    {
      ...auth,
      schema: { ...base, summary: 'Organisation defaults for the email verifier', body: ZOrgEvSettingsRequest, response: withErrorResponses({ 200: ZOrgDefaultSettingsChangeResponse }) },
    },
    async (req) => ok(await updateOrgEvDefaults(deps, getCaller(req), req.body)),
  );
  r.put(
    '/admin/settings/email_finder',
    {
      ...auth,
      schema: { ...base, summary: 'Organisation defaults for the email finder', body: ZOrgEfSettingsRequest, response: withErrorResponses({ 200: ZOrgDefaultSettingsChangeResponse }) },
    },
    async (req) => ok(await updateOrgEfDefaults(deps, getCaller(req), req.body)),
  );
  r.put(
    '/admin/settings/prospect',
    {
      ...auth,
      schema: { ...base, summary: 'Organisation defaults for prospect enrichment', body: ZOrgProspectSettingsRequest, response: withErrorResponses({ 200: ZOrgDefaultSettingsChangeResponse }) },
    },
    async (req) => ok(await updateOrgProspectDefaults(deps, getCaller(req), req.body)),
  );
}
