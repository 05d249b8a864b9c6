import type {
  TApiKeyData,
  TCurrentPlan,
  TDeleteAccountRequest,
  TLowCreditAlert,
  TLowCreditAlertUpdateRequest,
  TPlanInterval,
  TUpgradeData,
  TUserProfile,
  TUserType,
  ZAddressEditRequest,
  ZUpgradeRequest,
} from '@verilead/contracts';
import { recordAudit } from '../../platform/audit/record';
import type { z } from 'zod';
import { hashPassword, verifyPassword } from '../../platform/auth/passwords';
import { deleteUserTokens, issueOneTimeToken, consumeOneTimeToken, voidOneTimeTokens } from '../../platform/auth/one-time-tokens';
import { API_KEY_PREFIX, revokeUserSessions } from '../../platform/auth/sessions';
import { generateToken } from '../../platform/auth/tokens';
import { getMemberLimits } from '../../platform/credits/ledger';
import type { TDb } from '../../platform/db/database';
import type { TDeps } from '../../platform/deps';
import { AppError } from '../../platform/errors/app-error';
import { toIso } from '../../platform/http/dates';
import type { TCallerContext } from '../../platform/tenancy/context';
import { eraseUserActivities, recordActivity } from '../activities';
import { getSubscribedPlan, type TSubscribedPlan } from '../billing';
import {
  countOtherActiveMembers,
  deleteApiKey,
  insertUpgradeRequest,
  selectPendingUpgrade,
  selectProfileRow,
  selectUserByEmail,
  selectUserById,
  selectUserWithOrg,
  updateMembershipStatus,
  updateOrg,
  updateUser,
  upsertApiKey,
} from './queries';
import { getPublicBaseUrl } from '../../platform/http/public-url';

const PLAN_NAMES: Record<TPlanInterval, string> = { free: 'Free', one_time: 'One time', monthly: 'Monthly', annual: 'Annual' };

function addMonths(d: Date, months: number): Date {
  const r = new Date(d);
  r.setUTCMonth(r.getUTCMonth() + months);
  return r;
}

type TOrgRow = NonNullable<Awaited<ReturnType<typeof selectUserWithOrg>>>['org'];

async function buildCurrentPlan(exec: TDb, org: TOrgRow): Promise<TCurrentPlan> {
  return buildPlan(org, await selectPendingUpgrade(exec, org.id), await getSubscribedPlan(exec, org.id));
}

/**
 * The current plan: the plan subscribed to (its name, price, credits and seats, the period it renews or ends on) when
 * there is one, else the organisation's plan interval (free, or credits bought once).
 */
function buildPlan(org: TOrgRow, pending: { id: string; targetPlan: string; createdAt: Date } | null, subscribed: TSubscribedPlan | null): TCurrentPlan {
  const interval = org.planInterval;
  const renews = interval === 'monthly' ? addMonths(org.planStartedAt, 1) : interval === 'annual' ? addMonths(org.planStartedAt, 12) : null;
  const upgrade = pending ? { request_id: pending.id, target_plan: pending.targetPlan as TPlanInterval, requested_on: pending.createdAt.toISOString() } : null;
  if (subscribed) {
    return {
      plan_id: subscribed.planId,
      name: subscribed.name,
      interval,
      credits: subscribed.credits,
      price: subscribed.price,
      currency: subscribed.currency,
      user_create_limit: org.userCreateLimit,
      seats: subscribed.seats,
      started_on: toIso(subscribed.periodStart),
      renews_on: subscribed.cancelAtPeriodEnd ? null : toIso(subscribed.periodEnd),
      cancel_at_period_end: subscribed.cancelAtPeriodEnd,
      ends_on: subscribed.cancelAtPeriodEnd ? toIso(subscribed.periodEnd) : null,
      pending_upgrade: upgrade,
    };
  }
  return {
    plan_id: interval,
    name: PLAN_NAMES[interval],
    interval,
    credits: org.recurCredits ?? 0,
    price: 0,
    currency: 'USD',
    user_create_limit: org.userCreateLimit,
    seats: null,
    started_on: toIso(org.planStartedAt),
    renews_on: toIso(renews),
    cancel_at_period_end: false,
    ends_on: null,
    pending_upgrade: upgrade,
  };
}

/** The full profile of the caller (the spec's user session without the client-only fields). */
export async function getProfile(exec: TDb, ctx: Pick<TCallerContext, 'userId' | 'orgId'>): Promise<TUserProfile> {
  const row = await selectProfileRow(exec, ctx.orgId, ctx.userId);
  if (!row || row.user.deletedAt) throw new AppError('not_found', 'User not found');
  const { user, membership, org } = row;
  const balance = org.creditsBalance;
  // The ledger's view of the limits: a daily change waiting for tomorrow and today's remaining allowance included.
  const limits = await getMemberLimits(exec, ctx.orgId, ctx.userId);
  const pending = row.pendingUpgrade;
  const plan = buildPlan(org, pending ? { id: pending.id, targetPlan: pending.target_plan, createdAt: new Date(pending.created_at) } : null, await getSubscribedPlan(exec, ctx.orgId));
  const available = Math.min(balance, limits.daily.remaining ?? Infinity, limits.life_time.remaining ?? Infinity);
  const recur = org.recurCredits !== null && org.recurInterval ? { credits: org.recurCredits, interval: org.recurInterval as 'monthly' | 'annual' } : null;
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    pending_email: user.pendingEmail,
    address: user.address ?? null,
    isEmailVerified: user.emailVerifiedAt !== null,
    credits: available,
    locale: user.locale,
    timezone: user.timezone,
    payment: { stripe: { is_valid_card: false } },
    integrations: [],
    user_role: membership.role,
    org_id: org.id,
    user_type: (membership.role === 'owner' ? 'organisation' : 'individual') as TUserType,
    organisation: {
      id: org.id,
      name: org.name,
      org_website_url: org.websiteUrl,
      org_tel: org.tel,
      credits: balance,
      limits,
      recur,
      plan: { user_create_limit: org.userCreateLimit },
    },
    show_daily_limits: limits.daily.limit !== null,
    current_plan: plan,
    phone_number: user.phoneNumber,
    activated_on: toIso(user.emailVerifiedAt),
    recur,
    performance_stats: {},
    limits,
    has_password: user.passwordHash !== null,
    dashboard_type: user.dashboardType,
    announcement_timestamp: Number(row.announcementTs),
    last_password_updated: toIso(user.passwordUpdatedAt),
    restoreId: user.restoreId,
    low_credit_alert: { enabled: user.lowCreditAlertEnabled, threshold: user.lowCreditThreshold },
    org_low_credit_alert: { enabled: org.lowCreditAlertEnabled, threshold: org.lowCreditThreshold },
    has_api_key: row.hasApiKey,
  };
}

async function requireUser(exec: TDb, userId: string) {
  const user = await selectUserById(exec, userId);
  if (!user || user.deletedAt) throw new AppError('not_found', 'User not found');
  return user;
}

export async function requirePassword(exec: TDb, userId: string, password: string, field: string) {
  const user = await requireUser(exec, userId);
  if (!(await verifyPassword(user.passwordHash, password))) {
    throw new AppError('wrong_password', 'The password is not correct', { reasons: [{ field, location: 'body', messages: ['The password is not correct'] }] });
  }
  return user;
}

/** Updates simple profile fields, records the activity, and answers the new profile. */
export async function editProfileFields(
  deps: TDeps,
  ctx: TCallerContext,
  values: { name?: string; phoneNumber?: string; address?: z.output<typeof ZAddressEditRequest>['address']; timezone?: string; restoreId?: string },
  description: string,
): Promise<TUserProfile> {
  await deps.database.transaction(async (tx) => {
    await requireUser(tx, ctx.userId);
    await updateUser(tx, ctx.userId, values);
    if (values.restoreId === undefined) {
      await recordActivity(tx, { orgId: ctx.orgId, userId: ctx.userId, type: 'profile_update', description, metadata: { fields: Object.keys(values) } });
    }
  });
  return getProfile(deps.database.db, ctx);
}

/** Starts an e-mail change: checks the password, keeps the address pending and mails a confirmation link to it. */
export async function requestEmailChange(deps: TDeps, ctx: TCallerContext, input: { email: string; password: string }) {
  const user = await requirePassword(deps.database.db, ctx.userId, input.password, 'password');
  if (input.email === user.email) {
    throw new AppError('validation_failed', 'This is already your e-mail address', {
      reasons: [{ field: 'email', location: 'body', messages: ['This is already your e-mail address'] }],
    });
  }
  const taken = await selectUserByEmail(deps.database.db, input.email);
  if (taken) {
    throw new AppError('email_already_registered', 'This e-mail address is already in use', {
      reasons: [{ field: 'email', location: 'body', messages: ['This e-mail address is already in use'] }],
    });
  }
  await deps.database.transaction(async (tx) => {
    await updateUser(tx, ctx.userId, { pendingEmail: input.email });
    const token = await issueOneTimeToken(tx, ctx.userId, 'email_change', { email: input.email });
    await deps.mailer.send(
      { to: input.email, template: 'email_change', vars: { name: user.name, url: `${getPublicBaseUrl(deps.config)}/emailverification?token=${encodeURIComponent(token)}` } },
      { tx, orgId: ctx.orgId, userId: ctx.userId },
    );
    await recordActivity(tx, { orgId: ctx.orgId, userId: ctx.userId, type: 'email_change', description: 'Requested an e-mail change', metadata: { to: input.email } });
  });
  return { message: `We have sent a confirmation link to ${input.email}`, pending_email: input.email };
}

/** Applies an e-mail change from its token; the reset and verification links mailed to the old address are voided. */
export async function confirmEmailChange(deps: TDeps, token: string) {
  return deps.database.transaction(async (tx) => {
    const row = await consumeOneTimeToken(tx, token, ['email_change']);
    const email = row?.data.email;
    if (!row || !email) {
      throw new AppError('invalid_token', 'This link is invalid or has expired', { reasons: [{ field: 'token', location: 'body', messages: ['Invalid or expired token'] }] });
    }
    const user = await requireUser(tx, row.userId);
    const taken = await selectUserByEmail(tx, email);
    if (taken && taken.id !== user.id) throw new AppError('email_already_registered', 'This e-mail address is already in use');
    await updateUser(tx, user.id, { email, pendingEmail: null, emailVerifiedAt: new Date() });
    // The links mailed to the old address stop working: whoever reads that mailbox no longer resets the password.
    await voidOneTimeTokens(tx, user.id, ['password_reset', 'email_verification']);
    return { message: 'Your e-mail address has been updated', email };
  });
}

export async function changePassword(deps: TDeps, ctx: TCallerContext, input: { current_password: string; new_password: string }) {
  const user = await requirePassword(deps.database.db, ctx.userId, input.current_password, 'current_password');
  if (input.current_password === input.new_password) {
    throw new AppError('same_password', 'The new password must differ from the current one', {
      reasons: [{ field: 'new_password', location: 'body', messages: ['The new password must differ from the current one'] }],
    });
  }
  const hash = await hashPassword(input.new_password);
  await deps.database.transaction(async (tx) => {
    await updateUser(tx, user.id, { passwordHash: hash, passwordUpdatedAt: new Date() });
    await revokeUserSessions(tx, user.id, ctx.sessionId);
    await recordActivity(tx, { orgId: ctx.orgId, userId: ctx.userId, type: 'password_change', description: 'Changed the password' });
  });
  return { message: 'Your password has been changed' };
}

/** Creates or rotates the user's API key; the key is answered once and only its hash is kept. */
export async function generateApiKey(deps: TDeps, ctx: TCallerContext): Promise<TApiKeyData> {
  const { token, hash } = generateToken(API_KEY_PREFIX);
  const prefix = token.slice(0, 10);
  const row = await deps.database.transaction(async (tx) => {
    const r = await upsertApiKey(tx, { userId: ctx.userId, orgId: ctx.orgId, keyHash: hash, prefix });
    await recordActivity(tx, { orgId: ctx.orgId, userId: ctx.userId, type: 'api_key', description: 'Generated a new API key', metadata: { prefix } });
    return r;
  });
  return { api_key: token, prefix, created_at: row.createdAt.toISOString(), message: 'Copy your API key now: it will not be shown again' };
}

export async function getCurrentPlan(exec: TDb, ctx: TCallerContext): Promise<TCurrentPlan> {
  const row = await selectUserWithOrg(exec, ctx.orgId, ctx.userId);
  if (!row) throw new AppError('not_found', 'User not found');
  return buildCurrentPlan(exec, row.org);
}

/** Records an upgrade request (billing fulfils it); nothing is charged here. */
export async function requestUpgrade(deps: TDeps, ctx: TCallerContext, input: z.output<typeof ZUpgradeRequest>): Promise<TUpgradeData> {
  const row = await selectUserWithOrg(deps.database.db, ctx.orgId, ctx.userId);
  if (!row) throw new AppError('not_found', 'User not found');
  const current = row.org.planInterval;
  if (current === input.plan && input.plan !== 'one_time') {
    throw new AppError('conflict', `You are already on the ${PLAN_NAMES[current]} plan`, {
      reasons: [{ field: 'plan', location: 'body', messages: ['This is your current plan'] }],
    });
  }
  const req = await deps.database.transaction(async (tx) => {
    const r = await insertUpgradeRequest(tx, {
      orgId: ctx.orgId,
      userId: ctx.userId,
      currentPlan: current,
      targetPlan: input.plan,
      credits: input.credits ?? null,
      seats: input.seats ?? null,
      currency: input.currency,
    });
    await recordActivity(tx, { orgId: ctx.orgId, userId: ctx.userId, type: 'upgrade_request', description: `Requested the ${PLAN_NAMES[input.plan]} plan` });
    return r;
  });
  return {
    request_id: req.id,
    status: 'requested',
    current_plan: current,
    target_plan: input.plan,
    credits: req.credits,
    seats: req.seats,
    currency: input.currency,
    message: `Your request for the ${PLAN_NAMES[input.plan]} plan is recorded; complete the payment on the pricing page to activate it.`,
  };
}

export async function updateUserLowCreditAlert(deps: TDeps, ctx: TCallerContext, input: TLowCreditAlertUpdateRequest): Promise<TLowCreditAlert> {
  await deps.database.transaction(async (tx) => {
    await updateUser(tx, ctx.userId, { lowCreditAlertEnabled: input.enabled, lowCreditThreshold: input.threshold });
    await recordActivity(tx, { orgId: ctx.orgId, userId: ctx.userId, type: 'low_credit_alert', description: 'Updated the low credit alert', metadata: { ...input } });
  });
  return { enabled: input.enabled, threshold: input.threshold };
}

export async function updateOrgLowCreditAlert(deps: TDeps, ctx: TCallerContext, input: TLowCreditAlertUpdateRequest): Promise<TLowCreditAlert> {
  await deps.database.transaction(async (tx) => {
    await updateOrg(tx, ctx.orgId, { lowCreditAlertEnabled: input.enabled, lowCreditThreshold: input.threshold });
    await recordActivity(tx, {
      orgId: ctx.orgId,
      userId: ctx.userId,
      type: 'low_credit_alert',
      description: 'Updated the organisation low credit alert',
      metadata: { ...input, scope: 'organisation' },
    });
  });
  return { enabled: input.enabled, threshold: input.threshold };
}

/**
 * Deletes the caller's account: personal data is erased (activities, tokens, API key) or anonymised
 * (the user row keeps only an id for the ledger), sessions are revoked and the membership removed.
 */
export async function deleteAccount(deps: TDeps, ctx: TCallerContext, input: TDeleteAccountRequest) {
  await requirePassword(deps.database.db, ctx.userId, input.password, 'password');
  if (ctx.role === 'owner' && (await countOtherActiveMembers(deps.database.db, ctx.orgId, ctx.userId)) > 0) {
    throw new AppError('owner_has_active_members', 'Remove or deactivate the other members of your organisation before deleting the owner account');
  }
  await deps.database.transaction(async (tx) => {
    await updateUser(tx, ctx.userId, {
      email: `deleted-${ctx.userId}@deleted.invalid`,
      name: 'Deleted user',
      passwordHash: null,
      pendingEmail: null,
      phoneNumber: null,
      address: null,
      restoreId: null,
      signupSourceOther: null,
      deletedAt: new Date(),
      deletionReason: input.reason,
      deletionReasonOther: input.reason_other ?? null,
    });
    await updateMembershipStatus(tx, ctx.orgId, ctx.userId, 'removed');
    await revokeUserSessions(tx, ctx.userId);
    await deleteApiKey(tx, ctx.userId);
    await deleteUserTokens(tx, ctx.userId);
    await eraseUserActivities(tx, ctx.userId);
    // after the erasure: the entry names the anonymised address, not the person's
    await recordAudit(tx, ctx, { action: 'account.deleted', targetType: 'user', targetId: ctx.userId, details: { reason: input.reason } });
  });
  return { message: 'Your account has been deleted' };
}
