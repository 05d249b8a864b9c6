/**
 * What is known of one catch-all domain, put together once and used to score each of its addresses: the naming
 * patterns of addresses seen valid there, the directory's people, the exact addresses seen valid. The server builds
 * it from the organisation's own results, the installation's pattern counts and the directory; the catch-all bench
 * builds it from the mail world's truth. Both then score through here, so the bench measures what the product does.
 */
import { checkRoleAccount, scoreGibberish } from '@verilead/verifier';
import { scoreCatchAll, type TCatchAllScore } from './catch-all-score';
import { indexNameLocals, patternOfLocal, type TNameLocal, type TNamedPerson } from './name-patterns';

export type TCatchAllDomainFacts = {
  domain: string;
  /**
   * Named pattern counts that hold no personal data (the finder's installation-wide finder_domain_patterns). Never
   * another organisation's addresses: those are private to it.
   */
  sharedPatternCounts: Readonly<Record<string, number>>;
  /** Addresses this organisation saw valid at the domain (its own results only). */
  ownValidAddresses: readonly string[];
  /** People the prospect directory lists at the domain (installation-wide reference data), with their address when known. */
  directory: readonly (TNamedPerson & { email: string | null })[];
  /** Addresses that hard-bounced for this organisation (bounce feedback, issue 32 point 2: platform/bounces); they score low. */
  hardBounced?: readonly string[];
};

export type TCatchAllScorer = (email: string) => TCatchAllScore;

const localOf = (email: string) => email.slice(0, email.lastIndexOf('@')).toLowerCase();

const directoryPerson = (person: TNameLocal | undefined, addressOfName: ReadonlyMap<string, string>) =>
  person ? { name: person.name, pattern: person.pattern, knownAddress: addressOfName.get(person.name) ?? null } : null;

/** A scorer for the addresses of one domain. */
export function makeCatchAllScorer(facts: TCatchAllDomainFacts): TCatchAllScorer {
  const domain = facts.domain.toLowerCase();
  const names = indexNameLocals(facts.directory);
  const directoryAddresses = new Set(facts.directory.flatMap((p) => (p.email ? [p.email.toLowerCase()] : [])));
  const seen = new Set(facts.ownValidAddresses.map((e) => e.toLowerCase()));
  const bounced = new Set((facts.hardBounced ?? []).map((e) => e.toLowerCase()));
  const knownPatterns: Record<string, number> = { ...facts.sharedPatternCounts };
  // each directory person's known address at the domain: the directory's own, or one seen valid in a form of the name
  const addressOfName = new Map<string, string>();
  for (const { name, email } of names.values()) if (email?.endsWith(`@${domain}`)) addressOfName.set(name, email);
  for (const address of seen) {
    const local = localOf(address);
    const person = names.get(local);
    if (person && !addressOfName.has(person.name)) addressOfName.set(person.name, address);
    if (checkRoleAccount(local)) continue;
    const pattern = patternOfLocal(local, names);
    if (pattern) knownPatterns[pattern] = (knownPatterns[pattern] ?? 0) + 1;
  }
  return (email) => {
    const address = email.toLowerCase();
    const local = localOf(address);
    return scoreCatchAll({
      local,
      domain,
      knownPatterns,
      seenValid: seen.has(address),
      directoryAddress: directoryAddresses.has(address),
      directoryPerson: directoryPerson(names.get(local), addressOfName),
      roleAccount: checkRoleAccount(local),
      gibberishScore: scoreGibberish(local),
      bounced: bounced.has(address) ? 'hard' : null,
    });
  };
}
