/**
 * Reads a local part as a person's name written in one of the finder's naming patterns, against the common given
 * names and surnames (common-names.ts): "jsmith" is an initial and the surname smith (flast), "johnsmith" the two
 * names run together (firstlast), "smith.john" surname first (last.first). Used both to name the pattern of an address
 * seen valid (so flast and firstlast, which share a shape, are told apart) and to weigh how name-like a catch-all
 * address is. A local part nothing reads as a name gives null.
 */
import { COMMON_FIRST_NAMES, COMMON_LAST_NAMES } from './common-names';

export type TNameReading = {
  /** the finder pattern this reading writes the name in (first.last, flast…) */
  pattern: string;
  /** the name parts read, as written in the local part ("" for a part given as an initial or left out) */
  first: string;
  last: string;
  /** how many of the spelled-out name parts are common names */
  known: number;
  /** how many name parts are spelled out (an initial is not) */
  spelled: number;
};

const isFirst = (s: string) => COMMON_FIRST_NAMES.has(s);
const isLast = (s: string) => COMMON_LAST_NAMES.has(s);
const isInitial = (s: string) => /^[a-z]$/.test(s);

/** The readings of two separated parts (a.b) for one separator, e.g. first.last, last.first, f.last, first.l. */
function readSeparated(a: string, b: string, sep: string): TNameReading[] {
  const out: TNameReading[] = [];
  const named = (pattern: string, first: string, last: string): TNameReading => {
    const spelled = (first.length > 1 ? 1 : 0) + (last.length > 1 ? 1 : 0);
    const known = (first.length > 1 && isFirst(first) ? 1 : 0) + (last.length > 1 && isLast(last) ? 1 : 0);
    return { pattern, first, last, known, spelled };
  };
  if (isInitial(a) && !isInitial(b)) {
    out.push(named(`f${sep}last`, a, b));
    if (sep === '.') out.push(named('l.first', b, a));
  } else if (!isInitial(a) && isInitial(b)) {
    if (sep === '.') out.push(named('first.l', a, b));
  } else if (!isInitial(a) && !isInitial(b)) {
    out.push(named(`first${sep}last`, a, b));
    out.push(named(`last${sep}first`, b, a));
  }
  return out;
}

/** The readings of a part without separators: first, last, flast, firstlast, lastfirst, lastf, firstl. */
function readJoined(s: string): TNameReading[] {
  const out: TNameReading[] = [];
  const push = (pattern: string, first: string, last: string, known: number, spelled: number) => out.push({ pattern, first, last, known, spelled });
  if (isFirst(s)) push('first', s, '', 1, 1);
  if (isLast(s)) push('last', '', s, 1, 1);
  if (isLast(s.slice(1))) push('flast', s[0]!, s.slice(1), 1, 1);
  if (isLast(s.slice(0, -1))) push('lastf', s.slice(-1), s.slice(0, -1), 1, 1);
  if (isFirst(s.slice(0, -1))) push('firstl', s.slice(0, -1), s.slice(-1), 1, 1);
  for (let i = 2; i <= s.length - 2; i++) {
    const head = s.slice(0, i);
    const tail = s.slice(i);
    if (isFirst(head) && isLast(tail)) push('firstlast', head, tail, 2, 2);
    if (isLast(head) && isFirst(tail)) push('lastfirst', tail, head, 2, 2);
  }
  return out;
}

/** How often each pattern is used at companies (the finder's order): breaks ties between equally good readings. */
const PATTERN_PRIOR = ['first.last', 'flast', 'firstlast', 'f.last', 'first', 'first_last', 'last.first', 'lastf', 'first.l', 'firstl', 'lastfirst', 'last', 'f_last', 'first-last', 'last_first', 'l.first', 'last-first'];
const prior = (pattern: string) => {
  const i = PATTERN_PRIOR.indexOf(pattern);
  return i < 0 ? PATTERN_PRIOR.length : i;
};

/**
 * Every reading of a local part as a name, best first (the most common names read, then the most spelled-out
 * parts, then the more usual pattern); only readings with at least one common name. Digits at the end are ignored.
 */
export function readNameLocal(local: string): TNameReading[] {
  const bare = local.toLowerCase().replace(/\d+$/, '');
  if (!/^[a-z]+([._-][a-z]+)?$/.test(bare)) return [];
  const sep = /[._-]/.exec(bare)?.[0];
  const readings = sep ? readSeparated(...(bare.split(sep) as [string, string]), sep) : readJoined(bare);
  return readings
    .filter((r) => r.known > 0)
    .sort((a, b) => b.known - a.known || b.spelled - a.spelled || prior(a.pattern) - prior(b.pattern));
}
