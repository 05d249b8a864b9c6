import type { TAssignableRole, TMember, TMemberEditRequest, TMemberLimitDetails } from '@verilead/contracts';
import { formatDayLabel, formatNumber } from '../../../lib/format';

/** What the limits form holds: null means unlimited (limits) or "leave today as it is" (remaining). */
export type TLimitDraft = {
  daily: number | null;
  life_time: number | null;
  /** Today's remaining daily credits, adjusted now; null keeps today's figure. */
  daily_remaining: number | null;
};

export type TLimitEffect = { field: keyof TLimitDraft; tone: 'info' | 'warning'; text: string };

export const DAILY_LIMIT_TIMING = 'The new daily limit applies from tomorrow.';
export const REMAINING_DAILY_TIMING = 'Applies now and resets tomorrow to the daily limit.';

function describeLimit(value: number | null): string {
  return value === null ? 'unlimited' : formatNumber(value);
}

/** The daily limit the member will have from tomorrow: a pending change, else today's. */
export function getUpcomingDailyLimit(limits: TMemberLimitDetails): number | null {
  return limits.daily.next_limit ? limits.daily.next_limit.limit : limits.daily.limit;
}

/** The draft the form opens with: the limits that will apply (pending daily change included), today untouched. */
export function createLimitDraft(limits: TMemberLimitDetails): TLimitDraft {
  return { daily: getUpcomingDailyLimit(limits), life_time: limits.life_time.limit, daily_remaining: null };
}

/** A pending daily limit change, in words ("500 from Tomorrow"), or null. */
export function describePendingDailyLimit(limits: TMemberLimitDetails, now: Date = new Date()): string | null {
  const next = limits.daily.next_limit;
  if (!next) return null;
  return `${describeLimit(next.limit)} from ${formatDayLabel(next.from, now).toLowerCase()}`;
}

/**
 * What saving the draft will do, in words: a daily limit change waits for tomorrow, a change of
 * today's remaining credits applies at once and resets tomorrow, a lifetime limit applies at once.
 */
export function describeLimitEffects(current: TMemberLimitDetails, draft: TLimitDraft): TLimitEffect[] {
  const effects: TLimitEffect[] = [];
  const upcoming = getUpcomingDailyLimit(current);
  if (draft.daily !== upcoming) {
    const today = current.daily.limit === null ? 'Today stays unlimited' : `Today keeps ${describeLimit(current.daily.remaining)} left`;
    effects.push({
      field: 'daily',
      tone: 'info',
      text: `Daily limit ${describeLimit(upcoming)} → ${describeLimit(draft.daily)}. ${DAILY_LIMIT_TIMING} ${today}.`,
    });
  }
  if (draft.daily_remaining !== null) {
    effects.push({
      field: 'daily_remaining',
      tone: 'info',
      text: `Today's remaining credits become ${formatNumber(draft.daily_remaining)}. ${REMAINING_DAILY_TIMING}`,
    });
  }
  if (draft.life_time !== current.life_time.limit) {
    const exhausted = draft.life_time !== null && draft.life_time <= current.life_time.used;
    effects.push({
      field: 'life_time',
      tone: exhausted ? 'warning' : 'info',
      text: exhausted
        ? `Lifetime limit ${describeLimit(draft.life_time)} is at or below the ${formatNumber(current.life_time.used)} credits already used: the member cannot spend any more.`
        : `Lifetime limit ${describeLimit(current.life_time.limit)} → ${describeLimit(draft.life_time)}, applies now.`,
    });
  }
  return effects;
}

/** Field problems of the draft that the form shows before calling the server. */
export function validateLimitDraft(draft: TLimitDraft): Partial<Record<keyof TLimitDraft, string>> {
  const problems: Partial<Record<keyof TLimitDraft, string>> = {};
  for (const field of ['daily', 'life_time', 'daily_remaining'] as const) {
    const value = draft[field];
    if (value !== null && (!Number.isInteger(value) || value < 0)) problems[field] = 'Please enter a whole number of credits (0 or more)';
  }
  if (!problems.daily && !problems.life_time && draft.daily !== null && draft.life_time !== null && draft.daily > draft.life_time) {
    problems.daily = 'The daily limit cannot be higher than the lifetime limit';
  }
  return problems;
}

export type TMemberDraft = {
  name: string;
  /** Null for the owner, whose role cannot change. */
  role: TAssignableRole | null;
  team_id: string | null;
  limits: TLimitDraft;
};

/** The draft of the edit form, from the member as listed. */
export function createMemberDraft(member: TMember): TMemberDraft {
  return {
    name: member.name,
    role: member.role === 'owner' ? null : member.role,
    team_id: member.teams[0]?.id ?? null,
    limits: createLimitDraft(member.limits),
  };
}

/** The edit call for what changed in the draft only; null when nothing changed. */
export function buildMemberEditRequest(member: TMember, draft: TMemberDraft): TMemberEditRequest | null {
  const request: TMemberEditRequest = { member_id: member.member_id };
  let changed = false;
  const name = draft.name.trim();
  if (name.length > 0 && name !== member.name) {
    request.name = name;
    changed = true;
  }
  if (draft.role !== null && draft.role !== member.role) {
    request.role = draft.role;
    changed = true;
  }
  if (draft.team_id !== (member.teams[0]?.id ?? null)) {
    request.team_id = draft.team_id;
    changed = true;
  }
  if (draft.limits.daily !== getUpcomingDailyLimit(member.limits)) {
    request.daily_limit = draft.limits.daily;
    changed = true;
  }
  if (draft.limits.daily_remaining !== null) {
    request.daily_remaining = draft.limits.daily_remaining;
    changed = true;
  }
  if (draft.limits.life_time !== member.limits.life_time.limit) {
    request.life_time_limit = draft.limits.life_time;
    changed = true;
  }
  return changed ? request : null;
}
