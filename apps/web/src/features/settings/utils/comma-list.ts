import { COMMA_LIST_LIMIT } from '@verilead/contracts';

export type TCommaListParse = {
  /** Trimmed, de-duplicated, non-empty entries, at most `limit`. */
  items: string[];
  /** Entries left out because the limit was reached. */
  overLimit: string[];
};

/** Comma list rule of spec section 5: split on commas, trim, drop empties, de-duplicate, cut to 10. */
export function parseCommaList(input: string, limit = COMMA_LIST_LIMIT): TCommaListParse {
  const seen = new Set<string>();
  const unique: string[] = [];
  for (const raw of input.split(/[,\n]/)) {
    const item = raw.trim();
    if (item === '') continue;
    const key = item.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    unique.push(item);
  }
  return { items: unique.slice(0, limit), overLimit: unique.slice(limit) };
}

const DOMAIN = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i;
const ADDRESS = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** An allow/block list entry is a whole address or a domain (a leading @ is accepted). */
export function normaliseListEntry(entry: string): string | null {
  const value = entry.trim().toLowerCase().replace(/^@/, '');
  if (ADDRESS.test(value)) return value;
  if (DOMAIN.test(value)) return value;
  return null;
}

export type TListAddition = {
  /** Normalised new entries to add (at most the comma-list limit). */
  add: string[];
  /** Entries already on the list. */
  existing: string[];
  /** Entries that are neither an address nor a domain. */
  invalid: string[];
  /** Entries past the limit of one addition. */
  overLimit: string[];
};

/** What one "Add" of a comma list does to an allow or block list. */
export function planListAddition(input: string, current: readonly string[], limit = COMMA_LIST_LIMIT): TListAddition {
  const have = new Set(current.map((item) => item.toLowerCase()));
  const parsed = parseCommaList(input, Number.MAX_SAFE_INTEGER);
  const add: string[] = [];
  const existing: string[] = [];
  const invalid: string[] = [];
  const overLimit: string[] = [];
  const taken = new Set<string>();
  for (const item of parsed.items) {
    const entry = normaliseListEntry(item);
    if (entry === null) {
      invalid.push(item);
      continue;
    }
    if (taken.has(entry)) continue;
    else if (have.has(entry)) existing.push(entry);
    else if (add.length >= limit) overLimit.push(entry);
    else add.push(entry);
    taken.add(entry);
  }
  return { add, existing, invalid, overLimit };
}
