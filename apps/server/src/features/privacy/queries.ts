import { eq, sql } from 'drizzle-orm';
import { selectRows, type TDb } from '../../platform/db/database';
import { organisations } from '../../platform/tenancy/tables';

/** The column every tenant-owned table carries (docs/ARCHITECTURE.md: "every tenant-owned row has org_id"). */
export const ORG_COLUMN = 'org_id';

/** A where-clause that picks an organisation's rows in one table (for paging and deletion below). */
export type TRowFilter = ReturnType<typeof sql>;

/** The organisation's own row in `organisations`. */
export function organisationRowFilter(orgId: string): TRowFilter {
  return sql`id = ${orgId}`;
}

/** The organisation's rows in a table with an `org_id` column. */
export function orgColumnFilter(orgId: string): TRowFilter {
  return sql`${ident(ORG_COLUMN)} = ${orgId}`;
}

/** The given users' rows in `users`. */
export function usersFilter(userIds: string[]): TRowFilter {
  return sql`id in (${sql.join(userIds.map((id) => sql`${id}::uuid`), sql`, `)})`;
}

/**
 * Tables without `org_id` whose rows belong to an organisation through a parent row and no foreign key (so no
 * cascade): each with the statement that selects the organisation's rows. Checked by the deletion test, which looks
 * for any row left in them.
 */
export const ORG_CHILD_TABLES: { table: string; where: (orgId: string) => TRowFilter }[] = [
  { table: 'verify_list_emails', where: (orgId) => sql`list_id in (select id from verify_lists where org_id = ${orgId})` },
];

/**
 * Every table of the application's schema with an `org_id` column, read from the database's own catalogue
 * (information_schema), never from a hand-written list: a table added later is exported and deleted with the rest.
 */
export async function selectOrgTables(exec: TDb): Promise<string[]> {
  const rows = await selectRows<{ table_name: string }>(
    exec,
    sql`select c.table_name from information_schema.columns c
          join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
         where c.table_schema = current_schema() and c.column_name = ${ORG_COLUMN} and t.table_type = 'BASE TABLE'
         order by c.table_name`,
  );
  return rows.map((r) => r.table_name);
}

/** Quotes an identifier read from the catalogue. */
export function ident(name: string) {
  return sql.raw(`"${name.replace(/"/g, '""')}"`);
}

export async function countOrgRows(exec: TDb, table: string, orgId: string): Promise<number> {
  const rows = await selectRows<{ n: number }>(exec, sql`select count(*)::int as n from ${ident(table)} where ${ident(ORG_COLUMN)} = ${orgId}`);
  return rows[0]?.n ?? 0;
}

/** A page of an organisation's rows of one table, as JSON (ordered by the row's physical position for stable paging). */
export async function selectOrgRowsPage(exec: TDb, table: string, where: TRowFilter, offset: number, limit: number) {
  return selectRows<{ row: Record<string, unknown> }>(
    exec,
    sql`select to_jsonb(x) as row from ${ident(table)} x where ${where} order by x.ctid offset ${offset} limit ${limit}`,
  );
}

export async function deleteOrgRows(exec: TDb, table: string, where: TRowFilter): Promise<number> {
  const res = (await exec.execute(sql`delete from ${ident(table)} where ${where}`)) as unknown as { rowCount?: number; affectedRows?: number };
  return res.rowCount ?? res.affectedRows ?? 0;
}

/** The members of an organisation (user ids), read before its memberships go. */
export async function selectOrgMemberIds(exec: TDb, orgId: string): Promise<string[]> {
  const rows = await selectRows<{ user_id: string }>(exec, sql`select user_id from memberships where org_id = ${orgId}`);
  return rows.map((r) => r.user_id);
}

/** Deletes the given users who belong to no organisation any more (their personal data goes with the organisation). */
export async function deleteUsersWithoutMembership(exec: TDb, userIds: string[]): Promise<void> {
  if (userIds.length === 0) return;
  const ids = sql.join(userIds.map((id) => sql`${id}::uuid`), sql`, `);
  // their failed sign-ins (kept a day for the per-account sign-in limit) name them too
  await exec.execute(
    sql`delete from sign_in_failures f where f.realm = 'user'
          and f.email in (select u.email from users u where u.id in (${ids}) and not exists (select 1 from memberships m where m.user_id = u.id))`,
  );
  await exec.execute(sql`delete from users u where u.id in (${ids}) and not exists (select 1 from memberships m where m.user_id = u.id)`);
}

/** Tables with a foreign key to `table` (other than itself) without ON DELETE CASCADE / SET NULL / SET DEFAULT. */
export async function selectTablesReferencing(tx: TDb, table: string): Promise<string[]> {
  const res = (await tx.execute(
    sql`select src.relname as referencing
          from pg_constraint c
          join pg_class src on src.oid = c.conrelid
          join pg_class dst on dst.oid = c.confrelid
         where c.contype = 'f' and dst.relname = ${table} and src.relname <> ${table} and c.confdeltype not in ('c', 'n', 'd')`,
  )) as unknown as { rows: { referencing: string }[] };
  return res.rows.map((r) => r.referencing);
}

// ---------- the organisation's settings ----------

export async function selectOrganisationRetention(exec: TDb, orgId: string) {
  const [org] = await exec
    .select({ file: organisations.fileRetentionDays, result: organisations.resultRetentionDays, name: organisations.name })
    .from(organisations)
    .where(eq(organisations.id, orgId));
  return org;
}

export async function updateOrganisationRetention(exec: TDb, orgId: string, days: { fileRetentionDays: number; resultRetentionDays: number }): Promise<void> {
  await exec.update(organisations).set(days).where(eq(organisations.id, orgId));
}

export async function selectOrganisationName(exec: TDb, orgId: string): Promise<string | undefined> {
  const [org] = await exec.select({ name: organisations.name }).from(organisations).where(eq(organisations.id, orgId));
  return org?.name;
}

// ---------- retention ----------

/** Verifier and finder lists whose uploaded file is older than their organisation's file retention (and not busy). */
export async function selectExpiredListFiles(exec: TDb, now: Date, limit: number) {
  return selectRows<{ kind: 'verify' | 'finder'; id: string; storage_key: string }>(
    exec,
    sql`(select 'verify' as kind, l.id, l.storage_key from verify_lists l join organisations o on o.id = l.org_id
          where l.file_deleted_at is null and l.created_at < ${now.toISOString()}::timestamptz - make_interval(days => o.file_retention_days)
            and l.analysis_state not in ('pending', 'processing') and l.state <> 'in_progress' limit ${limit})
        union all
        (select 'finder' as kind, l.id, l.storage_key from finder_lists l join organisations o on o.id = l.org_id
          where l.file_deleted_at is null and l.created_at < ${now.toISOString()}::timestamptz - make_interval(days => o.file_retention_days)
            and l.state not in ('queued', 'processing', 'in_progress', 'running') limit ${limit})`,
  );
}

export async function markListFileDeleted(exec: TDb, kind: 'verify' | 'finder', id: string, now: Date): Promise<void> {
  const table = kind === 'verify' ? sql.raw('verify_lists') : sql.raw('finder_lists');
  // updated_at is left alone: analytics dates a list by it (verified_at, else updated_at).
  await exec.execute(sql`update ${table} set file_deleted_at = ${now.toISOString()} where id = ${id}`);
}

/** Prepared files (exports) older than their organisation's file retention that still have a stored file. */
export async function selectExpiredExportFiles(exec: TDb, now: Date, limit: number) {
  return selectRows<{ id: string; kind: string; storage_key: string }>(
    exec,
    sql`select d.id, d.kind, d.storage_key from downloads d join organisations o on o.id = d.org_id
         where d.storage_key is not null and d.created_at < ${now.toISOString()}::timestamptz - make_interval(days => o.file_retention_days)
         limit ${limit}`,
  );
}

export async function markExportFileDeleted(exec: TDb, id: string, now: Date): Promise<void> {
  await exec.execute(
    sql`update downloads set storage_key = null, expires_at = least(coalesce(expires_at, ${now.toISOString()}::timestamptz), ${now.toISOString()}::timestamptz), updated_at = ${now.toISOString()} where id = ${id}`,
  );
}

/** Lists whose results are older than their organisation's result retention (finished: nothing running or waiting). */
export async function selectExpiredListResults(exec: TDb, now: Date, limit: number) {
  return selectRows<{ id: string }>(
    exec,
    sql`select l.id from verify_lists l join organisations o on o.id = l.org_id
         where l.results_deleted_at is null
           and coalesce(l.verified_at, l.created_at) < ${now.toISOString()}::timestamptz - make_interval(days => o.result_retention_days)
           and l.analysis_state not in ('pending', 'processing') and l.state <> 'in_progress' and l.greylist_waiting = 0
         limit ${limit}`,
  );
}

/** Deletes a list's rows (addresses and results) and marks it; its counters stay for analytics. */
export async function deleteListResults(exec: TDb, listId: string, now: Date): Promise<void> {
  await exec.execute(sql`delete from verify_list_emails where list_id = ${listId}`);
  await exec.execute(sql`update verify_lists set results_deleted_at = ${now.toISOString()} where id = ${listId}`);
}

/**
 * Folds instant verification results older than their organisation's result retention into quarter-hour aggregates
 * (`instant_verification_rollups`, the same figures `selectVerificationSummary` reads from the rows) and deletes the
 * rows, in one transaction. Answers how many rows went.
 */
export async function rollUpExpiredInstantResults(exec: TDb, now: Date): Promise<number> {
  const due = sql`select i.* from instant_verifications i join organisations o on o.id = i.org_id
                   where i.created_at < ${now.toISOString()}::timestamptz - make_interval(days => o.result_retention_days)`;
  const flag = (key: string) => sql.raw(`count(*) filter (where (d.result->>'${key}') = 'true')::int`);
  await exec.execute(sql`
    insert into instant_verification_rollups as r
      (org_id, user_id, bucket, verified, valid, invalid, catch_all, unknown, disposable, gibberish, free_account, role_account, billable, safe_to_send, valid_score_sum, credits)
    select d.org_id, d.user_id, to_timestamp(floor(extract(epoch from d.created_at) / 900) * 900) as bucket,
           count(*)::int,
           count(*) filter (where d.status = 'valid')::int,
           count(*) filter (where d.status = 'invalid')::int,
           count(*) filter (where d.status = 'catch_all')::int,
           count(*) filter (where d.status = 'unknown')::int,
           ${flag('disposable')}, ${flag('gibberish')}, ${flag('free_account')}, ${flag('role_account')},
           count(*) filter (where d.billable)::int,
           count(*) filter (where (d.result->>'safe_to_send') = 'yes')::int,
           coalesce(sum((d.result->>'deliverability_score')::float8) filter (where d.status = 'valid'), 0)::float8,
           coalesce(sum(d.credits_charged), 0)::int
      from (${due}) d
     group by d.org_id, d.user_id, 3
    on conflict (org_id, user_id, bucket) do update set
      verified = r.verified + excluded.verified, valid = r.valid + excluded.valid, invalid = r.invalid + excluded.invalid,
      catch_all = r.catch_all + excluded.catch_all, unknown = r.unknown + excluded.unknown, disposable = r.disposable + excluded.disposable,
      gibberish = r.gibberish + excluded.gibberish, free_account = r.free_account + excluded.free_account,
      role_account = r.role_account + excluded.role_account, billable = r.billable + excluded.billable,
      safe_to_send = r.safe_to_send + excluded.safe_to_send, valid_score_sum = r.valid_score_sum + excluded.valid_score_sum,
      credits = r.credits + excluded.credits`);
  const deleted = await selectRows<{ n: number }>(
    exec,
    sql`with gone as (delete from instant_verifications where id in (select id from (${due}) d) returning 1) select count(*)::int as n from gone`,
  );
  return deleted[0]?.n ?? 0;
}

/** Uploaded bounce reports whose file is older than their organisation's file retention and still stored. */
export async function selectExpiredBounceReportFiles(exec: TDb, now: Date, limit: number) {
  return selectRows<{ id: string; storage_key: string }>(
    exec,
    sql`select r.id, r.storage_key from bounce_reports r join organisations o on o.id = r.org_id
         where r.file_deleted_at is null and r.created_at < ${now.toISOString()}::timestamptz - make_interval(days => o.file_retention_days)
         limit ${limit}`,
  );
}

/** The report keeps its row and figures; it remembers that its file (its recipients) is gone. */
export async function markBounceReportFileDeleted(exec: TDb, id: string, now: Date): Promise<void> {
  await exec.execute(sql`update bounce_reports set file_deleted_at = ${now.toISOString()} where id = ${id}`);
}

/**
 * Bounces recorded before their organisation's result retention whose address is still kept, except those a claim
 * still pending hangs on (its re-check needs the address; they are erased once it is settled).
 */
export async function selectExpiredBounces(exec: TDb, now: Date, limit: number): Promise<string[]> {
  const rows = await selectRows<{ id: string }>(
    exec,
    sql`select b.id from bounces b join organisations o on o.id = b.org_id
         where b.email is not null and b.created_at < ${now.toISOString()}::timestamptz - make_interval(days => o.result_retention_days)
           and not exists (select 1 from bounce_credit_backs c where c.bounce_id = b.id and c.state = 'pending')
         limit ${limit}`,
  );
  return rows.map((r) => r.id);
}

/** An e-mail address inside free text (a ledger reason, a mail server's reply), as a PostgreSQL regular expression. */
const ADDRESS_IN_TEXT = '[^][[:space:]<>()",;:]+@[^][[:space:]<>()",;:]+';
const ERASED_ADDRESS = '(address erased)';

/**
 * Erases these bounces' addresses: their settled claims lose the address (and the ledger reason that repeats it);
 * a bounce no claim hangs on is deleted; one a claim hangs on stays (the reports' credited figures are read through
 * it) without its address and reply text, keeping its domain, kind, source, moment, code and report.
 */
export async function eraseBounces(exec: TDb, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  const list = sql.join(
    ids.map((id) => sql`${id}::uuid`),
    sql`, `,
  );
  await exec.execute(sql`update bounce_credit_backs set email = null, ledger_reason = null where bounce_id in (${list}) and state <> 'pending'`);
  // the ledger entry of a credit-back names the bounced address (and the reply text may too): the entry stays, its
  // reason without the addresses, once no pending claim still needs the bounce
  await exec.execute(
    sql`update credit_transactions t set reason = regexp_replace(t.reason, ${ADDRESS_IN_TEXT}, ${ERASED_ADDRESS}, 'g')
         where t.object_type = 'bounce' and t.object_id in (${sql.join(ids.map((id) => sql`${id}`), sql`, `)})
           and not exists (select 1 from bounce_credit_backs c where c.bounce_id::text = t.object_id and c.state = 'pending')`,
  );
  await exec.execute(sql`delete from bounces b where b.id in (${list}) and not exists (select 1 from bounce_credit_backs c where c.bounce_id = b.id)`);
  await exec.execute(sql`update bounces set email = null, reason = null where id in (${list})`);
}
