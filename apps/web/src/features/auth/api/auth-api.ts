import { useMutation, useQuery } from '@tanstack/react-query';
import {
  ZActivitiesData,
  ZActivateData,
  ZEmailUpdateData,
  ZLoginData,
  ZLoginRequest,
  ZMessageData,
  ZSignupData,
  ZVerifyTokenData,
  type TForgotPasswordRequest,
  type TLoginData,
  type TLoginRequest,
  type TPasswordSetupRequest,
  type TResetPasswordRequest,
  type TSignupRequest,
  type TTokenKind,
} from '@verilead/contracts';
import { requestApi } from '../../../lib/api-client';
import { ApiError } from '../../../lib/api-error';

export function loginUser(body: TLoginRequest) {
  return requestApi({ method: 'POST', path: '/user/login', body: ZLoginRequest.parse(body), schema: ZLoginData, auth: false });
}

export function useLogin() {
  return useMutation({ mutationFn: loginUser });
}

export function useSignup() {
  return useMutation({
    mutationFn: (body: TSignupRequest) =>
      requestApi({ method: 'POST', path: '/user/signup', body, schema: ZSignupData, auth: false }),
  });
}

export function useForgotPassword() {
  return useMutation({
    mutationFn: (body: TForgotPasswordRequest) =>
      requestApi({ method: 'POST', path: '/user/forgot-password', body, schema: ZMessageData, auth: false }),
  });
}

export function useResetPassword() {
  return useMutation({
    mutationFn: (body: TResetPasswordRequest) =>
      requestApi({ method: 'POST', path: '/user/reset-password', body, schema: ZMessageData, auth: false }),
  });
}

export function useSetupPassword() {
  return useMutation({
    mutationFn: (body: TPasswordSetupRequest) =>
      requestApi({ method: 'POST', path: '/user/password/setup', body, schema: ZMessageData, auth: false }),
  });
}

/** POST /user/verify_token: is a mailed token still usable, and for what. */
export function useVerifyToken(token: string, kind?: TTokenKind) {
  return useQuery({
    queryKey: ['auth', 'verify-token', token, kind ?? null],
    queryFn: ({ signal }) =>
      requestApi({ method: 'POST', path: '/user/verify_token', body: { token, kind }, schema: ZVerifyTokenData, auth: false, signal }),
    enabled: token.length > 0,
    staleTime: Infinity,
  });
}

export type TEmailVerificationOutcome = {
  kind: 'email_verification' | 'email_change';
  email: string;
  message: string;
  /** A session opened by the link in the browser that signed up (with its sign-in key), and whether it is the first. */
  login: { data: TLoginData; firstLogin: boolean } | null;
};

/**
 * Follows an e-mail link: activates a new account (with the sign-up browser's key, which signs this browser in), or
 * confirms a changed address.
 */
export async function confirmEmailToken(token: string, signInKey?: string): Promise<TEmailVerificationOutcome> {
  const check = await requestApi({ method: 'POST', path: '/user/verify_token', body: { token }, schema: ZVerifyTokenData, auth: false });
  if (!check.valid) throw new ApiError({ status: 400, code: check.reason, message: describeTokenProblem(check.reason) });
  if (check.kind === 'email_change') {
    const changed = await requestApi({
      method: 'POST',
      path: '/user/email/update',
      body: { token },
      schema: ZEmailUpdateData,
      auth: false,
    });
    return { kind: 'email_change', email: changed.email, message: changed.message, login: null };
  }
  const body = signInKey ? { token, sign_in_key: signInKey } : { token };
  const activated = await requestApi({ method: 'POST', path: '/user/activate', body, schema: ZActivateData, auth: false });
  const login = activated.login ? { data: activated.login, firstLogin: await isFirstLogin(activated.login.token) } : null;
  return { kind: 'email_verification', email: activated.email, message: activated.message, login };
}

/** Runs the e-mail confirmation once per token (a query, so a double mount does not spend the token twice). */
export function useEmailConfirmation(token: string, signInKey?: string) {
  return useQuery({
    queryKey: ['auth', 'email-confirmation', token],
    queryFn: () => confirmEmailToken(token, signInKey),
    enabled: token.length > 0,
    staleTime: Infinity,
    gcTime: Infinity,
    retry: false,
  });
}

/** Words for a token that cannot be used. */
export function describeTokenProblem(reason: string): string {
  switch (reason) {
    case 'expired':
      return 'This link has expired. Please request a new one.';
    case 'used':
      return 'This link has already been used.';
    default:
      return 'This link is not valid. Please check that you copied it completely.';
  }
}

/** True when the account's log holds a single login: the one that just happened (false if it cannot tell). */
export async function isFirstLogin(token: string): Promise<boolean> {
  try {
    const logins = await requestApi({
      method: 'POST',
      path: '/user/activities',
      body: { page: 1, limit: 25, type: 'login' },
      schema: ZActivitiesData,
      bearer: token,
    });
    return logins.total <= 1;
  } catch {
    return false;
  }
}
