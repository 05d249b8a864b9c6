import type { TActivateData, TActivateRequest, TLoginData, TRole, TSignupData, TSignupSource, TTokenKind, TVerifyTokenData } from '@verilead/contracts';
import { recordAudit } from '../../platform/audit/record';
import { consumeOneTimeToken, findOneTimeToken, issueOneTimeToken } from '../../platform/auth/one-time-tokens';
import { hashPassword, verifyPassword } from '../../platform/auth/passwords';
import { signInLockedError, takeSignInAttempt } from '../../platform/auth/sign-in-limit';
import { createSession, findSuspension, revokeSession, revokeUserSessions } from '../../platform/auth/sessions';
import { generateToken, hashToken } from '../../platform/auth/tokens';
import { grantCredits } from '../../platform/credits/ledger';
import { SIGNUP_BONUS_CREDITS } from '../../platform/credits/signup-bonus';
import type { TDeps } from '../../platform/deps';
import { AppError } from '../../platform/errors/app-error';
import type { TCallerContext } from '../../platform/tenancy/context';
import { selectUserWithMembership } from '../../platform/tenancy/members';
import { getProfile } from '../account';
import { recordActivity } from '../activities';
import { assertPasswordLoginAllowed } from '../sso';
import {
  insertMembership,
  insertOrganisation,
  insertUser,
  markEmailVerified,
  selectMembership,
  selectLastVerificationLinkAt,
  selectOrgName,
  selectUserEmail,
  selectUserForReminder,
  setUserPassword,
} from './queries';
import { getPublicBaseUrl } from '../../platform/http/public-url';

const GENERIC_LOGIN_ERROR = 'Invalid email or password';
const FORGOT_PASSWORD_ANSWER = 'If an account exists for this e-mail, we have sent a link to reset the password. It expires in 1 hour.';

function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; cause?: { code?: string } };
  return e?.code === '23505' || e?.cause?.code === '23505';
}

function invalidToken(field = 'token'): AppError {
  return new AppError('invalid_token', 'This link is invalid or has expired', {
    reasons: [{ field, location: 'body', messages: ['Invalid or expired token'] }],
  });
}

function link(deps: TDeps, path: string, token: string): string {
  return `${getPublicBaseUrl(deps.config)}${path}?token=${encodeURIComponent(token)}`;
}

/** How long after sign-up the verification link also signs the sign-up browser in (then it only verifies). */
export const SIGNUP_SIGN_IN_TTL_MS = 3600_000;

/**
 * The one answer of a sign-up, for a new address and for one that has an account already: sign-up never tells
 * whether an address is registered (as login and forgot-password do not). `signInKey` is the browser's key: for a new
 * account its hash sits on the verification token; otherwise it is random and opens nothing.
 */
export function signupAnswer(email: string, signInKey: string): TSignupData {
  return {
    message:
      `We sent a message to ${email}. If this is a new account, you can log in now and verify your address with the link in it; ` +
      'if the address already has an account, the message tells you how to log in or reset your password.',
    email,
    sign_in_key: signInKey,
  };
}

/**
 * Creates an organisation with the user as owner and mails the verification link. For an address that has an account
 * already, nothing is created: its owner gets a mail saying someone tried to sign up, with a sign-in and a reset link,
 * and the caller gets the same answer as a new sign-up (the password is hashed either way, so the time taken is alike).
 */
export async function signup(
  deps: TDeps,
  input: { name: string; email: string; password: string; signup_source: TSignupSource; signup_source_other?: string },
): Promise<TSignupData> {
  const existing = await selectUserWithMembership(deps.database.db, input.email);
  const passwordHash = await hashPassword(input.password);
  // Made for every sign-up alike; only a new account's verification token carries its hash.
  const signIn = generateToken('vlk', 24);
  if (existing) {
    await mailSignupAttempt(deps, existing);
    return signupAnswer(input.email, signIn.token);
  }
  try {
    return await deps.database.transaction(async (tx) => {
      const org = await insertOrganisation(tx, { name: `${input.name}'s organisation` });
      const user = await insertUser(tx, {
        email: input.email,
        name: input.name,
        passwordHash,
        passwordUpdatedAt: new Date(),
        signupSource: input.signup_source,
        signupSourceOther: input.signup_source === 'others' ? (input.signup_source_other ?? null) : null,
      });
      await insertMembership(tx, { orgId: org.id, userId: user.id, role: 'owner' });
      await grantCredits(tx, { orgId: org.id, userId: user.id, amount: SIGNUP_BONUS_CREDITS, reason: 'Sign-up bonus' });
      const token = await issueOneTimeToken(tx, user.id, 'email_verification', {
        sign_in_key_hash: signIn.hash,
        sign_in_until: new Date(Date.now() + SIGNUP_SIGN_IN_TTL_MS).toISOString(),
      });
      await deps.mailer.send(
        { to: user.email, template: 'email_verification', vars: { name: user.name, url: link(deps, '/emailverification', token) } },
        { tx, orgId: org.id, userId: user.id },
      );
      await recordActivity(tx, { orgId: org.id, userId: user.id, type: 'signup', description: 'Signed up' });
      return signupAnswer(user.email, signIn.token);
    });
  } catch (err) {
    // Two sign-ups of one new address at once: the second finds the first's account, and answers alike.
    if (isUniqueViolation(err)) return signupAnswer(input.email, generateToken('vlk', 24).token);
    throw err;
  }
}

/** Tells an account's owner that someone tried to sign up with its address (a reset link as forgot-password mails). */
async function mailSignupAttempt(deps: TDeps, candidate: NonNullable<Awaited<ReturnType<typeof selectUserWithMembership>>>) {
  const { user, membership } = candidate;
  if (user.deletedAt || membership?.status !== 'active') return;
  await deps.database.transaction(async (tx) => {
    const token = await issueOneTimeToken(tx, user.id, 'password_reset');
    await deps.mailer.send(
      { to: user.email, template: 'signup_existing_account', vars: { name: user.name, url: link(deps, '/resetpassword', token) } },
      { tx, orgId: membership.orgId, userId: user.id },
    );
  });
}

/** True when `key` is the sign-up browser's key stored on this verification token, and still in time. */
function opensSession(data: Record<string, string>, key: string | undefined): boolean {
  if (!key || !data.sign_in_key_hash || !data.sign_in_until) return false;
  return hashToken(key) === data.sign_in_key_hash && Date.now() < Date.parse(data.sign_in_until);
}

/**
 * Marks the e-mail verified from the link's token. With the key of the browser that signed up (ZSignupData), within
 * SIGNUP_SIGN_IN_TTL_MS of the sign-up, it also opens a session there: for the account the token verifies only (the
 * key's hash is on that account's token), once (the token is consumed here), and only where a password sign-in would
 * be allowed (an active membership, not suspended, no "SSO only"). The key alone opens nothing; the token alone only
 * verifies.
 */
export async function activate(deps: TDeps, input: TActivateRequest, meta: { ip?: string; userAgent?: string } = {}): Promise<TActivateData> {
  const opened = await deps.database.transaction(async (tx) => {
    const row = await consumeOneTimeToken(tx, input.token, ['email_verification']);
    if (!row) throw invalidToken();
    await markEmailVerified(tx, row.userId);
    const candidate = await selectMembership(tx, row.userId);
    if (candidate) await recordActivity(tx, { orgId: candidate.orgId, userId: row.userId, type: 'email_verified', description: 'Verified the e-mail address' });
    const email = (await selectUserEmail(tx, row.userId)) ?? '';
    let session: { token: string; ctx: { userId: string; orgId: string } } | null = null;
    const mayOpen =
      candidate?.status === 'active' &&
      opensSession(row.data, input.sign_in_key) &&
      (await isPasswordLoginAllowed(tx, candidate)) &&
      // a suspended account is verified all the same, and signs in nowhere
      !(await findSuspension(tx, row.userId));
    if (candidate && mayOpen) {
      const ctx = { userId: row.userId, orgId: candidate.orgId };
      const s = await createSession(tx, row.userId);
      await recordActivity(tx, { ...ctx, type: 'login', description: 'Logged in', metadata: { ip: meta.ip ?? null, user_agent: meta.userAgent ?? null, via: 'email_verification_link' } });
      await recordAudit(tx, { ...ctx, ip: meta.ip }, { action: 'auth.sign_in', targetType: 'user', targetId: row.userId, details: { method: 'email_verification_link' } });
      session = { token: s.token, ctx };
    }
    return { email, session };
  });
  const login = opened.session ? { token: opened.session.token, user: await getProfile(deps.database.db, opened.session.ctx) } : null;
  return { message: 'Your e-mail address is verified', email: opened.email, isEmailVerified: true, login };
}

/** Whether the membership may sign in with a password (an organisation with "SSO only" refuses it). */
async function isPasswordLoginAllowed(db: Parameters<typeof assertPasswordLoginAllowed>[0], membership: Parameters<typeof assertPasswordLoginAllowed>[1]): Promise<boolean> {
  try {
    await assertPasswordLoginAllowed(db, membership);
    return true;
  } catch {
    return false;
  }
}

/** Says whether a token is usable and for what, without consuming it. */
export async function verifyToken(deps: TDeps, input: { token: string; kind?: TTokenKind }): Promise<TVerifyTokenData> {
  const row = await findOneTimeToken(deps.database.db, input.token);
  if (!row) return { valid: false, kind: null, email: null, expires_at: null, reason: 'not_found' };
  const kind = row.kind;
  const base = { kind, expires_at: row.expiresAt.toISOString() };
  const email = kind === 'email_change' ? (row.data.email ?? null) : await selectUserEmail(deps.database.db, row.userId);
  if (input.kind && input.kind !== kind) return { ...base, valid: false, email: null, reason: 'wrong_kind' };
  if (row.usedAt) return { ...base, valid: false, email, reason: 'used' };
  if (row.expiresAt.getTime() <= Date.now()) return { ...base, valid: false, email, reason: 'expired' };
  return { ...base, valid: true, email, reason: 'ok' };
}

/** Checks the password and opens a session. Unknown e-mail and wrong password answer the same. */
export async function login(deps: TDeps, input: { email: string; password: string }, meta: { ip?: string; userAgent?: string }): Promise<TLoginData> {
  const db = deps.database.db;
  const candidate = await selectUserWithMembership(db, input.email);
  const user = candidate?.user;
  // the per-account limit: a distributed guesser passes the route's per-address limit, not this one
  const attempt = await takeSignInAttempt(deps.database, 'user', input.email);
  if (!attempt) throw signInLockedError();
  const passwordOk = await verifyPassword(user?.passwordHash, input.password);
  if (user && !passwordOk && candidate.membership) await recordAudit(db, { orgId: candidate.membership.orgId, userId: user.id, ip: meta.ip }, { action: 'auth.sign_in_failed', targetType: 'user', targetId: user.id, details: { method: 'password' } });
  if (!user || !passwordOk || user.deletedAt) throw new AppError('invalid_credentials', GENERIC_LOGIN_ERROR);
  await attempt.succeeded(db);
  const membership = candidate.membership;
  if (!membership || membership.status !== 'active') {
    throw new AppError('account_inactive', 'Your account is not active. Please contact the owner of your organisation.');
  }
  await assertPasswordLoginAllowed(db, membership);
  const maxAgeMs = deps.config.passwordMaxAgeDays * 24 * 3600_000;
  if (user.passwordUpdatedAt && Date.now() - user.passwordUpdatedAt.getTime() > maxAgeMs) {
    const changeToken = await issueOneTimeToken(db, user.id, 'password_change');
    throw new AppError('password_expired', 'Your password has expired. Please choose a new one.', {
      additional_info: { change_token: changeToken },
    });
  }
  const ctx = { userId: user.id, orgId: membership.orgId };
  const token = await deps.database.transaction(async (tx) => {
    const s = await createSession(tx, user.id);
    await recordActivity(tx, { ...ctx, type: 'login', description: 'Logged in', metadata: { ip: meta.ip ?? null, user_agent: meta.userAgent ?? null } });
    await recordAudit(tx, { ...ctx, ip: meta.ip }, { action: 'auth.sign_in', targetType: 'user', targetId: user.id, details: { method: 'password' } });
    return s.token;
  });
  return { token, user: await getProfile(db, ctx) };
}

export async function logout(deps: TDeps, ctx: TCallerContext) {
  await deps.database.transaction(async (tx) => {
    if (ctx.sessionId) await revokeSession(tx, ctx.sessionId);
    await recordActivity(tx, { orgId: ctx.orgId, userId: ctx.userId, type: 'logout', description: 'Logged out' });
  });
  return { message: 'You have been logged out' };
}

/** Always answers the same; mails a single-use reset link (1 h) when the account exists. */
/** A new verification link is sent at most once a minute. */
export const VERIFICATION_RESEND_INTERVAL_MS = 60_000;

/** POST /user/resend_verification: mails a new verification link to the caller's unverified address. */
export async function resendVerification(deps: TDeps, ctx: TCallerContext): Promise<{ message: string }> {
  return deps.database.transaction(async (tx) => {
    const user = await selectUserForReminder(tx, ctx.userId);
    if (!user) throw new AppError('not_found', 'This account does not exist');
    if (user.verifiedAt) throw new AppError('conflict', 'Your email address is already verified.');
    const last = await selectLastVerificationLinkAt(tx, ctx.userId);
    const wait = last ? Math.ceil((last.getTime() + VERIFICATION_RESEND_INTERVAL_MS - Date.now()) / 1000) : 0;
    if (wait > 0) throw new AppError('rate_limited', `A link was sent less than a minute ago; please check your inbox or try again in ${wait} seconds.`, { additional_info: { retry_after: wait } });
    const token = await issueOneTimeToken(tx, ctx.userId, 'email_verification');
    await deps.mailer.send({ to: user.email, template: 'email_verification', vars: { name: user.name, url: link(deps, '/emailverification', token) } }, { tx, orgId: ctx.orgId, userId: ctx.userId });
    return { message: `We sent a new verification link to ${user.email}.` };
  });
}

export async function forgotPassword(deps: TDeps, email: string) {
  const candidate = await selectUserWithMembership(deps.database.db, email);
  const user = candidate?.user;
  if (user && !user.deletedAt && candidate.membership?.status === 'active') {
    await deps.database.transaction(async (tx) => {
      const token = await issueOneTimeToken(tx, user.id, 'password_reset');
      await deps.mailer.send(
        { to: user.email, template: 'password_reset', vars: { name: user.name, url: link(deps, '/resetpassword', token) } },
        { tx, orgId: candidate.membership?.orgId ?? null, userId: user.id },
      );
    });
  }
  return { message: FORGOT_PASSWORD_ANSWER };
}

/** Sets a new password from a reset token (or an expired-password change token); revokes every session. */
export async function resetPassword(deps: TDeps, input: { token: string; password: string }) {
  const passwordHash = await hashPassword(input.password);
  await deps.database.transaction(async (tx) => {
    const row = await consumeOneTimeToken(tx, input.token, ['password_reset', 'password_change']);
    if (!row) throw invalidToken();
    // Following a mailed link proves the mailbox, so a reset also verifies the address.
    await setUserPassword(tx, row.userId, passwordHash, row.kind === 'password_reset' ? { emailVerifiedAt: new Date() } : {});
    await revokeUserSessions(tx, row.userId);
    const m = await selectMembership(tx, row.userId);
    if (m) await recordActivity(tx, { orgId: m.orgId, userId: row.userId, type: 'password_reset', description: 'Reset the password' });
  });
  return { message: 'Your password has been changed. Please log in with the new password.' };
}

/** An invited member sets the first password with the invitation token. */
export async function setupPassword(deps: TDeps, input: { token: string; password: string; name?: string }) {
  const passwordHash = await hashPassword(input.password);
  await deps.database.transaction(async (tx) => {
    const row = await consumeOneTimeToken(tx, input.token, ['setup_password']);
    if (!row) throw invalidToken();
    await setUserPassword(tx, row.userId, passwordHash, { emailVerifiedAt: new Date(), ...(input.name ? { name: input.name } : {}) });
    const m = await selectMembership(tx, row.userId);
    if (m) await recordActivity(tx, { orgId: m.orgId, userId: row.userId, type: 'password_setup', description: 'Set up the password' });
  });
  return { message: 'Your password is set. You can log in now.' };
}

/**
 * Adds a member to the caller's organisation without a password and mails the setup-password link
 * (used by team administration).
 */
export async function inviteMember(deps: TDeps, ctx: TCallerContext, input: { email: string; name: string; role: Exclude<TRole, 'owner'> }) {
  const existing = await selectUserWithMembership(deps.database.db, input.email);
  if (existing) {
    throw new AppError('email_already_registered', 'A user with this e-mail already exists', {
      reasons: [{ field: 'email', location: 'body', messages: ['A user with this e-mail already exists'] }],
    });
  }
  return deps.database.transaction(async (tx) => {
    const user = await insertUser(tx, { email: input.email, name: input.name });
    await insertMembership(tx, { orgId: ctx.orgId, userId: user.id, role: input.role });
    const token = await issueOneTimeToken(tx, user.id, 'setup_password');
    const orgName = (await selectOrgName(tx, ctx.orgId)) ?? undefined;
    await deps.mailer.send(
      { to: user.email, template: 'setup_password', vars: { name: user.name, url: link(deps, '/setup_password', token), orgName } },
      { tx, orgId: ctx.orgId, userId: user.id },
    );
    return { userId: user.id };
  });
}
