import { sql, type SQL } from 'drizzle-orm';
import type { TMemberObjectKind } from '@verilead/contracts';
import { selectRows, type TDb } from '../db/database';

/**
 * Where each member object lives: `owner` reads the object's organisation and the member who created it (`org_id`,
 * `user_id`) for an id. Apps act as, and were created by, `user_id`; webhooks keep `created_by` (null for those made
 * before issue 27: owners' and Managers' only); a delivery is its webhook's.
 */
const MEMBER_OBJECT_OWNERS: Readonly<Record<TMemberObjectKind, (id: string) => SQL>> = {
  verify_list: (id) => sql`select org_id, user_id from verify_lists where id = ${id}::uuid`,
  finder_list: (id) => sql`select org_id, user_id from finder_lists where id = ${id}::uuid`,
  finder_search: (id) => sql`select org_id, user_id from finder_instant where id = ${id}::uuid`,
  download: (id) => sql`select org_id, user_id from downloads where id = ${id}::uuid`,
  app: (id) => sql`select org_id, user_id from apps where id = ${id}::uuid`,
  webhook: (id) => sql`select org_id, created_by as user_id from webhooks where id = ${id}::uuid`,
  webhook_delivery: (id) => sql`select d.org_id, w.created_by as user_id from webhook_deliveries d join webhooks w on w.id = d.webhook_id where d.id = ${id}::uuid`,
};

/** The organisation and creating member of a member object (id already checked as a uuid), or undefined when missing. */
export async function selectMemberObjectOwner(db: TDb, kind: TMemberObjectKind, id: string): Promise<{ org_id: string; user_id: string | null } | undefined> {
  const rows = await selectRows<{ org_id: string; user_id: string | null }>(db, sql`${MEMBER_OBJECT_OWNERS[kind](id)} limit 1`);
  return rows[0];
}
