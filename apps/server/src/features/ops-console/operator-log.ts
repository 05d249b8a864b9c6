import type { TDatabase } from '../../platform/db/database';
import { selectOperatorActions } from './queries';

/** The operator-side log, newest first (optionally of one organisation). */
export async function listOperatorActions(deps: { database: TDatabase }, query: { page: number; limit: number; org_id?: string }) {
  const { items, total } = await selectOperatorActions(deps.database.db, { orgId: query.org_id, limit: query.limit, offset: (query.page - 1) * query.limit });
  return {
    items: items.map((r) => ({
      id: r.id,
      operator_email: r.operatorEmail,
      action: r.action,
      org_id: r.orgId,
      target_type: r.targetType,
      target_id: r.targetId,
      details: r.details,
      created_at: r.createdAt.toISOString(),
    })),
    total,
    page: query.page,
    limit: query.limit,
  };
}
