/**
 * Scores the catch_all verdicts of an organisation (platform/catch-all weighs the evidence; this file gathers it).
 *
 * What an organisation's score may rest on (so one organisation's private data never reaches another's score):
 * - its own results: the addresses it verified valid at the domain, instant or in a list (never another
 *   organisation's: which addresses a customer verified is theirs);
 * - the installation's finder pattern counts (finder_domain_patterns: per domain and pattern a count, no address,
 *   no name, no organisation), the same counts the finder already shares to order its candidates;
 * - the prospect directory (operator-imported reference data every organisation can search);
 * - its own hard bounces (platform/bounces): a bounced address scores low and no longer counts as a valid one.
 *
 * The finder's pattern table and the directory belong to other features, whose faces this feature cannot import
 * (the finder and the prospects features reach this one through downloads, and a cycle would follow), so they are
 * read here by name, read-only.
 */
import type { TCatchAllScore, TVerificationResult } from '@verilead/contracts';
import { makeCatchAllScorer, type TCatchAllScorer } from '../../platform/catch-all/catch-all-context';
import type { TDb } from '../../platform/db/database';
import { selectHardBouncedAtDomain } from '../../platform/bounces/read';
import { selectDirectoryPeopleAtDomain, selectOwnValidAddressesAtDomain, selectSharedPatternCounts } from './catch-all-queries';

/** At most this many known addresses and directory people are read per domain (enough to learn a pattern). */
const READ_LIMIT = 2_000;

async function readDomainScorer(exec: TDb, orgId: string, domain: string): Promise<TCatchAllScorer> {
  const [shared, own, directory, bounced] = await Promise.all([
    selectSharedPatternCounts(exec, domain),
    selectOwnValidAddressesAtDomain(exec, orgId, domain, READ_LIMIT),
    selectDirectoryPeopleAtDomain(exec, domain, READ_LIMIT),
    selectHardBouncedAtDomain(exec, orgId, domain, READ_LIMIT),
  ]);
  // A hard-bounced address was no mailbox: it scores low, and its valid verdict teaches the domain's pattern nothing.
  const hardBounced = new Set(bounced);
  return makeCatchAllScorer({
    domain,
    sharedPatternCounts: Object.fromEntries(shared.map((r) => [r.pattern, Number(r.valid_count)])),
    ownValidAddresses: own.filter((e) => !hardBounced.has(e)),
    hardBounced: [...hardBounced],
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
