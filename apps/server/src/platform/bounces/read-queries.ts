/**
 * Reading an organisation's hard bounces, for the overlay on its results (read.ts) and the catch-all evidence. Always
 * scoped to one organisation: another's bounces are never read.
 */
import { sql } from 'drizzle-orm';
import type { TBounceEvidence, TBounceKind, TBounceSource } from '@verilead/contracts';
import { selectRows, type TDb } from '../db/database';

/** A list of values as SQL parameters (`in (…)`). */
export function sqlList(values: readonly string[]) {
  return sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  );
}

type TBounceRow = { email: string; kind: TBounceKind; source: TBounceSource; bounced_at: Date | string; reason: string | null; code: string | null };

function toEvidence(r: TBounceRow): TBounceEvidence {
  return { kind: r.kind, source: r.source, bounced_at: new Date(r.bounced_at).toISOString(), reason: r.reason, code: r.code };
}

/** The latest hard bounce of each of these addresses for the organisation (lower-cased address → evidence). */
export async function selectHardBounces(exec: TDb, orgId: string, emails: readonly string[]): Promise<Map<string, TBounceEvidence>> {
  const wanted = [...new Set(emails.map((e) => e.toLowerCase()))];
  if (wanted.length === 0) return new Map();
  const rows = await selectRows<TBounceRow>(
    exec,
    sql`select distinct on (email) email, kind, source, bounced_at, reason, code from bounces
        where org_id = ${orgId} and kind = 'hard' and email in (${sqlList(wanted)})
        order by email, bounced_at desc`,
  );
  return new Map(rows.map((r) => [r.email, toEvidence(r)]));
}

/** The addresses that hard-bounced for the organisation at a domain (for the catch-all score; erased ones left out). */
export async function selectHardBouncedAtDomain(exec: TDb, orgId: string, domain: string, limit = 2_000): Promise<string[]> {
  const rows = await selectRows<{ email: string }>(
    exec,
    sql`select distinct email from bounces where org_id = ${orgId} and domain = ${domain.toLowerCase()} and kind = 'hard' and email is not null limit ${limit}`,
  );
  return rows.map((r) => r.email);
}

