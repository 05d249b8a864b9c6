import { sql } from 'drizzle-orm';
import { selectRows, type TDb } from '../db/database';

/** Why an organisation's bulk work waits while an operator has suspended the organisation or the work's owner. */
export const PAUSED_ORG_SUSPENDED = 'Paused: the organisation is suspended by Verilead support. It goes on by itself once the organisation is restored.';
export const PAUSED_USER_SUSPENDED = "Paused: the list owner's account is suspended by Verilead support. It goes on by itself once the account is restored.";

/**
 * The pause reason of each of `userIds`' work in organisation `orgId` (only those paused): the organisation's
 * suspension for everyone, else the member's own.
 */
export async function selectPausedOwners(exec: TDb, orgId: string, userIds: readonly string[]): Promise<Map<string, string>> {
  const paused = new Map<string, string>();
  if (userIds.length === 0) return paused;
  const ids = [...new Set(userIds)];
  const rows = await selectRows<{ id: string; org: boolean; user: boolean }>(
    exec,
    sql`select u.id, (select suspended_at is not null from organisations where id = ${orgId}) as org, u.suspended_at is not null as user
          from users u where u.id in (${sql.join(
            ids.map((id) => sql`${id}::uuid`),
            sql`, `,
          )})`,
  );
  for (const r of rows) {
    if (r.org) paused.set(r.id, PAUSED_ORG_SUSPENDED);
    else if (r.user) paused.set(r.id, PAUSED_USER_SUSPENDED);
  }
  return paused;
}
