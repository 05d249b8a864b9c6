/** Row selection of a paged table, kept as a set of ids across pages. */

export type TPageSelection = 'none' | 'some' | 'all';

/** Adds the id when absent, removes it when present. */
export function toggleRowSelection(selected: ReadonlySet<string>, id: string): Set<string> {
  const next = new Set(selected);
  if (next.has(id)) next.delete(id);
  else next.add(id);
  return next;
}

/** How much of the visible page is selected (drives the header checkbox). */
export function getPageSelection(selected: ReadonlySet<string>, pageIds: readonly string[]): TPageSelection {
  const count = pageIds.filter((id) => selected.has(id)).length;
  if (count === 0 || pageIds.length === 0) return 'none';
  return count === pageIds.length ? 'all' : 'some';
}

/** The header checkbox: clears the page when all of it is selected, otherwise selects the whole page. */
export function togglePageSelection(selected: ReadonlySet<string>, pageIds: readonly string[]): Set<string> {
  const next = new Set(selected);
  if (getPageSelection(selected, pageIds) === 'all') {
    for (const id of pageIds) next.delete(id);
  } else {
    for (const id of pageIds) next.add(id);
  }
  return next;
}
