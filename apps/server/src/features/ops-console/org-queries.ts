import { sql, type SQL } from 'drizzle-orm';
import { selectRows, type TDb } from '../../platform/db/database';

type TOrgRow = {
  id: string;
  name: string;
  owner_email: string | null;
  members: number;
  credits_balance: number;
  plan_interval: string;
  suspended_at: Date | string | null;
  support_access_until: Date | string | null;
  created_at: Date | string;
};

const ORG_COLUMNS = sql`o.id, o.name, o.credits_balance, o.plan_interval, o.suspended_at, o.support_access_until, o.created_at,
  (select u.email from memberships m join users u on u.id = m.user_id where m.org_id = o.id and m.role = 'owner' limit 1) as owner_email,
  (select count(*)::int from memberships m where m.org_id = o.id and m.status <> 'removed') as members`;

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** Organisations whose name, or a member's e-mail (so also its domain), contains `q`; newest first. */
export async function searchOrganisations(db: TDb, input: { q?: string; limit: number; offset: number }) {
  const pattern = input.q ? `%${escapeLike(input.q.toLowerCase())}%` : null;
  const where: SQL = pattern
    ? sql`where lower(o.name) like ${pattern} or exists (select 1 from memberships m join users u on u.id = m.user_id where m.org_id = o.id and m.status <> 'removed' and lower(u.email) like ${pattern})`
    : sql``;
  const [items, total] = await Promise.all([
    selectRows<TOrgRow>(db, sql`select ${ORG_COLUMNS} from organisations o ${where} order by o.created_at desc, o.id limit ${input.limit} offset ${input.offset}`),
    selectRows<{ n: number }>(db, sql`select count(*)::int as n from organisations o ${where}`),
  ]);
  return { items, total: total[0]?.n ?? 0 };
}

export async function selectOrganisation(db: TDb, orgId: string): Promise<TOrgRow | null> {
  const rows = await selectRows<TOrgRow>(db, sql`select ${ORG_COLUMNS} from organisations o where o.id = ${orgId}::uuid`);
  return rows[0] ?? null;
}

export type TMemberRow = {
  user_id: string;
  email: string;
  name: string;
  role: string;
  status: string;
  suspended_at: Date | string | null;
  last_sign_in_at: Date | string | null;
  open_sessions: number;
};

export async function selectMembers(db: TDb, orgId: string): Promise<TMemberRow[]> {
  return selectRows<TMemberRow>(
    db,
    sql`select u.id as user_id, u.email, u.name, m.role, m.status, u.suspended_at,
          (select max(s.created_at) from sessions s where s.user_id = u.id) as last_sign_in_at,
          (select count(*)::int from sessions s where s.user_id = u.id and s.revoked_at is null and s.expires_at > now()) as open_sessions
        from memberships m join users u on u.id = m.user_id
        where m.org_id = ${orgId}::uuid and m.status <> 'removed' and u.deleted_at is null
        order by (m.role = 'owner') desc, u.email`,
  );
}

/** What the organisation did in the last 30 days, as counts only. */
export async function selectActivityCounts(db: TDb, orgId: string) {
  const rows = await selectRows<{ verify_lists: number; finder_lists: number; credits_used: number }>(
    db,
    sql`select
          (select count(*)::int from verify_lists where org_id = ${orgId}::uuid and created_at > now() - interval '30 days') as verify_lists,
          (select count(*)::int from finder_lists where org_id = ${orgId}::uuid and created_at > now() - interval '30 days') as finder_lists,
          (select coalesce(sum(amount), 0)::int from credit_transactions where org_id = ${orgId}::uuid and kind = 'charge' and created_at > now() - interval '30 days') as credits_used`,
  );
  return rows[0] ?? { verify_lists: 0, finder_lists: 0, credits_used: 0 };
}

export async function selectRecentAdjustments(db: TDb, orgId: string) {
  return selectRows<{ id: string; amount: number; reason: string; balance_after: number; operator_email: string | null; created_at: Date | string }>(
    db,
    sql`select a.id, a.amount, a.reason, a.balance_after, o.email as operator_email, a.created_at
        from operator_credit_adjustments a left join operators o on o.id = a.operator_id
        where a.org_id = ${orgId}::uuid order by a.created_at desc limit 10`,
  );
}

/** The organisation's member `userId` (not removed), or null: a user of another organisation is not found. */
export async function selectMember(db: TDb, orgId: string, userId: string): Promise<{ email: string; suspended: boolean } | null> {
  const rows = await selectRows<{ email: string; suspended_at: unknown }>(
    db,
    sql`select u.email, u.suspended_at from memberships m join users u on u.id = m.user_id
        where m.org_id = ${orgId}::uuid and m.user_id = ${userId}::uuid and m.status <> 'removed' and u.deleted_at is null limit 1`,
  );
  const row = rows[0];
  return row ? { email: row.email, suspended: row.suspended_at !== null } : null;
}

/** Every organisation the user is a member of (not removed): a user-wide action is recorded in each one's audit log. */
export async function selectUserOrgIds(db: TDb, userId: string): Promise<string[]> {
  const rows = await selectRows<{ org_id: string }>(db, sql`select org_id from memberships where user_id = ${userId}::uuid and status <> 'removed' order by org_id`);
  return rows.map((r) => r.org_id);
}

export async function setUserSuspended(db: TDb, userId: string, suspended: boolean): Promise<void> {
  await db.execute(sql`update users set suspended_at = ${suspended ? sql`now()` : sql`null`} where id = ${userId}::uuid`);
}

export async function setOrganisationSuspended(db: TDb, orgId: string, suspended: boolean): Promise<void> {
  await db.execute(sql`update organisations set suspended_at = ${suspended ? sql`now()` : sql`null`} where id = ${orgId}::uuid`);
}

/** Revokes every open session of a user; answers how many. */
export async function revokeAllUserSessions(db: TDb, userId: string): Promise<number> {
  const rows = await selectRows<{ id: string }>(
    db,
    sql`update sessions set revoked_at = now() where user_id = ${userId}::uuid and revoked_at is null and expires_at > now() returning id`,
  );
  return rows.length;
}

export async function setSupportAccessUntil(db: TDb, orgId: string, until: Date | null): Promise<void> {
  await db.execute(sql`update organisations set support_access_until = ${until ? sql`${until.toISOString()}::timestamptz` : sql`null`} where id = ${orgId}::uuid`);
}

/** The organisation's bulk verifier lists (names, states, counters): shown only while support access is granted. */
export async function selectOrgLists(db: TDb, orgId: string) {
  return selectRows<{ id: string; name: string; state: string; rows: number; created_at: Date | string; counters: Record<string, unknown> | null }>(
    db,
    sql`select id, name, state, row_count as rows, created_at, counters from verify_lists where org_id = ${orgId}::uuid order by created_at desc limit 50`,
  );
}
