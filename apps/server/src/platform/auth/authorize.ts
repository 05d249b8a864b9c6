import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql, type SQL } from 'drizzle-orm';
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
import { selectRows, type TDb } from '../db/database';
import { AppError, AppErrorWithStatus } from '../errors/app-error';
import { SESSION_EXPIRED_MESSAGE } from './guards';
import { API_KEY_PREFIX, resolveBearer } from './sessions';
import { hashToken } from './tokens';

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
  const rows = token.startsWith(`${API_KEY_PREFIX}_`)
    ? await selectRows<{ status: string }>(
        db,
        sql`select m.status from api_keys k join users u on u.id = k.user_id
            join memberships m on m.user_id = k.user_id and m.org_id = k.org_id
            where k.key_hash = ${hash} and u.deleted_at is null limit 1`,
      )
    : await selectRows<{ status: string }>(
        db,
        sql`select m.status from sessions s join users u on u.id = s.user_id join memberships m on m.user_id = s.user_id
            where s.token_hash = ${hash} and s.revoked_at is null and s.expires_at > now() and u.deleted_at is null limit 1`,
      );
  if (rows[0]?.status === 'inactive') return new AppErrorWithStatus(401, 'account_inactive', ACCOUNT_INACTIVE_MESSAGE);
  return new AppError('session_expired', SESSION_EXPIRED_MESSAGE);
}

function describeRoles(roles: readonly TRole[]): string {
  const labels = roles.map((role) => (role === 'owner' ? 'the owner' : `${ROLE_LABELS[role]}s`));
  return labels.length <= 1 ? (labels[0] ?? 'nobody') : `${labels.slice(0, -1).join(', ')} and ${labels[labels.length - 1]}`;
}

/**
 * Where each member object lives and what a 404 calls it: `owner` reads the object's organisation and the member who
 * created it (`org_id`, `user_id`) for an id. Apps act as, and were created by, `user_id`; webhooks keep `created_by`
 * (null for those made before issue 27: owners' and Managers' only); a delivery is its webhook's.
 */
const MEMBER_OBJECTS: Readonly<Record<TMemberObjectKind, { owner: (id: string) => SQL; label: string }>> = {
  verify_list: { owner: (id) => sql`select org_id, user_id from verify_lists where id = ${id}::uuid`, label: 'List' },
  finder_list: { owner: (id) => sql`select org_id, user_id from finder_lists where id = ${id}::uuid`, label: 'List' },
  finder_search: { owner: (id) => sql`select org_id, user_id from finder_instant where id = ${id}::uuid`, label: 'Search' },
  download: { owner: (id) => sql`select org_id, user_id from downloads where id = ${id}::uuid`, label: 'Download' },
  app: { owner: (id) => sql`select org_id, user_id from apps where id = ${id}::uuid`, label: 'App' },
  webhook: { owner: (id) => sql`select org_id, created_by as user_id from webhooks where id = ${id}::uuid`, label: 'Webhook' },
  webhook_delivery: {
    owner: (id) => sql`select d.org_id, w.created_by as user_id from webhook_deliveries d join webhooks w on w.id = d.webhook_id where d.id = ${id}::uuid`,
    label: 'Event log',
  },
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
  const { owner, label } = MEMBER_OBJECTS[ref.kind as TMemberObjectKind];
  const notFound = new AppError('not_found', `${label} not found`);
  if (typeof id !== 'string' || !UUID_PATTERN.test(id)) throw notFound;
  const rows = await selectRows<{ org_id: string; user_id: string | null }>(db, sql`${owner(id)} limit 1`);
  const row = rows[0];
  const caller = request.caller;
  if (!row || row.org_id !== caller.orgId || !canSeeMemberObject(caller.role, caller.userId, row.user_id ?? '')) throw notFound;
}

/**
 * Checks the authorisation table (contracts/authorization.ts) for every API request, on the matched
 * route, before the body is parsed or validated. Fail closed: a route missing from the table answers
 * 403 to everyone. Non-public routes authenticate here (setting `request.caller`); an inactive
 * member's token answers 401 account_inactive, an unknown/revoked one 401 session_expired. By-id routes then
 * answer 404 for an object the caller may not see (checkObjectVisibility).
 */
export function registerAuthorization(app: FastifyInstance, db: TDb): void {
  app.addHook('onRequest', async (request) => {
    const pattern = request.routeOptions.url;
    if (!pattern || !pattern.startsWith(API_BASE_PATH)) return;
    const method = request.method;
    const rule = findApiRule(method, pattern);
    if (!rule) {
      throw new AppError('forbidden', `${method} ${pattern.slice(API_BASE_PATH.length)} is not in the authorisation table, so nobody may call it`);
    }
    if (rule.access === 'public') return;
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
