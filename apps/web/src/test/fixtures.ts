import type { TLoginData, TUserProfile } from '@verilead/contracts';

/** A complete profile as the server would answer it (test data only). */
export function buildProfile(overrides: Partial<TUserProfile> = {}): TUserProfile {
  const limits = { daily: { limit: null, used: 0, remaining: null }, life_time: { limit: null, used: 0, remaining: null } };
  return {
    id: 'user-1',
    name: 'Olivia Owner',
    email: 'olivia@acme.test',
    pending_email: null,
    address: null,
    isEmailVerified: true,
    credits: 5000,
    locale: 'en',
    timezone: 'UTC',
    payment: { stripe: { is_valid_card: false } },
    integrations: [],
    user_role: 'owner',
    org_id: 'org-1',
    user_type: 'organisation',
    organisation: {
      id: 'org-1',
      name: 'Acme',
      org_website_url: null,
      org_tel: null,
      credits: 5000,
      limits,
      recur: null,
      plan: { user_create_limit: 5 },
    },
    show_daily_limits: false,
    current_plan: {
      plan_id: 'free',
      name: 'Free',
      interval: 'free',
      credits: 100,
      price: 0,
      currency: 'USD',
      user_create_limit: 5,
      started_on: null,
      renews_on: null,
      seats: null,
      cancel_at_period_end: false,
      ends_on: null,
      pending_upgrade: null,
    },
    phone_number: null,
    activated_on: '2026-01-02T10:00:00.000Z',
    recur: null,
    performance_stats: {},
    limits,
    has_password: true,
    dashboard_type: 'individual',
    announcement_timestamp: 0,
    last_password_updated: null,
    restoreId: null,
    low_credit_alert: { enabled: false, threshold: 100 },
    org_low_credit_alert: { enabled: false, threshold: 100 },
    has_api_key: false,
    ...overrides,
  };
}

export function buildLogin(overrides: Partial<TUserProfile> = {}): TLoginData {
  return { token: 'token-abc', user: buildProfile(overrides) };
}
