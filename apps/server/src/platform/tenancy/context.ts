import type { TRole } from '@verilead/contracts';

/** Who is calling: every tenant-scoped query takes this and filters by `orgId`. */
export type TCallerContext = {
  userId: string;
  orgId: string;
  role: TRole;
  /** The login session behind the call (null when an API key was used). */
  sessionId: string | null;
  via: 'session' | 'api_key';
};
