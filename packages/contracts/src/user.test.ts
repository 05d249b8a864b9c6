import { describe, expect, it } from 'vitest';
import {
  ZActivitiesRequest,
  ZCreditTransactionsQuery,
  ZDeleteAccountRequest,
  ZFailure,
  ZSignupRequest,
  ZSuccess,
  ZTimezoneEditRequest,
  ZUserSession,
  DEFAULT_USER_SESSION,
  ROLE_LABELS,
} from './index';
import { z } from 'zod';

describe('user contracts', () => {
  it('requires signup_source_other when the source is others', () => {
    const base = { name: 'Ada Lovelace', email: 'Ada@Example.test', password: 'Str0ngPass' };
    expect(ZSignupRequest.safeParse({ ...base, signup_source: 'friends' }).success).toBe(true);
    const bad = ZSignupRequest.safeParse({ ...base, signup_source: 'others' });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.path).toEqual(['signup_source_other']);
    const ok = ZSignupRequest.parse({ ...base, signup_source: 'others', signup_source_other: 'a podcast' });
    expect(ok.email).toBe('ada@example.test');
  });

  it('enforces the password policy', () => {
    const base = { name: 'Ada', email: 'a@b.test', signup_source: 'friends' };
    for (const password of ['short1A', 'alllowercase1', 'ALLUPPER1', 'NoDigitsHere']) {
      expect(ZSignupRequest.safeParse({ ...base, password }).success).toBe(false);
    }
  });

  it('accepts only the spec page sizes and coerces query strings', () => {
    expect(ZCreditTransactionsQuery.parse({ page: '2', limit: '50' })).toMatchObject({ page: 2, limit: 50 });
    expect(ZCreditTransactionsQuery.safeParse({ limit: '30' }).success).toBe(false);
    expect(ZActivitiesRequest.parse({})).toMatchObject({ page: 1, limit: 25 });
  });

  it('validates time zones and deletion reasons', () => {
    expect(ZTimezoneEditRequest.safeParse({ timezone: 'Europe/Paris' }).success).toBe(true);
    expect(ZTimezoneEditRequest.safeParse({ timezone: 'Mars/Olympus' }).success).toBe(false);
    expect(ZDeleteAccountRequest.safeParse({ reason: 'others', password: 'x' }).success).toBe(false);
    expect(ZDeleteAccountRequest.safeParse({ reason: 'alternative_found', password: 'x' }).success).toBe(true);
  });

  it('describes envelopes and the default session', () => {
    expect(ZSuccess(z.number()).parse({ status: 'success', data: 1 }).data).toBe(1);
    expect(ZFailure.safeParse({ status: 'failed', error: { code: 'x', message: 'y', reasons: [{ field: 'a', location: 'body', messages: ['m'] }] } }).success).toBe(true);
    expect(ZUserSession.parse(DEFAULT_USER_SESSION).name).toBe('User');
    expect(ROLE_LABELS.admin).toBe('Manager');
    expect(ROLE_LABELS.analyst).toBe('Executive');
  });
});
