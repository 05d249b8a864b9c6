import { FIRST_NAMES, LAST_NAMES, ROLE_LOCAL_PARTS } from './names';
import { createRandom, type TRandom } from './prng';
import { BUILTIN_MAILBOXES, DOMAIN_BY_NAME } from './scenarios';
import { computeExpected } from './truth';
import type { TCorpusEntry, TMailboxState } from './types';

type TLocal = { local: string; state?: TMailboxState; tags: string[] };
type TBucket = { weight: number; domains: readonly string[]; makeLocal: (rng: TRandom) => TLocal };

const VOWELS = 'aeiou';
const CONSONANTS = 'bcdfghjklmnpqrstvwxz';

function makePersonLocal(rng: TRandom, freeMail = false): string {
  const first = rng.pick(FIRST_NAMES);
  const last = rng.pick(LAST_NAMES);
  const year = String(1960 + rng.int(45));
  const digits = rng.chance(0.5) ? year : String(1 + rng.int(99));
  const roll = rng.next();
  if (freeMail) {
    if (roll < 0.3) return `${first}.${last}`;
    if (roll < 0.55) return `${first}${last}${digits}`;
    if (roll < 0.7) return `${first}.${last}${digits}`;
    if (roll < 0.8) return `${first[0]}${last}${digits}`;
    if (roll < 0.9) return `${first}_${last}`;
    return `${first}${digits}`;
  }
  if (roll < 0.4) return `${first}.${last}`;
  if (roll < 0.6) return `${first[0]}${last}`;
  if (roll < 0.7) return first;
  if (roll < 0.78) return `${first}${last}`;
  if (roll < 0.85) return `${first}_${last}`;
  if (roll < 0.9) return `${first[0]}.${last}`;
  return `${first}.${last}${digits}`;
}

/** Keyboard-mash local parts: few vowels, consonant runs, sometimes digits. */
export function makeGibberishLocal(rng: TRandom): string {
  const length = 6 + rng.int(6);
  let out = '';
  for (let i = 0; i < length; i++) {
    out += rng.chance(0.12) ? rng.pick([...VOWELS]) : rng.pick([...CONSONANTS]);
  }
  return rng.chance(0.25) ? `${out}${rng.int(1000)}` : out;
}

/** Addresses at a domain whose server checks recipients: mostly real people, some roles, some leavers and junk. */
function makeDirectoryLocal(rng: TRandom, freeMail = false, special?: TMailboxState): TLocal {
  const roll = rng.next();
  if (special && roll < 0.35) return { local: makePersonLocal(rng, freeMail), state: special, tags: [] };
  const r = special ? (roll - 0.35) / 0.65 : roll;
  if (r < 0.7) return { local: makePersonLocal(rng, freeMail), state: 'active', tags: [] };
  if (r < 0.78 && !freeMail) return { local: rng.pick(ROLE_LOCAL_PARTS), state: 'active', tags: ['role'] };
  if (r < 0.94) return { local: makePersonLocal(rng, freeMail), tags: [] };
  return { local: makeGibberishLocal(rng), tags: ['gibberish'] };
}

function makeAnyLocal(rng: TRandom, freeMail = false): TLocal {
  const roll = rng.next();
  if (roll < 0.8) return { local: makePersonLocal(rng, freeMail), tags: [] };
  if (roll < 0.9 && !freeMail) return { local: rng.pick(ROLE_LOCAL_PARTS), tags: ['role'] };
  return { local: makeGibberishLocal(rng), tags: ['gibberish'] };
}

function makeBrokenLocal(rng: TRandom): TLocal {
  const first = rng.pick(FIRST_NAMES);
  const last = rng.pick(LAST_NAMES);
  const variants = [`${first}..${last}`, `.${first}${last}`, `${first}.`, `${first} ${last}`, `${first}@${last}`, `${first}(${last})`];
  return { local: rng.pick(variants), tags: ['syntax'] };
}

const TYPO_DOMAINS = ['gmial.com', 'gmai.com', 'gnail.com', 'yaho.com', 'yahooo.com', 'hotmial.com', 'outlok.com'];

const BUCKETS: readonly TBucket[] = [
  { weight: 18, domains: ['strict.test'], makeLocal: (rng) => makeDirectoryLocal(rng) },
  { weight: 3, domains: ['initech.test'], makeLocal: (rng) => makeDirectoryLocal(rng) },
  { weight: 10, domains: ['acceptall.test'], makeLocal: (rng) => makeAnyLocal(rng) },
  { weight: 2, domains: ['umbrella.test'], makeLocal: (rng) => makeAnyLocal(rng) },
  { weight: 13, domains: ['gmail.com'], makeLocal: (rng) => makeDirectoryLocal(rng, true) },
  { weight: 5, domains: ['yahoo.com'], makeLocal: (rng) => makeDirectoryLocal(rng, true) },
  { weight: 5, domains: ['outlook.com'], makeLocal: (rng) => makeAnyLocal(rng, true) },
  { weight: 7, domains: ['m365.test'], makeLocal: (rng) => makeAnyLocal(rng) },
  { weight: 3, domains: ['contoso.test'], makeLocal: (rng) => makeAnyLocal(rng) },
  { weight: 4, domains: ['zoho.test'], makeLocal: (rng) => makeDirectoryLocal(rng) },
  { weight: 4, domains: ['globex.test'], makeLocal: (rng) => makeDirectoryLocal(rng) },
  { weight: 3, domains: ['starttls.test'], makeLocal: (rng) => makeDirectoryLocal(rng) },
  { weight: 2.5, domains: ['backupmx.test'], makeLocal: (rng) => makeDirectoryLocal(rng) },
  { weight: 2.5, domains: ['aonly.test'], makeLocal: (rng) => makeDirectoryLocal(rng) },
  { weight: 3, domains: ['greylist.test'], makeLocal: (rng) => makeDirectoryLocal(rng) },
  { weight: 2.5, domains: ['ratelimit.test'], makeLocal: (rng) => makeDirectoryLocal(rng) },
  { weight: 2, domains: ['fullbox.test'], makeLocal: (rng) => makeDirectoryLocal(rng, false, 'full') },
  { weight: 2, domains: ['disabled.test'], makeLocal: (rng) => makeDirectoryLocal(rng, false, 'disabled') },
  { weight: 2, domains: ['policy.test'], makeLocal: (rng) => makeAnyLocal(rng) },
  { weight: 1.2, domains: ['refused.test'], makeLocal: (rng) => makeAnyLocal(rng) },
  { weight: 1, domains: ['servfail.test'], makeLocal: (rng) => makeAnyLocal(rng) },
  { weight: 1, domains: ['nullmx.test'], makeLocal: (rng) => makeAnyLocal(rng) },
  { weight: 0.8, domains: ['nomail.test'], makeLocal: (rng) => makeAnyLocal(rng) },
  { weight: 0.8, domains: ['nxdomain.test'], makeLocal: (rng) => makeAnyLocal(rng) },
  { weight: 1.5, domains: TYPO_DOMAINS, makeLocal: (rng) => ({ local: makePersonLocal(rng, true), tags: [] }) },
  { weight: 2, domains: ['mailinator.com'], makeLocal: (rng) => makeAnyLocal(rng, true) },
  { weight: 0.5, domains: ['strict.test', 'gmail.com', 'acceptall.test'], makeLocal: makeBrokenLocal },
  { weight: 0.15, domains: ['tarpit.test'], makeLocal: (rng) => makeAnyLocal(rng) },
  { weight: 0.15, domains: ['timeout.test'], makeLocal: (rng) => makeAnyLocal(rng) },
];

/** UTF-8 local parts (RFC 6531): accented first names, e.g. josé.garcía. */
function makeUtf8Local(rng: TRandom): TLocal {
  const accent = (word: string) => word.replace(/e/, 'é').replace(/a/, 'á').replace(/o/, 'ö');
  return { local: `${accent(rng.pick(FIRST_NAMES))}.${accent(rng.pick(LAST_NAMES))}`, tags: ['utf8'] };
}

/** Extra buckets of the realistic world's scenarios. */
const REALISTIC_BUCKETS: readonly TBucket[] = [
  { weight: 2.5, domains: ['postscreen.test'], makeLocal: (rng) => makeDirectoryLocal(rng) },
  { weight: 3, domains: ['busy.test'], makeLocal: (rng) => makeDirectoryLocal(rng) },
  { weight: 1, domains: ['crowded.test'], makeLocal: (rng) => makeDirectoryLocal(rng) },
  { weight: 3, domains: ['fabrikam.test'], makeLocal: (rng) => makeDirectoryLocal(rng) },
  { weight: 1, domains: ['northwind.test'], makeLocal: (rng) => makeAnyLocal(rng) },
  { weight: 0.4, domains: ['slowpoke.test'], makeLocal: (rng) => makeDirectoryLocal(rng) },
  { weight: 0.5, domains: ['greylist5.test'], makeLocal: (rng) => makeDirectoryLocal(rng) },
  { weight: 1, domains: ['oldschool.test'], makeLocal: (rng) => (rng.chance(0.3) ? makeUtf8Local(rng) : makeDirectoryLocal(rng)) },
];

function pickBucket(rng: TRandom, buckets: readonly TBucket[], totalWeight: number): TBucket {
  let roll = rng.next() * totalWeight;
  for (const bucket of buckets) {
    roll -= bucket.weight;
    if (roll < 0) return bucket;
  }
  return buckets[0] as TBucket;
}

/** The mailbox directory of the built-in users, as lower-cased address -> state. */
export function listBuiltinMailboxes(): Map<string, TMailboxState> {
  const out = new Map<string, TMailboxState>();
  for (const [domain, users] of Object.entries(BUILTIN_MAILBOXES)) {
    for (const [local, state] of Object.entries(users)) out.set(`${local}@${domain}`, state);
  }
  return out;
}

/**
 * A deterministic, realistic list of addresses spread over every scenario domain, each with the verdict
 * a correct verifier reaches against the mail world (which serves the mailboxes listed here).
 */
export function makeCorpus(n: number, seed: number): TCorpusEntry[] {
  return buildCorpus(n, seed, BUCKETS);
}

/**
 * The corpus for the realistic world: the same mix as `makeCorpus` plus its own scenarios (postscreen, busy hosts,
 * Microsoft 365 edge blocking both ways, the 700 ms host, 5-minute greylisting, UTF-8 local parts without SMTPUTF8).
 */
export function makeRealisticCorpus(n: number, seed: number): TCorpusEntry[] {
  return buildCorpus(n, seed, [...BUCKETS, ...REALISTIC_BUCKETS]);
}

function buildCorpus(n: number, seed: number, buckets: readonly TBucket[]): TCorpusEntry[] {
  const totalWeight = buckets.reduce((sum, b) => sum + b.weight, 0);
  const rng = createRandom(seed);
  const mailboxes = listBuiltinMailboxes();
  const seen = new Set<string>();
  const entries: TCorpusEntry[] = [];
  while (entries.length < n) {
    const bucket = pickBucket(rng, buckets, totalWeight);
    const domain = rng.pick(bucket.domains);
    const made = bucket.makeLocal(rng);
    const email = `${made.local}@${domain}`;
    const key = email.toLowerCase();
    // a builtin address keeps its builtin state; a generated address is used once
    if (seen.has(key) || mailboxes.has(key)) continue;
    seen.add(key);
    if (made.state) mailboxes.set(key, made.state);
    const spec = DOMAIN_BY_NAME.get(domain);
    const tags = [spec?.scenario ?? 'unknown-domain', ...(spec?.tags ?? []), ...made.tags];
    entries.push({ email, expected: computeExpected(email, mailboxes), tags });
  }
  return entries;
}
