/**
 * Local parts of a person's name in the naming patterns the finder knows (first.last, flast…), used to tell whether a
 * catch-all address is the name of a directory person at its domain, and to name the pattern of an address seen
 * valid there. The pattern names are the finder's (email-finder/candidates.ts), so both count in the same terms.
 */
import { shapeOfLocal } from './catch-all-score';

/** Lower-case ASCII form of a name part: accents stripped, spaces, hyphens and apostrophes removed. */
export function foldNamePart(value: string): string {
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

/** The two-name patterns a person's address is looked for in (the middle-name ones need a middle name the directory may lack). */
const RENDER: Record<string, (f: string, l: string) => string> = {
  'first.last': (f, l) => `${f}.${l}`,
  flast: (f, l) => `${f[0]}${l}`,
  'f.last': (f, l) => `${f[0]}.${l}`,
  first: (f) => f,
  firstlast: (f, l) => `${f}${l}`,
  first_last: (f, l) => `${f}_${l}`,
  'last.first': (f, l) => `${l}.${f}`,
  lastf: (f, l) => `${l}${f[0]}`,
  'first.l': (f, l) => `${f}.${l[0]}`,
  firstl: (f, l) => `${f}${l[0]}`,
  lastfirst: (f, l) => `${l}${f}`,
  last: (_f, l) => l,
  f_last: (f, l) => `${f[0]}_${l}`,
  'first-last': (f, l) => `${f}-${l}`,
  last_first: (f, l) => `${l}_${f}`,
  'l.first': (f, l) => `${l[0]}.${f}`,
  'last-first': (f, l) => `${l}-${f}`,
};

export type TNamedPerson = { firstName: string; lastName: string };

/** Every local part of each person, to the person's name and the pattern that gives it (the first person wins a clash). */
export function indexNameLocals(people: readonly TNamedPerson[]): Map<string, { name: string; pattern: string }> {
  const out = new Map<string, { name: string; pattern: string }>();
  for (const p of people) {
    const f = foldNamePart(p.firstName);
    const l = foldNamePart(p.lastName);
    if (!f || !l) continue;
    for (const [pattern, render] of Object.entries(RENDER)) {
      const local = render(f, l);
      if (!out.has(local)) out.set(local, { name: `${p.firstName} ${p.lastName}`, pattern });
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
 * pattern its shape most often stands for; null for shapes no name pattern has (digits, three words, role words).
 */
export function patternOfLocal(local: string, names: ReadonlyMap<string, { pattern: string }>): string | null {
  const named = names.get(local);
  if (named) return named.pattern;
  const { shape, digits } = shapeOfLocal(local);
  return digits ? null : (SHAPE_PATTERNS[shape] ?? null);
}
