/**
 * Scores the catch_all verdicts of an organisation (platform/catch-all weighs the evidence; this file gathers it).
 *
 * What an organisation's score may rest on (so one organisation's private data never reaches another's score):
 * - its own results: the addresses it verified valid at the domain, instant or in a list (never another
 *   organisation's: which addresses a customer verified is theirs);
 * - the installation's finder pattern counts (finder_domain_patterns: per domain and pattern a count, no address,
 *   no name, no organisation), the same counts the finder already shares to order its candidates;
 * - the prospect directory (operator-imported reference data every organisation can search).
 *
 * The finder's pattern table and the directory belong to other features, whose faces this feature cannot import
 * (the finder and the prospects features reach this one through downloads, and a cycle would follow), so they are
 * read here by name, read-only.
 */
import { sql } from 'drizzle-orm';
import type { TCatchAllScore, TVerificationResult } from '@verilead/contracts';
import { makeCatchAllScorer, type TCatchAllScorer } from '../../platform/catch-all/catch-all-context';
import { selectRows, type TDb } from '../../platform/db/database';

/** At most this many known addresses and directory people are read per domain (enough to learn a pattern). */
const READ_LIMIT = 2_000;

async function readDomainScorer(exec: TDb, orgId: string, domain: string): Promise<TCatchAllScorer> {
  const suffix = `%@${domain.replace(/[\\%_]/g, (c) => `\\${c}`)}`;
  const [shared, own, directory] = await Promise.all([
    selectRows<{ pattern: string; valid_count: number }>(exec, sql`select pattern, valid_count from finder_domain_patterns where domain = ${domain}`),
    selectRows<{ email: string }>(
      exec,
      sql`(select lower(email) as email from instant_verifications
           where org_id = ${orgId} and status = 'valid' and lower(email) like ${suffix} limit ${READ_LIMIT})
          union
          (select lower(e.email) from verify_list_emails e join verify_lists l on l.id = e.list_id
           where l.org_id = ${orgId} and e.status = 'valid' and lower(e.email) like ${suffix} limit ${READ_LIMIT})`,
    ),
    selectRows<{ first_name: string; last_name: string; email: string | null }>(
      exec,
      sql`select p.first_name, p.last_name, p.email from directory_people p
          where p.company_id in (select id from directory_companies where domain = ${domain}) or lower(p.email) like ${suffix}
          limit ${READ_LIMIT}`,
    ),
  ]);
  return makeCatchAllScorer({
    domain,
    sharedPatternCounts: Object.fromEntries(shared.map((r) => [r.pattern, Number(r.valid_count)])),
    ownValidAddresses: own.map((r) => r.email),
    directory: directory.map((p) => ({ firstName: p.first_name, lastName: p.last_name, email: p.email })),
  });
}

/**
 * The results with a catch-all score added to each catch_all verdict (others unchanged). Each domain's evidence is
 * read once per call.
 */
export async function addCatchAllScores<T extends TVerificationResult>(exec: TDb, orgId: string, results: readonly T[]): Promise<T[]> {
  const scorers = new Map<string, Promise<TCatchAllScorer>>();
  return Promise.all(
    results.map(async (r) => {
      if (r.status !== 'catch_all') return r;
      const domain = r.domain.toLowerCase();
      let scorer = scorers.get(domain);
      if (!scorer) scorers.set(domain, (scorer = readDomainScorer(exec, orgId, domain)));
      const catchAllScore: TCatchAllScore = (await scorer)(r.email);
      return { ...r, catch_all_score: catchAllScore };
    }),
  );
}
