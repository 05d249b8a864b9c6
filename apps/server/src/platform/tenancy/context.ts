import { getVisibleOwnerId, type TRole } from '@verilead/contracts';

/** Who is calling: every tenant-scoped query takes this and filters by `orgId`. */
export type TCallerContext = {
  userId: string;
  orgId: string;
  role: TRole;
  /** The login session behind the call (null when an API key was used). */
  sessionId: string | null;
  via: 'session' | 'api_key';
};

/** The scope of member objects (lists, searches, files) a caller sees: `userId` is set when the role sees only its own. */
export type TVisibleScope = { orgId: string; userId?: string };

/**
 * The visibility rule of the authorisation table (MEMBER_OBJECT_VISIBILITY) as a query scope, for list pages and
 * by-id lookups alike. A context without a role (a job acting for the object's owner) sees the whole organisation.
 */
export function getVisibleScope(ctx: { orgId: string; userId?: string; role?: TRole }): TVisibleScope {
  const userId = ctx.role && ctx.userId ? getVisibleOwnerId(ctx.role, ctx.userId) : undefined;
  return userId ? { orgId: ctx.orgId, userId } : { orgId: ctx.orgId };
}
