import { ZPasswordExpiredInfo, type TLoginData, type TLoginRequest } from '@verilead/contracts';
import { isApiError } from '../../../lib/api-error';
import { isFirstLogin, loginUser } from './auth-api';

export type TLoginOutcome =
  | { kind: 'logged-in'; data: TLoginData; firstLogin: boolean }
  | { kind: 'password-expired'; changeToken: string };

/**
 * Logs in and tells a first login from the others; an expired password answers its change token instead of an error.
 * The log-in screen loads this module when its form is first used, so the response schemas are not part of what
 * the page downloads before it can be filled in (issue 12). Other failures are thrown as ApiError.
 */
export async function logIn(values: TLoginRequest): Promise<TLoginOutcome> {
  try {
    const data = await loginUser(values);
    return { kind: 'logged-in', data, firstLogin: await isFirstLogin(data.token) };
  } catch (error) {
    if (isApiError(error) && error.code === 'password_expired') {
      const info = ZPasswordExpiredInfo.safeParse(error.additionalInfo);
      if (info.success) return { kind: 'password-expired', changeToken: info.data.change_token };
    }
    throw error;
  }
}
