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
import { readNameLocal, type TNameReading } from './name-reading';

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
  directoryPerson: {
    name: string;
    pattern: string;
    /** the person's address at the domain when the directory lists it or the organisation saw it valid (another form of the name) */
    knownAddress?: string | null;
  } | null;
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

/**
 * The form a pattern is compared in: its shape for patterns with a separator or an initial (first.last and
 * last.first both read "w.w"), the pattern itself for one-word ones (flast, firstlast, first… share the shape "w"
 * and are told apart by reading the names in them, name-reading.ts).
 */
export function formOfPattern(pattern: string): string {
  const shape = PATTERN_SHAPES[pattern] ?? shapeOfLocal(pattern).shape;
  return shape === 'w' && PATTERN_SHAPES[pattern] ? pattern : shape;
}

type TForm = { count: number; label: string; labelCount: number };

/** Known patterns grouped by form: per form, the address count and the pattern that names it (the most counted). */
function countForms(known: Readonly<Record<string, number>>, formOf: (pattern: string) => string = formOfPattern): Map<string, TForm> {
  const out = new Map<string, TForm>();
  for (const [pattern, count] of Object.entries(known)) {
    if (count <= 0) continue;
    const form = formOf(pattern);
    const entry = out.get(form) ?? { count: 0, label: pattern, labelCount: 0 };
    entry.count += count;
    if (count > entry.labelCount) Object.assign(entry, { label: pattern, labelCount: count });
    out.set(form, entry);
  }
  return out;
}

/** One-word forms: what a one-word local part no name reading explains may be. */
const ONE_WORD = (form: string) => /^[a-z]+$/.test(form) && form !== 'w';

const plural = (n: number) => `${n} known address${n === 1 ? '' : 'es'}`;

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
  commonName: 0.3,
  notAName: -1,
  directoryOtherAddress: -1.5,
};

/** The pattern evidence: whether the local part is written in the form of the addresses known at the domain. */
function patternEvidence(input: TCatchAllInput, readings: readonly TNameReading[], add: TAdd): void {
  let forms = countForms(input.knownPatterns);
  const total = [...forms.values()].reduce((sum, f) => sum + f.count, 0);
  const at = `${input.domain}`;
  if (total === 0) {
    add(0, 'no_pattern', `no address is known valid at ${at} yet: its naming pattern is unknown`);
    return;
  }
  // How sure the pattern knowledge is grows with the number of known addresses (3 addresses: half as sure as many).
  const confidence = total / (total + 3);
  const { shape } = shapeOfLocal(input.local);
  const best = readings[0];
  // Every spelled-out name part a common name: the reading names the pattern itself (smith.john is last.first, not
  // first.last), compared with the known addresses pattern by pattern. Otherwise by form: jane.doe is "w.w".
  const confident = best !== undefined && best.known === best.spelled;
  const top = best ? readings.filter((r) => r.known === best.known && r.spelled === best.spelled) : [];
  if (confident) forms = countForms(input.knownPatterns, (pattern) => pattern);
  const main = [...forms.values()].sort((a, b) => b.count - a.count)[0]!;
  const mine = confident ? top.map((r) => r.pattern) : best ? top.map((r) => formOfPattern(r.pattern)) : [shape];
  const match = mine.map((f) => forms.get(f)).filter((f): f is TForm => f !== undefined).sort((a, b) => b.count - a.count)[0];
  if (match) {
    const share = match.count / total;
    add(WEIGHTS.patternMatch * share * confidence, 'pattern_match', `matches ${match.label}, the pattern of ${plural(match.count)} of ${total} known at ${at}`);
    return;
  }
  // a one-word local part no common name explains may still be a one-word pattern of a name we do not know
  const oneWord = shape === 'w' && !best ? [...forms].filter(([f]) => ONE_WORD(f)).reduce((sum, [, f]) => sum + f.count, 0) : 0;
  if (oneWord > 0) {
    const share = oneWord / total;
    add(WEIGHTS.patternMatch * share * confidence * 0.5, 'pattern_match', `one word, like ${main.label}, the pattern of ${plural(main.count)} of ${total} known at ${at}, though no common name can be read in it`);
    return;
  }
  const separator = /[._-]/.exec(input.local)?.[0];
  const theirs = /[._-]/.exec(main.label)?.[0];
  const how = separator && theirs && separator !== theirs && shape.replace(/[._-]/g, '') === formOfPattern(main.label).replace(/[._-]/g, '') ? ` (it joins the names with "${separator}" where they use "${theirs}")` : '';
  add(WEIGHTS.patternMismatch * confidence, 'pattern_mismatch', `does not match ${main.label}, the pattern of ${plural(main.count)} of ${total} known at ${at}${how}`);
}

/** A one-word local part of five letters or more (not a random string) in which no common name can be read. */
const notAName = (input: TCatchAllInput, readings: readonly TNameReading[]) =>
  readings.length === 0 && !input.roleAccount && /^[a-z]{5,}$/.test(input.local) && input.gibberishScore < GIBBERISH_AT;

/** The common-name evidence: every spelled-out name part of the best reading is a common given name or surname. */
function nameEvidence(input: TCatchAllInput, readings: readonly TNameReading[], add: TAdd): void {
  const best = readings[0];
  if (input.roleAccount) return;
  if (best && best.known === best.spelled) {
    const parts = [best.first.length > 1 ? `${best.first} a common given name` : '', best.last.length > 1 ? `${best.last} a common surname` : ''].filter(Boolean);
    add(WEIGHTS.commonName * best.known, 'common_name', `${input.local} reads as a person's name in the ${best.pattern} pattern: ${parts.join(' and ')}`);
  } else if (notAName(input, readings)) {
    add(WEIGHTS.notAName, 'not_a_name', `no common given name or surname can be read in ${input.local}, alone or run together`);
  }
}

type TAdd = (weight: number, kind: TCatchAllEvidenceKind, text: string) => void;

/**
 * A directory person's name in this local part: worth most when it is written in the domain's own pattern, little
 * in another, and it speaks against the address when the person's address there is known and is another one.
 */
function directoryNameEvidence(input: TCatchAllInput, p: NonNullable<TCatchAllInput['directoryPerson']>, add: TAdd): void {
  const at = input.domain;
  if (p.knownAddress && p.knownAddress !== `${input.local}@${at}`) {
    add(WEIGHTS.directoryOtherAddress, 'directory_other_address', `${p.name} works at ${at}, but at ${p.knownAddress}; ${input.local} is another form of that name`);
    return;
  }
  const main = [...countForms(input.knownPatterns).values()].sort((a, b) => b.count - a.count)[0];
  if (!main || formOfPattern(main.label) === formOfPattern(p.pattern)) {
    add(WEIGHTS.directoryName, 'directory_name', `${p.name} works at ${at} (prospect directory); ${input.local} is that name in the ${p.pattern} pattern`);
  } else {
    add(WEIGHTS.directoryName * 0.4, 'directory_name', `${p.name} works at ${at} (prospect directory); ${input.local} is that name in the ${p.pattern} pattern, not in ${main.label}, the domain's`);
  }
}

export function scoreCatchAll(input: TCatchAllInput): TCatchAllScore {
  const evidence: TCatchAllEvidence[] = [];
  let logOdds = 0;
  const add: TAdd = (weight, kind, text) => {
    logOdds += weight;
    evidence.push({ kind, text });
  };
  const address = `${input.local}@${input.domain}`;
  const readings = input.roleAccount ? [] : readNameLocal(input.local);

  if (input.bounced === 'hard') add(WEIGHTS.bounce, 'bounce', `${address} hard-bounced`);
  if (input.seenValid) add(WEIGHTS.seenValid, 'seen_valid', `${address} was verified valid before ${input.domain} turned catch-all`);
  if (input.directoryAddress) add(WEIGHTS.directoryAddress, 'directory_address', `${address} is listed in the prospect directory`);
  else if (input.directoryPerson) directoryNameEvidence(input, input.directoryPerson, add);

  const { shape, digits } = shapeOfLocal(input.local);
  if (input.roleAccount) add(WEIGHTS.role, 'role_account', `${input.local} is a role account (a shared inbox, not a person)`);
  else patternEvidence(input, readings, add);

  const g = input.gibberishScore;
  if (shape.includes('#')) add(WEIGHTS.gibberish, 'gibberish', `${input.local} mixes letters and digits like a generated string`);
  else if (g >= GIBBERISH_AT) add(WEIGHTS.gibberish * Math.min(1, (g - 0.3) / 0.4), 'gibberish', `${input.local} looks like a random string (gibberish score ${g.toFixed(2)})`);
  else if (g < NAME_LIKE_BELOW && !input.roleAccount && !notAName(input, readings)) add(WEIGHTS.nameLike, 'name_like', `${input.local} reads like a name`);
  if (digits && !shape.includes('#') && !input.roleAccount) add(WEIGHTS.digits, 'digits', `${input.local} ends in digits, unusual for a work address`);
  nameEvidence(input, readings, add);

  const score = Math.round(100 / (1 + Math.exp(-logOdds)));
  return { score, evidence };
}
