import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  ZBulkRemoveData,
  ZMemberChangeData,
  ZMemberListData,
  ZMemberRemoveData,
  ZOrgEditData,
  ZSeatRequestData,
  ZTeamChangeData,
  ZTeamListData,
  ZTeamMembersData,
  type TBulkRemoveRequest,
  type TMemberAddRequest,
  type TMemberEditRequest,
  type TMemberIdRequest,
  type TMemberListRequest,
  type TMemberStatusUpdateRequest,
  type TOrgEditRequest,
  type TSeatRequest,
  type TTeamCreateRequest,
  type TTeamEditRequest,
  type TTeamListRequest,
  type TTeamMembersRequest,
} from '@verilead/contracts';
import { requestApi } from '../../../lib/api-client';
import { useSessionStore } from '../../../lib/session-store';
import { userQueryKeys } from '../../../lib/user-queries';

export const teamQueryKeys = {
  all: ['admin'] as const,
  members: ['admin', 'members'] as const,
  teams: ['admin', 'teams'] as const,
  teamMembers: ['admin', 'team-members'] as const,
};

/** POST /admin/member/list: members of the organisation with seats and per-role counts. */
export function useMembers(params: TMemberListRequest) {
  const setMemberSeats = useSessionStore((state) => state.setMemberSeats);
  return useQuery({
    queryKey: [...teamQueryKeys.members, params],
    queryFn: async ({ signal }) => {
      const data = await requestApi({ method: 'POST', path: '/admin/member/list', body: params, schema: ZMemberListData, signal });
      if (data.seats.limit > 0) setMemberSeats(data.seats.limit);
      return data;
    },
    placeholderData: keepPreviousData,
  });
}

/** POST /admin/team/list */
export function useTeams(params: TTeamListRequest) {
  return useQuery({
    queryKey: [...teamQueryKeys.teams, params],
    queryFn: ({ signal }) => requestApi({ method: 'POST', path: '/admin/team/list', body: params, schema: ZTeamListData, signal }),
    placeholderData: keepPreviousData,
  });
}

/** POST /admin/team/members */
export function useTeamMembers(params: TTeamMembersRequest | null) {
  return useQuery({
    queryKey: [...teamQueryKeys.teamMembers, params],
    queryFn: ({ signal }) =>
      requestApi({ method: 'POST', path: '/admin/team/members', body: params, schema: ZTeamMembersData, signal }),
    enabled: params !== null,
    placeholderData: keepPreviousData,
  });
}

/** Every member and team query is stale after a change (lists, counts, seats, team sizes). */
function useInvalidateTeam() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: teamQueryKeys.all });
}

function useAdminMutation<TBody, TData>(call: (body: TBody) => Promise<TData>) {
  const invalidate = useInvalidateTeam();
  return useMutation({ mutationFn: call, onSuccess: () => void invalidate() });
}

export function useAddMember() {
  return useAdminMutation((body: TMemberAddRequest) =>
    requestApi({ method: 'POST', path: '/admin/member/add', body, schema: ZMemberChangeData }),
  );
}

export function useEditMember() {
  return useAdminMutation((body: TMemberEditRequest) =>
    requestApi({ method: 'POST', path: '/admin/member/edit', body, schema: ZMemberChangeData }),
  );
}

export function useUpdateMemberStatus() {
  return useAdminMutation((body: TMemberStatusUpdateRequest) =>
    requestApi({ method: 'POST', path: '/admin/member/update_status', body, schema: ZMemberChangeData }),
  );
}

export function useReactivateMember() {
  return useAdminMutation((body: TMemberIdRequest) =>
    requestApi({ method: 'POST', path: '/admin/member/reactivate', body, schema: ZMemberChangeData }),
  );
}

export function useRemoveMember() {
  return useAdminMutation((body: TMemberIdRequest) =>
    requestApi({ method: 'POST', path: '/admin/member/remove', body, schema: ZMemberRemoveData }),
  );
}

export function useBulkRemoveMembers() {
  return useAdminMutation((body: TBulkRemoveRequest) =>
    requestApi({ method: 'POST', path: '/admin/bulk/remove', body, schema: ZBulkRemoveData }),
  );
}

/** POST /admin/member/seatrequest: recorded for the operator, answered by mail. */
export function useSeatRequest() {
  return useMutation({
    mutationFn: (body: TSeatRequest) => requestApi({ method: 'POST', path: '/admin/member/seatrequest', body, schema: ZSeatRequestData }),
  });
}

export function useCreateTeam() {
  return useAdminMutation((body: TTeamCreateRequest) =>
    requestApi({ method: 'POST', path: '/admin/team/create', body, schema: ZTeamChangeData }),
  );
}

export function useEditTeam() {
  return useAdminMutation((body: TTeamEditRequest) =>
    requestApi({ method: 'POST', path: '/admin/team/edit', body, schema: ZTeamChangeData }),
  );
}

/** POST /admin/edit: the organisation's name, website and telephone; the session follows. */
export function useEditOrganisation() {
  const queryClient = useQueryClient();
  const setOrgName = useSessionStore((state) => state.setOrgName);
  const setOrgUrl = useSessionStore((state) => state.setOrgUrl);
  const setOrgTel = useSessionStore((state) => state.setOrgTel);
  return useMutation({
    mutationFn: (body: TOrgEditRequest) => requestApi({ method: 'POST', path: '/admin/edit', body, schema: ZOrgEditData }),
    onSuccess: (data) => {
      setOrgName(data.organisation.name);
      setOrgUrl(data.organisation.org_website_url);
      setOrgTel(data.organisation.org_tel);
      void queryClient.invalidateQueries({ queryKey: userQueryKeys.profile });
    },
  });
}
