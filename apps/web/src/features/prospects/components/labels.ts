import type { TProspectFilters } from '@verilead/contracts';

/** "c_suite" → "C-suite", "human_resources" → "Human resources". */
export function optionLabel(value: string): string {
  if (value === 'c_suite') return 'C-suite';
  if (value === 'vp') return 'VP';
  const text = value.replace(/_/g, ' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A revenue range as money: "100M-500M" → "$100M–$500M", "<1M" → "Under $1M", "1B+" → "$1B+" (US dollars). */
export function revenueLabel(range: string): string {
  if (range.startsWith('<')) return `Under $${range.slice(1)}`;
  if (range.endsWith('+')) return `$${range.slice(0, -1)}+`;
  const [low, high] = range.split('-');
  return high ? `$${low}–$${high}` : range;
}

/** Drops empty filter values so the URL, the saved search and the query key stay small. */
export function cleanFilters(f: TProspectFilters): TProspectFilters {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(f)) {
    if (v === undefined || v === null || v === '' || v === false) continue;
    if (Array.isArray(v) && v.length === 0) continue;
    out[k] = v;
  }
  return out as TProspectFilters;
}

/** Filters from the `filters` URL parameter (a saved search applied); empty when missing or unreadable. */
export function readFiltersParam(value: string | null): TProspectFilters {
  if (!value) return {};
  try {
    const parsed = JSON.parse(value) as unknown;
    return parsed && typeof parsed === 'object' ? cleanFilters(parsed as TProspectFilters) : {};
  } catch {
    return {};
  }
}

/** How many filters are set. */
export function countFilters(f: TProspectFilters): number {
  return Object.keys(cleanFilters(f)).filter((k) => k !== 'similar_titles').length;
}
