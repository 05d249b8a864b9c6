// The session's starting values without zod: the web's session store (on every page) needs only these.
import type { TUserSession } from './user-profile';

export const DEFAULT_USER_SESSION: TUserSession = {
  name: 'User',
  jwtToken: null,
  isLogged: false,
  isEmailVerified: false,
  dashboard_type: 'individual',
  announcement_timestamp: 0,
};
