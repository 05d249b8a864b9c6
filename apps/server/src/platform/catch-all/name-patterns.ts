/**
 * Local parts of a person's name in the naming patterns the finder knows (first.last, flast…), used to tell whether a
 * catch-all address is the name of a directory person at its domain, and to name the pattern of an address seen
 * valid there. Names are folded and written as the finder writes them (platform/names/local-parts.ts), so both count in the same terms.
 */
import type { TFinderPattern } from '@verilead/contracts';
import { foldName, makeLocal } from '../names/local-parts';
import { shapeOfLocal } from './catch-all-score';
import { readNameLocal } from './name-reading';

/** The two-name patterns a person's address is looked for in (the middle-name ones need a middle name the directory may lack). */
const TWO_NAME_PATTERNS: readonly TFinderPattern[] = [
  'first.last', 'flast', 'f.last', 'first', 'firstlast', 'first_last', 'last.first', 'lastf', 'first.l', 'firstl',
  'lastfirst', 'last', 'f_last', 'first-last', 'last_first', 'l.first', 'last-first',
];

export type TNamedPerson = { firstName: string; lastName: string; email?: string | null };
export type TNameLocal = { name: string; pattern: string; email: string | null };

/** Every local part of each person, to the person's name and the pattern that gives it (the first person wins a clash). */
export function indexNameLocals(people: readonly TNamedPerson[]): Map<string, TNameLocal> {
  const out = new Map<string, TNameLocal>();
  for (const p of people) {
    const f = foldName(p.firstName);
    const l = foldName(p.lastName);
    if (!f || !l) continue;
    for (const pattern of TWO_NAME_PATTERNS) {
      const local = makeLocal(pattern, f, '', l)!;
      if (!out.has(local)) out.set(local, { name: `${p.firstName} ${p.lastName}`, pattern, email: p.email?.toLowerCase() ?? null });
    }
  }
  return out;
}

/** The pattern an address's shape most often stands for, when no name tells which (a one-word part is taken as flast). */
const SHAPE_PATTERNS: Record<string, string> = {
  'w.w': 'first.last', 'i.w': 'f.last', 'w.i': 'first.l', w_w: 'first_last', i_w: 'f_last', 'w-w': 'first-last',
  w: 'flast', 'i.i.w': 'f.m.last', 'w.i.w': 'first.m.last',
};

/**
 * The pattern of a local part seen valid: the one a known name gives when the directory has the person, else the
 * one its best reading against the common names gives (jsmith: flast, johnsmith: firstlast), else the pattern its
 * shape most often stands for; null for shapes no name pattern has (digits, three words, role words).
 */
export function patternOfLocal(local: string, names: ReadonlyMap<string, { pattern: string }>): string | null {
  const named = names.get(local);
  if (named) return named.pattern;
  const { shape, digits } = shapeOfLocal(local);
  if (digits) return null;
  return readNameLocal(local)[0]?.pattern ?? SHAPE_PATTERNS[shape] ?? null;
}
