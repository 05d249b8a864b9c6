/**
 * The likelihood (0–100) that an address at a catch-all domain is a real mailbox. A catch-all server accepts every
 * recipient, so SMTP cannot tell; what can is the evidence the product already has: the naming pattern of addresses
 * seen valid at the domain, the prospect directory, the local part itself, and (later) bounce feedback.
 *
 * Pure: the caller gathers the evidence (see catch-all-evidence.ts in the email verifier) and this module weighs it.
 * Each piece of evidence adds to log-odds (0 = no idea, score 50); the score is their logistic. Every piece that
 * moved the score is returned with a sentence a person can read beside the score.
 */
import type { TCatchAllEvidence, TCatchAllEvidenceKind, TCatchAllScore } from '@verilead/contracts';

export type { TCatchAllEvidence, TCatchAllScore };

/** What is known about one catch-all address (lower-cased local part and domain). */
export type TCatchAllInput = {
  local: string;
  domain: string;
  /**
   * Named patterns (first.last, flast… as the finder names them) of addresses seen valid at the domain, with how
   * many addresses each: the installation's finder counts plus the organisation's own valid results.
   */
  knownPatterns: Readonly<Record<string, number>>;
  /** This organisation saw this exact address valid (before the domain turned catch-all). */
  seenValid: boolean;
  /** The prospect directory lists this exact address. */
  directoryAddress: boolean;
  /** A directory person at the domain whose name gives this local part in some pattern. */
  directoryPerson: { name: string; pattern: string } | null;
  roleAccount: boolean;
  /** 0–1, from the verifier's gibberish check (higher: more like a random string). */
  gibberishScore: number;
  /** Bounce feedback (issue 32, point 2): a hard bounce of this address is strong evidence it is not a mailbox. */
  bounced?: 'hard' | null;
};

/** The shape of a local part: its words and initials joined by separators ("w.w" for john.smith, "i.w" for j.smith). */
type TShape = string;

/** Each finder pattern's shape (a one-word pattern like flast, firstlast or first is "w": its shape cannot tell them apart). */
const PATTERN_SHAPES: Record<string, TShape> = {
  'first.last': 'w.w', 'last.first': 'w.w', 'f.last': 'i.w', 'l.first': 'i.w', 'first.l': 'w.i',
  first_last: 'w_w', last_first: 'w_w', f_last: 'i_w', 'first-last': 'w-w', 'last-first': 'w-w',
  flast: 'w', first: 'w', firstlast: 'w', lastf: 'w', firstl: 'w', lastfirst: 'w', last: 'w', fmlast: 'w', fl: 'w',
  'f.m.last': 'i.i.w', 'first.m.last': 'w.i.w',
};

/** The shape of a local part, and whether it ends in digits (people's work addresses rarely do). */
export function shapeOfLocal(local: string): { shape: TShape; digits: boolean } {
  const digits = /\d+$/.test(local);
  const bare = local.replace(/\d+$/, '');
  const parts = bare.split(/([._-])/);
  // a word with digits inside ("ft082j") is no name: its shape ("#") matches no naming pattern
  const shape = parts.map((p, i) => (i % 2 === 1 ? p : /\d/.test(p) ? '#' : p.length <= 1 ? 'i' : 'w')).join('');
  return { shape, digits };
}

/** Known patterns grouped by shape: per shape, the address count and the pattern that names it (the most counted). */
function countShapes(known: Readonly<Record<string, number>>): Map<TShape, { count: number; label: string; labelCount: number }> {
  const out = new Map<TShape, { count: number; label: string; labelCount: number }>();
  for (const [pattern, count] of Object.entries(known)) {
    if (count <= 0) continue;
    const shape = PATTERN_SHAPES[pattern] ?? shapeOfLocal(pattern).shape;
    const entry = out.get(shape) ?? { count: 0, label: pattern, labelCount: 0 };
    entry.count += count;
    if (count > entry.labelCount) Object.assign(entry, { label: pattern, labelCount: count });
    out.set(shape, entry);
  }
  return out;
}

const plural = (n: number, word: string) => `${n} known address${n === 1 ? '' : 'es'}`.replace('address', word);

/** The gibberish score above which a local part reads as a random string, and below which it reads as a name. */
const GIBBERISH_AT = 0.5;
const NAME_LIKE_BELOW = 0.3;

/** Weights (log-odds) of each piece of evidence, set on the mail world's catch-all truth (bench/catch-all-score.bench.ts). */
const WEIGHTS = {
  seenValid: 4,
  directoryAddress: 3.5,
  directoryName: 2.5,
  patternMatch: 2.2,
  patternMismatch: -2,
  role: -2.5,
  gibberish: -5,
  nameLike: 0.1,
  digits: -0.8,
  bounce: -6,
};

export function scoreCatchAll(input: TCatchAllInput): TCatchAllScore {
  const evidence: TCatchAllEvidence[] = [];
  let logOdds = 0;
  const add = (weight: number, kind: TCatchAllEvidenceKind, text: string) => {
    logOdds += weight;
    evidence.push({ kind, text });
  };
  const address = `${input.local}@${input.domain}`;

  if (input.bounced === 'hard') add(WEIGHTS.bounce, 'bounce', `${address} hard-bounced`);
  if (input.seenValid) add(WEIGHTS.seenValid, 'seen_valid', `${address} was verified valid before ${input.domain} turned catch-all`);
  if (input.directoryAddress) add(WEIGHTS.directoryAddress, 'directory_address', `${address} is listed in the prospect directory`);
  else if (input.directoryPerson) {
    const p = input.directoryPerson;
    add(WEIGHTS.directoryName, 'directory_name', `${p.name} works at ${input.domain} (prospect directory); ${input.local} is that name in the ${p.pattern} pattern`);
  }

  const { shape, digits } = shapeOfLocal(input.local);
  const shapes = countShapes(input.knownPatterns);
  const total = [...shapes.values()].reduce((sum, s) => sum + s.count, 0);
  if (input.roleAccount) add(WEIGHTS.role, 'role_account', `${input.local} is a role account (a shared inbox, not a person)`);
  else if (total === 0) evidence.push({ kind: 'no_pattern', text: `no address is known valid at ${input.domain} yet: its naming pattern is unknown` });
  else {
    // How sure the pattern knowledge is grows with the number of known addresses (3 addresses: half as sure as many).
    const confidence = total / (total + 3);
    const match = shapes.get(shape);
    const main = [...shapes.values()].sort((a, b) => b.count - a.count)[0]!;
    if (match) {
      const share = match.count / total;
      add(WEIGHTS.patternMatch * share * confidence, 'pattern_match', `matches ${match.label}, the pattern of ${plural(match.count, 'address')} of ${total} known at ${input.domain}`);
    } else {
      add(WEIGHTS.patternMismatch * confidence, 'pattern_mismatch', `does not match ${main.label}, the pattern of ${plural(main.count, 'address')} of ${total} known at ${input.domain}`);
    }
  }

  const g = input.gibberishScore;
  if (shape.includes('#')) add(WEIGHTS.gibberish, 'gibberish', `${input.local} mixes letters and digits like a generated string`);
  else if (g >= GIBBERISH_AT) add(WEIGHTS.gibberish * Math.min(1, (g - 0.3) / 0.4), 'gibberish', `${input.local} looks like a random string (gibberish score ${g.toFixed(2)})`);
  else if (g < NAME_LIKE_BELOW && !input.roleAccount) add(WEIGHTS.nameLike, 'name_like', `${input.local} reads like a name`);
  if (digits && !shape.includes('#') && !input.roleAccount) add(WEIGHTS.digits, 'digits', `${input.local} ends in digits, unusual for a work address`);

  const score = Math.round(100 / (1 + Math.exp(-logOdds)));
  return { score, evidence };
}
