import { describe, expect, it } from 'vitest';
import { TEAM_MESSAGES, formatMembersRemoved } from '@verilead/contracts';
import { describeBulkRemoveOutcome, getRemovalBlock, splitBulkSelection } from './bulk-remove';

describe('bulk remove', () => {
  it('blocks the owner and already-removed members only', () => {
    expect(getRemovalBlock({ role: 'owner', status: 'active' })).toBe('Owner cannot be removed');
    expect(getRemovalBlock({ role: 'analyst', status: 'removed' })).not.toBeNull();
    expect(getRemovalBlock({ role: 'admin', status: 'inactive' })).toBeNull();
    const { removable, blocked } = splitBulkSelection([
      { member_id: 'o', role: 'owner', status: 'active' },
      { member_id: 'a', role: 'admin', status: 'active' },
      { member_id: 'r', role: 'analyst', status: 'removed' },
      { member_id: 'i', role: 'analyst', status: 'inactive' },
    ]);
    expect(removable.map((member) => member.member_id)).toEqual(['a', 'i']);
    expect(blocked.map((member) => member.member_id)).toEqual(['o', 'r']);
  });

  it('all removed: one success toast "N member(s) removed"', () => {
    const toasts = describeBulkRemoveOutcome({ message: formatMembersRemoved(3), removed_count: 3, not_removed_message: null });
    expect(toasts).toEqual([{ title: 'Members removed', message: '3 member(s) removed', kind: 'success' }]);
  });

  it('owner in the selection: the removed count and the spec message', () => {
    const toasts = describeBulkRemoveOutcome({
      message: formatMembersRemoved(1),
      removed_count: 1,
      not_removed_message: TEAM_MESSAGES.membersNotRemoved,
    });
    expect(toasts.map((toast) => toast.message)).toEqual([
      '1 member(s) removed',
      'Member(s) cannot be removed (member might be owner or already removed)',
    ]);
    expect(toasts[1]?.kind).toBe('warning');
  });

  it('nothing removed: only the spec message, once', () => {
    const toasts = describeBulkRemoveOutcome({
      message: TEAM_MESSAGES.membersNotRemoved,
      removed_count: 0,
      not_removed_message: TEAM_MESSAGES.membersNotRemoved,
    });
    expect(toasts).toHaveLength(1);
    expect(toasts[0]?.message).toBe('Member(s) cannot be removed (member might be owner or already removed)');
    const fromMessage = describeBulkRemoveOutcome({ message: TEAM_MESSAGES.membersNotRemoved, removed_count: 0, not_removed_message: null });
    expect(fromMessage.map((toast) => toast.message)).toEqual([TEAM_MESSAGES.membersNotRemoved]);
  });
});
