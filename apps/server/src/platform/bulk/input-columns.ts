// The uploaded columns of a bulk file in a result file: shared by the email verifier and the email finder, so both
// write "the uploaded row's columns, in order, followed by the result columns" the same way.

/** The names of an uploaded file's columns: its header cells, or `Column N` where a header cell is blank (or there is no header). */
export function inputColumnNames(header: readonly string[] | null, width: number, fallback: (index: number) => string = (i) => `Column ${i + 1}`): string[] {
  return Array.from({ length: width }, (_, i) => header?.[i]?.trim() || fallback(i));
}

/** An uploaded row cut or padded to `width` cells. */
export function fitCells(cells: readonly string[], width: number): string[] {
  return Array.from({ length: width }, (_, i) => cells[i] ?? '');
}

/** One result-file row: the uploaded cells at the `keep` indexes (in that order), then the result cells. */
export function withInputCells(cells: readonly string[], keep: readonly number[], result: readonly string[]): string[] {
  return [...keep.map((i) => cells[i] ?? ''), ...result];
}
