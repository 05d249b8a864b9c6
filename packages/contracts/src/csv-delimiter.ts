/** The delimiters a CSV upload may use, in order of preference when two fit equally well. */
export const CSV_DELIMITERS = [',', ';', '\t', '|'] as const;
export type TCsvDelimiter = (typeof CSV_DELIMITERS)[number];

/** Lines considered when guessing. */
const SAMPLE_LINES = 20;

/** A line without its quoted parts ("Doe; Jane" holds no delimiter). */
function unquoted(line: string): string {
  return line.replace(/"(?:[^"]|"")*"?/g, '');
}

/**
 * The one delimiter of a CSV file, from its first lines: the candidate that splits the most lines into the same
 * number of cells (more than one). Browser preview and server both use it, so both read the same columns; a
 * file is read with one delimiter throughout (`Smith; John,john@x.test` under a `name,email` header keeps its
 * e-mail column). A one-column file answers ','.
 */
export function detectCsvDelimiter(sample: string): TCsvDelimiter {
  const lines = sample
    .replace(/^\uFEFF/, '')
    .split(/\r\n|\n|\r/)
    .filter((l) => l.trim() !== '')
    .slice(0, SAMPLE_LINES)
    .map(unquoted);
  let best: TCsvDelimiter = ',';
  let bestScore = 0;
  for (const d of CSV_DELIMITERS) {
    const counts = lines.map((l) => l.split(d).length - 1);
    const tally = new Map<number, number>();
    for (const c of counts) if (c > 0) tally.set(c, (tally.get(c) ?? 0) + 1);
    // How many lines agree on one non-zero count; the header line agreeing counts double.
    let score = 0;
    for (const [count, lines_] of tally) score = Math.max(score, lines_ + (counts[0] === count ? 1 : 0));
    if (score > bestScore) {
      best = d;
      bestScore = score;
    }
  }
  return best;
}
