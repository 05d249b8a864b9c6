/** Reads numbers from two summary rows (lists and instant work) of the same keys: one, or both added up. */
export function readSummaryRows(lists: Record<string, number>, instant: Record<string, number>) {
  const n = (row: Record<string, number>, key: string) => Number(row[key] ?? 0);
  return { n, both: (key: string) => Math.round(n(lists, key) + n(instant, key)) };
}
