// A person's name as the local part of an address: folding a name part to ASCII letters and writing it in a naming
// pattern (first.last, flast…). The finder builds its candidates with them and the catch-all score reads addresses
// with them, so both count patterns in the same terms.
import type { TFinderPattern } from '@verilead/contracts';

const SPECIAL_LETTERS: Record<string, string> = { ł: 'l', ø: 'o', æ: 'ae', œ: 'oe', ß: 'ss', đ: 'd', ð: 'd', þ: 'th', ı: 'i' };

/** Lower-case ASCII letters of a name part: accents stripped (josé → jose), apostrophes, hyphens and spaces removed. */
export function foldName(value: string): string {
  return value
    .toLowerCase()
    .replace(/[łøæœßđðþı]/g, (c) => SPECIAL_LETTERS[c] ?? c)
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[^a-z]/g, '');
}

/** The local part of `pattern` for folded name parts (null when the pattern needs a part the name lacks). */
export function makeLocal(pattern: TFinderPattern, f: string, m: string, l: string): string | null {
  const fi = f.slice(0, 1);
  const mi = m.slice(0, 1);
  const li = l.slice(0, 1);
  const needsLast = !['first'].includes(pattern);
  if (!f || (needsLast && !l)) return null;
  if (['f.m.last', 'first.m.last', 'fmlast'].includes(pattern) && !m) return null;
  switch (pattern) {
    case 'first.last': return `${f}.${l}`;
    case 'flast': return `${fi}${l}`;
    case 'f.last': return `${fi}.${l}`;
    case 'first': return f;
    case 'firstlast': return `${f}${l}`;
    case 'first_last': return `${f}_${l}`;
    case 'last.first': return `${l}.${f}`;
    case 'lastf': return `${l}${fi}`;
    case 'first.l': return `${f}.${li}`;
    case 'firstl': return `${f}${li}`;
    case 'lastfirst': return `${l}${f}`;
    case 'last': return l;
    case 'f_last': return `${fi}_${l}`;
    case 'first-last': return `${f}-${l}`;
    case 'last_first': return `${l}_${f}`;
    case 'l.first': return `${li}.${f}`;
    case 'f.m.last': return `${fi}.${mi}.${l}`;
    case 'first.m.last': return `${f}.${mi}.${l}`;
    case 'fmlast': return `${fi}${mi}${l}`;
    case 'last-first': return `${l}-${f}`;
    case 'fl': return `${fi}${li}`;
  }
}
