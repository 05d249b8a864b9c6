import { listBuiltinMailboxes } from './corpus';
import { FIRST_NAMES, LAST_NAMES } from './names';
import { createRandom, type TRandom } from './prng';
import type { TCorpusEntry } from './types';

/** How the person's domain behaves: strict (rejects unknown users), catch_all (accepts all), greylist (451 first, then strict). */
export type TPersonScenario = 'strict' | 'catch_all' | 'greylist';

/** A known person of the mail world: the finder should answer `email` for (first, middle, last, domain). */
export type TPerson = {
  first_name: string;
  middle_name: string | null;
  last_name: string;
  domain: string;
  /** The person's real address. */
  email: string;
  /** The address pattern of `email` (first.last, flast…). */
  pattern: string;
  scenario: TPersonScenario;
};

export type TPeopleCorpus = {
  people: TPerson[];
  /** Mailboxes to pass to startMailWorld({ corpus }). */
  corpus: TCorpusEntry[];
};

/** Company domains of the world and the pattern each mostly uses (real companies keep one pattern). */
export const PEOPLE_DOMAINS: readonly { domain: string; scenario: TPersonScenario; pattern: string }[] = [
  { domain: 'strict.test', scenario: 'strict', pattern: 'first.last' },
  { domain: 'initech.test', scenario: 'strict', pattern: 'flast' },
  { domain: 'globex.test', scenario: 'strict', pattern: 'first_last' },
  { domain: 'zoho.test', scenario: 'strict', pattern: 'f.last' },
  { domain: 'aonly.test', scenario: 'strict', pattern: 'firstlast' },
  { domain: 'backupmx.test', scenario: 'strict', pattern: 'first' },
  { domain: 'acceptall.test', scenario: 'catch_all', pattern: 'first.last' },
  { domain: 'umbrella.test', scenario: 'catch_all', pattern: 'flast' },
  { domain: 'greylist.test', scenario: 'greylist', pattern: 'first.last' },
];

/** Patterns a few people use instead of their company's main one. */
const MINORITY_PATTERNS = ['first.last', 'flast', 'f.last', 'first', 'firstlast', 'first_last', 'last.first', 'lastf', 'first.l'];

/** Names with accents, hyphens and particles: the finder must normalise them (josé → jose, van der berg → vanderberg). */
const SPECIAL_PEOPLE: readonly { first: string; middle?: string; last: string }[] = [
  { first: 'José', last: 'Núñez' },
  { first: 'Zoë', last: 'Müller' },
  { first: 'Jan', last: 'van der Berg' },
  { first: 'María', last: 'de la Cruz' },
  { first: 'Anne-Marie', last: 'Dubois' },
  { first: 'Jean', last: "O'Connor" },
  { first: 'Søren', last: 'Kierkegård' },
  { first: 'Łukasz', last: 'Wałęsa' },
  { first: 'Chloé', last: 'Lefèvre-Martin' },
  { first: 'Ruud', middle: 'Pieter', last: 'de Vries' },
];

const capitalise = (s: string) => s.replace(/(^|[\s'-])(\p{L})/gu, (_m, p: string, c: string) => p + c.toUpperCase());

/** Lower-case ASCII form of a name part: accents stripped, spaces, hyphens and apostrophes removed. */
export function foldName(value: string): string {
  return value
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/ł/gi, 'l')
    .replace(/ø/gi, 'o')
    .replace(/æ/gi, 'ae')
    .replace(/ß/g, 'ss')
    .toLowerCase()
    .replace(/[^a-z]/g, '');
}

/** The local part of an address in a given pattern (the same rules as the finder's candidates). */
export function makeLocalPart(pattern: string, first: string, last: string): string {
  const f = foldName(first);
  const l = foldName(last);
  const fi = f.slice(0, 1);
  const li = l.slice(0, 1);
  const table: Record<string, string> = {
    'first.last': `${f}.${l}`,
    flast: `${fi}${l}`,
    'f.last': `${fi}.${l}`,
    first: f,
    firstlast: `${f}${l}`,
    first_last: `${f}_${l}`,
    'last.first': `${l}.${f}`,
    lastf: `${l}${fi}`,
    'first.l': `${f}.${li}`,
    lastfirst: `${l}${f}`,
    last: l,
    f_last: `${fi}_${l}`,
    'first-last': `${f}-${l}`,
    firstl: `${f}${li}`,
    last_first: `${l}_${f}`,
  };
  const local = table[pattern];
  if (local === undefined) throw new Error(`Unknown pattern ${pattern}`);
  return local;
}

const ALL_PATTERNS = [
  'first.last', 'flast', 'f.last', 'first', 'firstlast', 'first_last', 'last.first', 'lastf', 'first.l',
  'lastfirst', 'last', 'f_last', 'first-last', 'firstl', 'last_first',
];

function pickName(rng: TRandom, specialsLeft: { first: string; middle?: string; last: string }[]) {
  if (specialsLeft.length > 0 && rng.chance(0.05)) return specialsLeft.shift()!;
  return { first: capitalise(rng.pick(FIRST_NAMES)), last: capitalise(rng.pick(LAST_NAMES)) };
}

/**
 * `makePeopleCorpus(n, seed)`: about n known people (deterministic), 70 % on strict domains, 20 % on catch-all
 * domains and 10 % on the greylisting domain. On a checking domain a person is kept only when none of their
 * possible addresses belongs to someone else (so the right answer is unambiguous); with large n some are
 * skipped and fewer than n come back.
 */
export function makePeopleCorpus(n: number, seed: number): TPeopleCorpus {
  const rng = createRandom(seed);
  const specials = [...SPECIAL_PEOPLE];
  const taken = new Set<string>(listBuiltinMailboxes().keys());
  /** Every candidate address of a person already kept, per checking domain. */
  const claimed = new Set<string>();
  const people: TPerson[] = [];
  const strict = PEOPLE_DOMAINS.filter((d) => d.scenario === 'strict');
  const catchAll = PEOPLE_DOMAINS.filter((d) => d.scenario === 'catch_all');
  const grey = PEOPLE_DOMAINS.filter((d) => d.scenario === 'greylist');
  let attempts = 0;
  while (people.length < n && attempts < n * 40) {
    attempts += 1;
    const roll = rng.next();
    const pool = roll < 0.7 ? strict : roll < 0.9 ? catchAll : grey;
    const company = rng.pick(pool);
    const name = pickName(rng, specials);
    const pattern = rng.chance(0.88) ? company.pattern : rng.pick(MINORITY_PATTERNS);
    const local = makeLocalPart(pattern, name.first, name.last);
    const email = `${local}@${company.domain}`;
    if (local.length === 0 || taken.has(email)) continue;
    if (company.scenario !== 'catch_all') {
      const candidates = ALL_PATTERNS.map((p) => `${makeLocalPart(p, name.first, name.last)}@${company.domain}`);
      if (claimed.has(email) || candidates.some((c) => taken.has(c))) continue;
      for (const c of candidates) claimed.add(c);
    }
    taken.add(email);
    people.push({
      first_name: name.first,
      middle_name: name.middle ?? null,
      last_name: name.last,
      domain: company.domain,
      email,
      pattern,
      scenario: company.scenario,
    });
  }
  const corpus: TCorpusEntry[] = people.map((p) => ({
    email: p.email,
    expected: p.scenario === 'catch_all' ? { status: 'catch_all', reason: 'accept_all' } : { status: 'valid', reason: 'valid_mailbox' },
    tags: [p.scenario === 'catch_all' ? 'acceptall' : p.scenario, 'person'],
  }));
  return { people, corpus };
}
