import { makeGibberishLocal } from './corpus';
import { FIRST_NAMES, LAST_NAMES, ROLE_LOCAL_PARTS } from './names';
import { makeLocalPart } from './people-corpus';
import { createRandom, type TRandom } from './prng';

/**
 * Which addresses at the world's catch-all domains are real mailboxes. The servers accept every recipient, so the
 * verdict of every address there is catch_all; this truth is what a catch-all score is measured against.
 *
 * Each company has employees whose addresses mostly follow the company's pattern (a few use another). Before the
 * domain turned catch-all some of their addresses were seen valid (`knownValid`: what a verifier and a finder learn
 * the pattern from); the prospect directory lists some of them (`directory`: name and address). The addresses to
 * score (`candidates`) are the other employees' real addresses plus made-up ones: random strings, role words, and
 * plausible names of people who do not work there (mostly in the company's own pattern, the hard case).
 */
export type TCatchAllKind = 'employee' | 'random' | 'role' | 'outsider';
export type TCatchAllCandidate = { email: string; real: boolean; kind: TCatchAllKind };
export type TCatchAllCompany = {
  domain: string;
  pattern: string;
  knownValid: string[];
  directory: { firstName: string; lastName: string; email: string }[];
  candidates: TCatchAllCandidate[];
};

/** The world's catch-all company domains and the pattern each uses (the same as the people corpus). */
const COMPANIES: readonly { domain: string; pattern: string }[] = [
  { domain: 'acceptall.test', pattern: 'first.last' },
  { domain: 'umbrella.test', pattern: 'flast' },
  { domain: 'contoso.test', pattern: 'f.last' },
  { domain: 'm365.test', pattern: 'firstlast' },
];
const OTHER_PATTERNS = ['first.last', 'flast', 'f.last', 'first', 'firstlast', 'first_last', 'last.first', 'first.l'];

export type TCatchAllTruthOptions = {
  /** Employees per company (default 80). */
  employees?: number;
  /** Share of employees whose address was seen valid before the domain turned catch-all (default 0.2). */
  knownShare?: number;
  /** Share of employees the prospect directory lists (default 0.4). */
  directoryShare?: number;
  /** Made-up addresses per company: random strings, roles, outsiders' names (default 15, 8, 25). */
  random?: number;
  roles?: number;
  outsiders?: number;
};

function makeName(rng: TRandom): { first: string; last: string } {
  return { first: rng.pick(FIRST_NAMES), last: rng.pick(LAST_NAMES) };
}

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** A random string: keyboard mash (as in the corpus) or letters and digits as a generator would make them. */
function makeRandomLocal(rng: TRandom): string {
  if (rng.chance(0.5)) return makeGibberishLocal(rng);
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  let out = '';
  for (let i = 0, n = 6 + rng.int(8); i < n; i++) out += alphabet[rng.int(alphabet.length)];
  return out;
}

/** A deterministic catch-all truth for the world's catch-all company domains. */
export function makeCatchAllTruth(seed: number, options: TCatchAllTruthOptions = {}): TCatchAllCompany[] {
  const rng = createRandom(seed);
  const o = { employees: 80, knownShare: 0.2, directoryShare: 0.4, random: 15, roles: 8, outsiders: 25, ...options };
  return COMPANIES.map(({ domain, pattern }) => {
    const taken = new Set<string>();
    const staffNames = new Set<string>();
    const company: TCatchAllCompany = { domain, pattern, knownValid: [], directory: [], candidates: [] };
    while (staffNames.size < o.employees) {
      const name = makeName(rng);
      const key = `${name.first} ${name.last}`;
      const local = makeLocalPart(rng.chance(0.88) ? pattern : rng.pick(OTHER_PATTERNS), name.first, name.last);
      if (staffNames.has(key) || taken.has(local)) continue;
      staffNames.add(key);
      taken.add(local);
      const email = `${local}@${domain}`;
      if (rng.chance(o.directoryShare)) company.directory.push({ firstName: capitalise(name.first), lastName: capitalise(name.last), email });
      if (rng.chance(o.knownShare)) company.knownValid.push(email);
      else company.candidates.push({ email, real: true, kind: 'employee' });
    }
    const addFake = (local: string, kind: TCatchAllKind) => {
      if (taken.has(local)) return false;
      taken.add(local);
      company.candidates.push({ email: `${local}@${domain}`, real: false, kind });
      return true;
    };
    for (let made = 0; made < o.random; ) if (addFake(makeRandomLocal(rng), 'random')) made += 1;
    const roles = [...ROLE_LOCAL_PARTS];
    for (let made = 0; made < o.roles && roles.length > 0; made++) addFake(roles.splice(rng.int(roles.length), 1)[0]!, 'role');
    for (let made = 0; made < o.outsiders; ) {
      const name = makeName(rng);
      if (staffNames.has(`${name.first} ${name.last}`)) continue;
      const local = makeLocalPart(rng.chance(0.7) ? pattern : rng.pick(OTHER_PATTERNS), name.first, name.last);
      if (addFake(local, 'outsider')) made += 1;
    }
    return company;
  });
}
