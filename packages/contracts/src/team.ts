import { z } from 'zod';
import { ZSuccess } from './envelopes';
import { ZEmail, ZPage, ZPageSize, ZPaged, ZPersonName, ZPhoneNumber } from './common';
import { ASSIGNABLE_ROLES, MEMBER_ROLE_FILTERS, ZMemberStatus, ZRole, ZVerificationMode } from './enums';
import { ZLimitUsage, ZOrganisationSummary } from './user';
import { ZEfSettings, ZEnrichSettings, ZEvSettings, ZProspectSettings } from './settings';
import { ZGibberishThreshold } from './email-verifier';

// Team and organisation administration (spec sections 2, 3, 4, 5, 6, 7 Admin, 8).
// Every admin call is POST with a JSON body, as in spec/calls.tsv; only owners and admins (Managers) may use them.

// ---------- messages (spec sections 5 and 8, word for word) ----------

export const TEAM_MESSAGES = {
  memberAdded: 'Member added successfully',
  memberUpdated: 'Member updated successfully',
  ownerCannotBeRemoved: 'Owner cannot be removed',
  memberRemoved: 'Member removed from your list successfully',
  membersNotRemoved: 'Member(s) cannot be removed (member might be owner or already removed)',
  memberReactivated: 'Member reactivated successfully',
  seatRange: 'Please select the seat range from 1 to 50',
  seatRequired: 'Please enter the required seat count',
  reasonRequired: 'Please enter a reason',
  seatLimitReached: 'All member seats of your plan are in use. Request more seats to add members.',
  seatRequestReceived: 'Your seat request has been received. We will get back to you by e-mail.',
  teamCreated: 'Team created successfully',
  teamUpdated: 'Team updated successfully',
  organisationUpdated: 'Organisation updated successfully',
  settingsUpdated: 'Settings updated successfully',
} as const;

/** "N member(s) removed" (spec section 8). */
export function formatMembersRemoved(count: number): string {
  return `${count} member(s) removed`;
}

/**
 * Why an admin call answered 409 (code `conflict`): `error.additional_info.reason`.
 * Other failures use the common codes (validation_failed 400, forbidden 403, not_found 404 for ids
 * of another organisation).
 */
export const TEAM_CONFLICT_REASONS = [
  'owner_cannot_be_removed',
  'seat_limit_reached', // additional_info.seats: TSeats
  'email_already_registered',
  'member_already_removed',
  'member_not_removed', // reactivate of a member that is not removed
  'member_removed', // edit / update_status of a removed member (reactivate first)
  'cannot_change_owner', // role or status of the owner
  'cannot_change_self', // own role or status
  'team_name_taken',
] as const;
export type TTeamConflictReason = (typeof TEAM_CONFLICT_REASONS)[number];

/** Seat range of a seat request (spec sections 5 and 9). */
export const SEAT_REQUEST_MIN = 1;
export const SEAT_REQUEST_MAX = 50;

// ---------- shared shapes ----------

export const ZAssignableRole = z.enum(ASSIGNABLE_ROLES);
export type TAssignableRole = z.infer<typeof ZAssignableRole>;
export const ZMemberRoleFilter = z.enum(MEMBER_ROLE_FILTERS);
export type TMemberRoleFilter = z.infer<typeof ZMemberRoleFilter>;
export const ZMemberStatusFilter = z.enum(['all', 'active', 'inactive', 'removed']);
export type TMemberStatusFilter = z.infer<typeof ZMemberStatusFilter>;

/** Member ids are the member's user id. */
export const ZMemberId = z.uuid({ message: 'Please choose a member' });
export const ZTeamId = z.uuid({ message: 'Please choose a team' });

/** A credit limit value: a whole number of credits, or null for unlimited. */
export const ZCreditLimitValue = z
  .number({ error: 'Please enter a number of credits' })
  .int({ message: 'Please enter a whole number of credits' })
  .min(0, { message: 'The limit cannot be negative' })
  .max(1_000_000_000, { message: 'The limit is too large' })
  .nullable();

/**
 * The daily limit of a member. `limit` and `remaining` are today's values (null = unlimited).
 * `next_limit` is a change that applies from the start of `next_limit_from` (the next day);
 * `remaining_override` is true when today's remaining allowance was set directly (it resets tomorrow).
 */
export const ZMemberDailyLimit = ZLimitUsage.extend({
  next_limit: z
    .object({ limit: z.number().int().nonnegative().nullable(), from: z.string() })
    .nullable(),
  remaining_override: z.boolean(),
});
export type TMemberDailyLimit = z.infer<typeof ZMemberDailyLimit>;
export const ZMemberLimitDetails = z.object({ daily: ZMemberDailyLimit, life_time: ZLimitUsage });
export type TMemberLimitDetails = z.infer<typeof ZMemberLimitDetails>;

export const ZTeamRef = z.object({ id: z.string(), name: z.string() });
export type TTeamRef = z.infer<typeof ZTeamRef>;

export const ZMember = z.object({
  member_id: z.string(),
  name: z.string(),
  email: z.string(),
  role: ZRole,
  status: ZMemberStatus,
  /** False until an invited member has set a password. */
  has_password: z.boolean(),
  teams: z.array(ZTeamRef),
  limits: ZMemberLimitDetails,
  added_on: z.string(),
  last_login_on: z.string().nullable(),
});
export type TMember = z.infer<typeof ZMember>;

/** Member seats: `limit` is plan.user_create_limit; `used` counts members that are not removed, the owner excluded. */
export const ZSeats = z.object({
  limit: z.number().int().nonnegative(),
  used: z.number().int().nonnegative(),
  available: z.number().int().nonnegative(),
});
export type TSeats = z.infer<typeof ZSeats>;

// ---------- POST /admin/member/list ----------

export const ZMemberListRequest = z.object({
  role: ZMemberRoleFilter.default('all'),
  status: ZMemberStatusFilter.default('all'),
  /** Matches name or e-mail, case-insensitive. */
  search: z.string().trim().max(254).optional(),
  team_id: ZTeamId.optional(),
  page: ZPage.default(1),
  limit: ZPageSize.default(25),
});
export type TMemberListRequest = z.input<typeof ZMemberListRequest>;
export const ZMemberListData = ZPaged(ZMember).extend({
  seats: ZSeats,
  /** Members per role filter (removed ones excluded), for the filter tabs. */
  counts: z.object({ all: z.number().int(), owner: z.number().int(), admin: z.number().int(), analyst: z.number().int() }),
});
export type TMemberListData = z.infer<typeof ZMemberListData>;
export const ZMemberListResponse = ZSuccess(ZMemberListData);

// ---------- POST /admin/member/add ----------

export const ZMemberAddRequest = z.object({
  email: ZEmail,
  role: ZAssignableRole,
  name: ZPersonName.optional(),
  team_id: ZTeamId.optional(),
  daily_limit: ZCreditLimitValue.optional(),
  life_time_limit: ZCreditLimitValue.optional(),
});
export type TMemberAddRequest = z.input<typeof ZMemberAddRequest>;
/** Answer of add, edit, update_status and reactivate: the spec's message and the member as it is now. */
export const ZMemberChangeData = z.object({ message: z.string(), member: ZMember, seats: ZSeats });
export type TMemberChangeData = z.infer<typeof ZMemberChangeData>;
export const ZMemberChangeResponse = ZSuccess(ZMemberChangeData);

// ---------- POST /admin/member/edit ----------

/**
 * Edits role, name, team and limits. `daily_limit` applies from the start of the next day;
 * `daily_remaining` sets today's remaining allowance at once (it resets the next day).
 */
export const ZMemberEditRequest = z
  .object({
    member_id: ZMemberId,
    role: ZAssignableRole.optional(),
    name: ZPersonName.optional(),
    team_id: ZTeamId.nullable().optional(),
    daily_limit: ZCreditLimitValue.optional(),
    daily_remaining: z
      .number({ error: 'Please enter a number of credits' })
      .int({ message: 'Please enter a whole number of credits' })
      .min(0, { message: 'The remaining credits cannot be negative' })
      .max(1_000_000_000, { message: 'The limit is too large' })
      .optional(),
    life_time_limit: ZCreditLimitValue.optional(),
  })
  .refine((v) => Object.entries(v).some(([key, value]) => key !== 'member_id' && value !== undefined), { message: 'Nothing to update' });
export type TMemberEditRequest = z.input<typeof ZMemberEditRequest>;

// ---------- POST /admin/member/remove, /admin/member/reactivate ----------

export const ZMemberIdRequest = z.object({ member_id: ZMemberId });
export type TMemberIdRequest = z.input<typeof ZMemberIdRequest>;
export const ZMemberRemoveData = z.object({ message: z.string(), member_id: z.string(), seats: ZSeats });
export type TMemberRemoveData = z.infer<typeof ZMemberRemoveData>;
export const ZMemberRemoveResponse = ZSuccess(ZMemberRemoveData);

// ---------- POST /admin/member/update_status ----------

export const ZMemberStatusUpdateRequest = z.object({ member_id: ZMemberId, status: z.enum(['active', 'inactive']) });
export type TMemberStatusUpdateRequest = z.input<typeof ZMemberStatusUpdateRequest>;

// ---------- POST /admin/bulk/remove ----------

export const ZBulkRemoveRequest = z.object({
  member_ids: z.array(ZMemberId).min(1, { message: 'Please choose at least one member' }).max(500, { message: 'At most 500 members at once' }),
});
export type TBulkRemoveRequest = z.input<typeof ZBulkRemoveRequest>;
/**
 * `message` is "N member(s) removed" when any was removed, else the not-removed message.
 * `not_removed_message` is the spec's "Member(s) cannot be removed (...)" when some were skipped
 * (owners and already-removed members), else null.
 */
export const ZBulkRemoveData = z.object({
  message: z.string(),
  removed_count: z.number().int().nonnegative(),
  removed_ids: z.array(z.string()),
  not_removed_ids: z.array(z.string()),
  not_removed_message: z.string().nullable(),
  seats: ZSeats,
});
export type TBulkRemoveData = z.infer<typeof ZBulkRemoveData>;
export const ZBulkRemoveResponse = ZSuccess(ZBulkRemoveData);

// ---------- POST /admin/member/seatrequest ----------

const SEAT_RANGE_ERROR = 'Please select the seat range from 1 to 50';
const SEAT_REQUIRED_ERROR = 'Please enter the required seat count';
export const ZSeatCount = z
  .number({ error: (issue) => (issue.input === undefined || issue.input === null || issue.input === '' ? SEAT_REQUIRED_ERROR : SEAT_RANGE_ERROR) })
  .int({ message: SEAT_RANGE_ERROR })
  .min(SEAT_REQUEST_MIN, { message: SEAT_RANGE_ERROR })
  .max(SEAT_REQUEST_MAX, { message: SEAT_RANGE_ERROR });
export const ZSeatReason = z
  .string({ error: 'Please enter a reason' })
  .trim()
  .min(1, { message: 'Please enter a reason' })
  .max(2000, { message: 'The reason may be at most 2000 characters' });
export const ZSeatRequest = z.object({ seat_count: ZSeatCount, reason: ZSeatReason });
export type TSeatRequest = z.input<typeof ZSeatRequest>;
export const ZSeatRequestData = z.object({
  message: z.string(),
  request_id: z.string(),
  seat_count: z.number().int(),
  status: z.enum(['requested', 'granted', 'declined']),
  requested_on: z.string(),
});
export type TSeatRequestData = z.infer<typeof ZSeatRequestData>;
export const ZSeatRequestResponse = ZSuccess(ZSeatRequestData);

// ---------- teams: POST /admin/team/create, list, members, edit ----------

export const ZTeamName = z
  .string({ error: 'Please enter a team name' })
  .trim()
  .min(1, { message: 'Please enter a team name' })
  .max(100, { message: 'The team name may be at most 100 characters' });

export const ZTeam = z.object({
  id: z.string(),
  name: z.string(),
  member_count: z.number().int().nonnegative(),
  created_on: z.string(),
});
export type TTeam = z.infer<typeof ZTeam>;

export const ZTeamCreateRequest = z.object({ name: ZTeamName, member_ids: z.array(ZMemberId).max(500).default([]) });
export type TTeamCreateRequest = z.input<typeof ZTeamCreateRequest>;
export const ZTeamChangeData = z.object({ message: z.string(), team: ZTeam });
export type TTeamChangeData = z.infer<typeof ZTeamChangeData>;
export const ZTeamChangeResponse = ZSuccess(ZTeamChangeData);

export const ZTeamListRequest = z.object({
  search: z.string().trim().max(100).optional(),
  page: ZPage.default(1),
  limit: ZPageSize.default(25),
});
export type TTeamListRequest = z.input<typeof ZTeamListRequest>;
export const ZTeamListData = ZPaged(ZTeam);
export type TTeamListData = z.infer<typeof ZTeamListData>;
export const ZTeamListResponse = ZSuccess(ZTeamListData);

export const ZTeamMembersRequest = z.object({ team_id: ZTeamId, page: ZPage.default(1), limit: ZPageSize.default(25) });
export type TTeamMembersRequest = z.input<typeof ZTeamMembersRequest>;
export const ZTeamMembersData = ZPaged(ZMember).extend({ team: ZTeam });
export type TTeamMembersData = z.infer<typeof ZTeamMembersData>;
export const ZTeamMembersResponse = ZSuccess(ZTeamMembersData);

/** A member belongs to at most one team: adding moves them from their previous team. */
export const ZTeamEditRequest = z
  .object({
    team_id: ZTeamId,
    name: ZTeamName.optional(),
    add_member_ids: z.array(ZMemberId).max(500).optional(),
    remove_member_ids: z.array(ZMemberId).max(500).optional(),
  })
  .refine((v) => v.name !== undefined || (v.add_member_ids?.length ?? 0) > 0 || (v.remove_member_ids?.length ?? 0) > 0, { message: 'Nothing to update' });
export type TTeamEditRequest = z.input<typeof ZTeamEditRequest>;

// ---------- POST /admin/edit (organisation) ----------

export const ZOrgName = z
  .string({ error: 'Please enter the organisation name' })
  .trim()
  .min(1, { message: 'Please enter the organisation name' })
  .max(200, { message: 'The organisation name may be at most 200 characters' });
export const ZOrgWebsite = z
  .string()
  .trim()
  .max(2000)
  .regex(/^(https?:\/\/)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+(:[0-9]{1,5})?(\/\S*)?$/i, { message: 'Please enter a valid website' });
export const ZOrgEditRequest = z
  .object({
    name: ZOrgName.optional(),
    /** null or '' clears it. */
    org_website_url: z.union([ZOrgWebsite, z.literal('')]).nullable().optional(),
    org_tel: z.union([ZPhoneNumber, z.literal('')]).nullable().optional(),
  })
  .refine((v) => v.name !== undefined || v.org_website_url !== undefined || v.org_tel !== undefined, { message: 'Nothing to update' });
export type TOrgEditRequest = z.input<typeof ZOrgEditRequest>;
export const ZOrgEditData = z.object({ message: z.string(), organisation: ZOrganisationSummary });
export type TOrgEditData = z.infer<typeof ZOrgEditData>;
export const ZOrgEditResponse = ZSuccess(ZOrgEditData);

// ---------- organisation default settings (admin screens email_verifier, email_finder, prospect) ----------
// Members inherit these defaults for every setting they have not changed themselves.

export const ZOrgDefaultSettings = z.object({
  ev_settings: ZEvSettings,
  ef_settings: ZEfSettings,
  prospect_settings: ZProspectSettings,
});
export type TOrgDefaultSettings = z.infer<typeof ZOrgDefaultSettings>;
/** GET /admin/settings */
export const ZOrgDefaultSettingsResponse = ZSuccess(ZOrgDefaultSettings);

/** PUT /admin/settings/email_verifier */
export const ZOrgEvSettingsRequest = z
  .object({
    default_email_verify_mode: ZVerificationMode.optional(),
    can_show_email_verify_mode: z.boolean().optional(),
    auto_pilot_status: z.boolean().optional(),
    gibberish_threshold_value: ZGibberishThreshold.optional(),
  })
  .refine((v) => Object.values(v).some((x) => x !== undefined), { message: 'Nothing to update' });
export type TOrgEvSettingsRequest = z.input<typeof ZOrgEvSettingsRequest>;
/** PUT /admin/settings/email_finder */
export const ZOrgEfSettingsRequest = z
  .object({ include_role_email: z.boolean().optional(), strict_domain_check: z.boolean().optional() })
  .refine((v) => v.include_role_email !== undefined || v.strict_domain_check !== undefined, { message: 'Nothing to update' });
export type TOrgEfSettingsRequest = z.input<typeof ZOrgEfSettingsRequest>;
/** PUT /admin/settings/prospect */
export const ZOrgProspectSettingsRequest = z
  .object({ person_enrich_settings: ZEnrichSettings.optional(), company_enrich_settings: ZEnrichSettings.optional() })
  .refine((v) => v.person_enrich_settings !== undefined || v.company_enrich_settings !== undefined, { message: 'Nothing to update' });
export type TOrgProspectSettingsRequest = z.input<typeof ZOrgProspectSettingsRequest>;
/** The three PUTs answer the whole defaults with a message. */
export const ZOrgDefaultSettingsChangeData = ZOrgDefaultSettings.extend({ message: z.string() });
export const ZOrgDefaultSettingsChangeResponse = ZSuccess(ZOrgDefaultSettingsChangeData);
