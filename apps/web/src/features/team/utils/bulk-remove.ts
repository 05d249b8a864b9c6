import { TEAM_MESSAGES, type TBulkRemoveData, type TMember } from '@verilead/contracts';
import type { TToastKind } from '../../../lib/toast';

export type TToastSpec = { title: string; message: string; kind: TToastKind };

/** Why a member cannot be removed (spec sections 4 and 5), or null when they can. */
export function getRemovalBlock(member: Pick<TMember, 'role' | 'status'>): string | null {
  if (member.role === 'owner') return TEAM_MESSAGES.ownerCannotBeRemoved;
  if (member.status === 'removed') return 'This member is already removed';
  return null;
}

/** Splits a selection into members that can be removed and those the server will skip. */
export function splitBulkSelection<T extends Pick<TMember, 'member_id' | 'role' | 'status'>>(
  members: readonly T[],
): { removable: T[]; blocked: T[] } {
  const removable: T[] = [];
  const blocked: T[] = [];
  for (const member of members) (getRemovalBlock(member) ? blocked : removable).push(member);
  return { removable, blocked };
}

/**
 * The toasts of a bulk remove answer: "N member(s) removed" when any went, and the spec's
 * "Member(s) cannot be removed (...)" when owners or already-removed members were in the selection.
 */
export function describeBulkRemoveOutcome(data: Pick<TBulkRemoveData, 'message' | 'removed_count' | 'not_removed_message'>): TToastSpec[] {
  const toasts: TToastSpec[] = [];
  if (data.removed_count > 0) toasts.push({ title: 'Members removed', message: data.message, kind: 'success' });
  const notRemoved = data.not_removed_message ?? (data.removed_count === 0 ? data.message : null);
  if (notRemoved) toasts.push({ title: data.removed_count > 0 ? 'Some members were kept' : 'Nothing removed', message: notRemoved, kind: 'warning' });
  return toasts;
}
