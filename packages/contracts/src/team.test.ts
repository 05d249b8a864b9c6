import { describe, expect, it } from 'vitest';
import {
  TEAM_MESSAGES,
  ZBulkRemoveRequest,
  ZMemberAddRequest,
  ZMemberEditRequest,
  ZMemberListRequest,
  ZOrgEditRequest,
  ZSeatRequest,
  formatMembersRemoved,
} from './index';

function messagesOf(result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }, field: string): string[] {
  return (result.error?.issues ?? []).filter((i) => i.path[0] === field).map((i) => i.message);
}

describe('team contracts', () => {
  it('words the seat request errors as the spec does', () => {
    expect(ZSeatRequest.safeParse({ seat_count: 10, reason: 'Growing team' }).success).toBe(true);
    expect(messagesOf(ZSeatRequest.safeParse({ reason: 'x' }), 'seat_count')).toEqual(['Please enter the required seat count']);
    expect(messagesOf(ZSeatRequest.safeParse({ seat_count: null, reason: 'x' }), 'seat_count')).toEqual(['Please enter the required seat count']);
    expect(messagesOf(ZSeatRequest.safeParse({ seat_count: '', reason: 'x' }), 'seat_count')).toEqual(['Please enter the required seat count']);
    for (const bad of [0, 51, -3, 2.5, 'ten']) {
      expect(messagesOf(ZSeatRequest.safeParse({ seat_count: bad, reason: 'x' }), 'seat_count')).toEqual(['Please select the seat range from 1 to 50']);
    }
    expect(ZSeatRequest.safeParse({ seat_count: 1, reason: 'x' }).success).toBe(true);
    expect(ZSeatRequest.safeParse({ seat_count: 50, reason: 'x' }).success).toBe(true);
    expect(messagesOf(ZSeatRequest.safeParse({ seat_count: 5 }), 'reason')).toEqual(['Please enter a reason']);
    expect(messagesOf(ZSeatRequest.safeParse({ seat_count: 5, reason: '   ' }), 'reason')).toEqual(['Please enter a reason']);
  });

  it('keeps the spec messages word for word', () => {
    expect(TEAM_MESSAGES.memberAdded).toBe('Member added successfully');
    expect(TEAM_MESSAGES.memberUpdated).toBe('Member updated successfully');
    expect(TEAM_MESSAGES.ownerCannotBeRemoved).toBe('Owner cannot be removed');
    expect(TEAM_MESSAGES.memberRemoved).toBe('Member removed from your list successfully');
    expect(TEAM_MESSAGES.membersNotRemoved).toBe('Member(s) cannot be removed (member might be owner or already removed)');
    expect(formatMembersRemoved(3)).toBe('3 member(s) removed');
  });

  it('lets only admin and analyst be chosen when adding a member', () => {
    expect(ZMemberAddRequest.safeParse({ email: 'A@B.test', role: 'admin' }).success).toBe(true);
    expect(ZMemberAddRequest.parse({ email: 'A@B.test', role: 'analyst' }).email).toBe('a@b.test');
    expect(ZMemberAddRequest.safeParse({ email: 'a@b.test', role: 'owner' }).success).toBe(false);
    expect(ZMemberAddRequest.safeParse({ email: 'not-an-email', role: 'admin' }).success).toBe(false);
  });

  it('defaults the member list filters and accepts only the spec page sizes', () => {
    expect(ZMemberListRequest.parse({})).toMatchObject({ role: 'all', status: 'all', page: 1, limit: 25 });
    for (const limit of [25, 50, 100, 200, 500]) expect(ZMemberListRequest.safeParse({ limit }).success).toBe(true);
    expect(ZMemberListRequest.safeParse({ limit: 30 }).success).toBe(false);
    expect(ZMemberListRequest.safeParse({ role: 'manager' }).success).toBe(false);
  });

  it('refuses an edit that changes nothing and negative limits', () => {
    const id = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
    expect(ZMemberEditRequest.safeParse({ member_id: id }).success).toBe(false);
    expect(ZMemberEditRequest.safeParse({ member_id: id, daily_limit: null }).success).toBe(true);
    expect(ZMemberEditRequest.safeParse({ member_id: id, daily_limit: -1 }).success).toBe(false);
    expect(ZMemberEditRequest.safeParse({ member_id: id, daily_remaining: 20 }).success).toBe(true);
  });

  it('validates bulk removal and organisation edits', () => {
    expect(ZBulkRemoveRequest.safeParse({ member_ids: [] }).success).toBe(false);
    expect(ZOrgEditRequest.safeParse({}).success).toBe(false);
    expect(ZOrgEditRequest.safeParse({ name: 'Acme', org_website_url: 'https://acme.example', org_tel: '+1 555 0100' }).success).toBe(true);
    expect(ZOrgEditRequest.safeParse({ org_website_url: 'not a website' }).success).toBe(false);
    expect(ZOrgEditRequest.safeParse({ org_website_url: null, org_tel: '' }).success).toBe(true);
  });
});
