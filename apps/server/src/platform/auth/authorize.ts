import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  API_BASE_PATH,
  OBJECT_OWNERSHIP,
  ROLE_LABELS,
  canSeeMemberObject,
  findApiRule,
  getRuleRoles,
  isApiAllowed,
  type TMemberObjectKind,
  type TRole,
} from '@verilead/contracts';
import type { TDb } from '../db/database';
import { AppError, AppErrorWithStatus } from '../errors/app-error';
import { SESSION_EXPIRED_MESSAGE } from './guards';
import { selectMemberObjectOwner } from './authorize-queries';
import { selectRefusedApiKey, selectRefusedSession } from './session-queries';
import { API_KEY_PREFIX, ORG_SUSPENDED_MESSAGE, USER_SUSPENDED_MESSAGE, resolveBearer } from './sessions';
import { hashToken } from './tokens';

/**
 * Authenticates an operator session (the operator console's guard, given by the composition root: platform does not
 * import features): sets `request.operator`, or throws 401 (no or dead session) / 403 (a customer token).
 */
export type TAuthenticateOperator = (request: FastifyRequest) => Promise<void>;

export const ACCOUNT_INACTIVE_MESSAGE = 'Your account is not active. Please contact the owner of your organisation.';

function readBearer(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(header.trim());
  return match?.[1] ?? null;
}

/**
 * Why a bearer token did not resolve. Always 401 (the session no longer works and the app signs out),
 * but an inactive member's token says so with code account_inactive and a readable message.
 */
async function explainRefusedBearer(db: TDb, token: string): Promise<AppError> {
  const hash = hashToken(token);
  const row = token.startsWith(`${API_KEY_PREFIX}_`) ? await selectRefusedApiKey(db, hash) : await selectRefusedSession(db, hash);
  if (row?.user_suspended) return new AppErrorWithStatus(401, 'account_suspended', USER_SUSPENDED_MESSAGE);
  if (row?.org_suspended) return new AppErrorWithStatus(401, 'account_suspended', ORG_SUSPENDED_MESSAGE);
  if (row?.status === 'inactive') return new AppErrorWithStatus(401, 'account_inactive', ACCOUNT_INACTIVE_MESSAGE);
  return new AppError('session_expired', SESSION_EXPIRED_MESSAGE);
}

function describeRoles(roles: readonly TRole[]): string {
  const labels = roles.map((role) => (role === 'owner' ? 'the owner' : `${ROLE_LABELS[role]}s`));
  return labels.length <= 1 ? (labels[0] ?? 'nobody') : `${labels.slice(0, -1).join(', ')} and ${labels[labels.length - 1]}`;
}

/** What a 404 calls each member object. */
const MEMBER_OBJECT_LABELS: Readonly<Record<TMemberObjectKind, string>> = {
  verify_list: 'List',
  finder_list: 'List',
  finder_search: 'Search',
  download: 'Download',
  app: 'App',
  webhook: 'Webhook',
  webhook_delivery: 'Event log',
};

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Object visibility of a by-id route (the rule's `object`): a member object the caller may not see (another
 * organisation's, or another member's when the caller's role sees only their own) answers 404, as a missing one.
 * Organisation objects are checked by their services (organisation scope only).
 */
async function checkObjectVisibility(db: TDb, request: FastifyRequest, ref: NonNullable<ReturnType<typeof findApiRule>>['object']): Promise<void> {
  if (!ref || OBJECT_OWNERSHIP[ref.kind] !== 'member' || !request.caller) return;
  const source = (ref.from === 'body' ? request.body : ref.from === 'query' ? request.query : request.params) as Record<string, unknown> | null | undefined;
  const id = source?.[ref.field];
  if (id === undefined || id === null) return; // an optional id (the service decides)
  const kind = ref.kind as TMemberObjectKind;
  const label = MEMBER_OBJECT_LABELS[kind];
  const notFound = new AppError('not_found', `${label} not found`);
  if (typeof id !== 'string' || !UUID_PATTERN.test(id)) throw notFound;
  const row = await selectMemberObjectOwner(db, kind, id);
  const caller = request.caller;
  if (!row || row.org_id !== caller.orgId || !canSeeMemberObject(caller.role, caller.userId, row.user_id ?? '')) throw notFound;
}

/**
 * Checks the authorisation table (contracts/authorization.ts) for every API request, on the matched
 * route, before the body is parsed or validated. Fail closed: a route missing from the table answers
 * 403 to everyone. Operator routes authenticate an operator session here (`authenticateOperator`; refused without it).
 * Other non-public routes authenticate here (setting `request.caller`); an inactive
 * member's token answers 401 account_inactive, an unknown/revoked one 401 session_expired. By-id routes then
 * answer 404 for an object the caller may not see (checkObjectVisibility).
 */
export function registerAuthorization(app: FastifyInstance, db: TDb, opts: { authenticateOperator?: TAuthenticateOperator } = {}): void {
  app.addHook('onRequest', async (request) => {
    const pattern = request.routeOptions.url;
    if (!pattern || !pattern.startsWith(API_BASE_PATH)) return;
    const method = request.method;
    const rule = findApiRule(method, pattern);
    if (!rule) {
      throw new AppError('forbidden', `${method} ${pattern.slice(API_BASE_PATH.length)} is not in the authorisation table, so nobody may call it`);
    }
    if (rule.access === 'public') return;
    // Operator console routes: the operator session is checked here, for every one of them (deny by default: a route
    // without its own operator guard refuses all the same). No operator check given: nobody may call them.
    if (rule.access === 'operator') {
      if (!opts.authenticateOperator) throw new AppError('forbidden', `${method} ${pattern.slice(API_BASE_PATH.length)} is an operator route and this server checks no operator sessions`);
      await opts.authenticateOperator(request);
      return;
    }
    if (!request.caller) {
      const token = readBearer(request);
      if (!token || token.length > 200) throw new AppError('session_expired', SESSION_EXPIRED_MESSAGE);
      const caller = await resolveBearer(db, token);
      if (!caller) throw await explainRefusedBearer(db, token);
      request.caller = caller;
    }
    const role = request.caller.role;
    if (!isApiAllowed(method, pattern, role, (request.params ?? {}) as Record<string, unknown>)) {
      const allowed = getRuleRoles(rule).includes(role) ? ['owner' as const] : getRuleRoles(rule);
      throw new AppError('forbidden', `You do not have permission to do this: it is for ${describeRoles(allowed)} only (you are ${ROLE_LABELS[role]}).`);
    }
  });
  // By-id routes: once the request is validated, the object named by the id must be one the caller may see.
  app.addHook('preHandler', async (request) => {
    const pattern = request.routeOptions.url;
    if (!pattern || !pattern.startsWith(API_BASE_PATH)) return;
    const rule = findApiRule(request.method, pattern);
    if (rule?.object) await checkObjectVisibility(db, request, rule.object);
  });
}
