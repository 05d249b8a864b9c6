import { describe, expect, it } from 'vitest';
import type { TMember, TMemberLimitDetails } from '@verilead/contracts';
import {
  DAILY_LIMIT_TIMING,
  REMAINING_DAILY_TIMING,
  buildMemberEditRequest,
  createLimitDraft,
  createMemberDraft,
  describeLimitEffects,
  describePendingDailyLimit,
  validateLimitDraft,
} from './limit-rules';

const current: TMemberLimitDetails = {
  daily: { limit: 100, used: 40, remaining: 60, next_limit: null, remaining_override: false },
  life_time: { limit: 1000, used: 400, remaining: 600 },
};

function buildMember(overrides: Partial<TMember> = {}): TMember {
  return {
    member_id: '6f0d1c9e-3f7a-4a53-9d55-6a3b1f1c2d01',
    name: 'Mia Manager',
    email: 'mia@acme.test',
    role: 'admin',
    status: 'active',
    has_password: true,
    teams: [{ id: 'team-1', name: 'Sales' }],
    limits: current,
    added_on: '2026-11-01T10:00:00.000Z',
    last_login_on: null,
    ...overrides,
  };
}

describe('limit effects', () => {
  it('opens with the current limits and today untouched, and no effects', () => {
    const draft = createLimitDraft(current);
    expect(draft).toEqual({ daily: 100, life_time: 1000, daily_remaining: null });
    expect(describeLimitEffects(current, draft)).toEqual([]);
  });

  it('a daily limit change applies from tomorrow and keeps today', () => {
    const effects = describeLimitEffects(current, { daily: 250, life_time: 1000, daily_remaining: null });
    expect(effects).toHaveLength(1);
    expect(effects[0]?.field).toBe('daily');
    expect(effects[0]?.text).toContain(DAILY_LIMIT_TIMING);
    expect(effects[0]?.text).toContain('100 → 250');
    expect(effects[0]?.text).toContain('Today keeps 60 left');
  });

  it('a remaining-daily adjustment applies now and resets tomorrow', () => {
    const effects = describeLimitEffects(current, { daily: 100, life_time: 1000, daily_remaining: 10 });
    expect(effects.map((effect) => effect.field)).toEqual(['daily_remaining']);
    expect(effects[0]?.text).toContain(REMAINING_DAILY_TIMING);
    expect(effects[0]?.text).toContain('become 10');
  });

  it('warns when a lifetime limit is already used up, and names unlimited', () => {
    const tight = describeLimitEffects(current, { daily: 100, life_time: 300, daily_remaining: null });
    expect(tight[0]?.tone).toBe('warning');
    const open = describeLimitEffects(current, { daily: null, life_time: null, daily_remaining: null });
    expect(open.map((effect) => effect.field)).toEqual(['daily', 'life_time']);
    expect(open[0]?.text).toContain('100 → unlimited');
    expect(open[1]?.tone).toBe('info');
  });

  it('a pending daily change is the starting point of the form and is described', () => {
    const pending: TMemberLimitDetails = {
      ...current,
      daily: { ...current.daily, next_limit: { limit: 500, from: '2026-11-23T12:00:00.000Z' } },
    };
    expect(createLimitDraft(pending).daily).toBe(500);
    expect(describeLimitEffects(pending, { daily: 500, life_time: 1000, daily_remaining: null })).toEqual([]);
    expect(describePendingDailyLimit(pending, new Date('2026-11-22T12:00:00.000Z'))).toBe('500 from tomorrow');
    expect(describePendingDailyLimit(current)).toBeNull();
  });
});

describe('limit validation', () => {
  it('rejects negative or fractional credits and a daily limit above the lifetime limit', () => {
    expect(validateLimitDraft({ daily: -1, life_time: null, daily_remaining: 1.5 })).toEqual({
      daily: 'Please enter a whole number of credits (0 or more)',
      daily_remaining: 'Please enter a whole number of credits (0 or more)',
    });
    expect(validateLimitDraft({ daily: 500, life_time: 100, daily_remaining: null }).daily).toBe(
      'The daily limit cannot be higher than the lifetime limit',
    );
    expect(validateLimitDraft({ daily: 100, life_time: null, daily_remaining: 0 })).toEqual({});
  });
});

describe('member edit request', () => {
  it('is null when nothing changed', () => {
    const member = buildMember();
    expect(buildMemberEditRequest(member, createMemberDraft(member))).toBeNull();
  });

  it('carries only what changed: role, team cleared, daily limit and today', () => {
    const member = buildMember();
    const draft = createMemberDraft(member);
    const request = buildMemberEditRequest(member, {
      ...draft,
      role: 'analyst',
      team_id: null,
      limits: { ...draft.limits, daily: 300, daily_remaining: 5 },
    });
    expect(request).toEqual({ member_id: member.member_id, role: 'analyst', team_id: null, daily_limit: 300, daily_remaining: 5 });
  });

  it('never sends a role for the owner and sends unlimited as null', () => {
    const owner = buildMember({ role: 'owner', teams: [] });
    const draft = createMemberDraft(owner);
    expect(draft.role).toBeNull();
    const request = buildMemberEditRequest(owner, { ...draft, name: ' Olivia ', limits: { ...draft.limits, life_time: null } });
    expect(request).toEqual({ member_id: owner.member_id, name: 'Olivia', life_time_limit: null });
  });
});
