import { isEmailAddress } from './common';

/**
 * Reading an uploaded sheet's first rows: which row is a header, which column holds the e-mail addresses (verifier),
 * and which columns hold names and domains (finder). One implementation for the browser's preview and the server's
 * checks, so what the user sees mapped is what the server reads.
 */

/** A column of the preview: its index and its heading (or "Column N"). */
export type TSheetColumn = { index: number; label: string };

export type TEmailColumnGuess = {
  /** True when the first row names the columns instead of holding data. */
  hasHeader: boolean;
  /** The column holding the addresses, or null when no column looks like one. */
  columnIndex: number | null;
  columns: TSheetColumn[];
};

const EMAIL_HEADER = /e[\s_-]?mail|^mail$/i;
const EXACT_EMAIL_HEADER = /^e[\s_-]?mail([\s_-]?address)?$/i;

/** True for a cell that holds one e-mail address (the product's address grammar, spaces around it ignored). */
export function isEmailLike(value: string | undefined): boolean {
  return value !== undefined && isEmailAddress(value.trim());
}

/** True for a cell that holds a domain, or a website address whose host is one (https://www.acme.com/about). */
export function isDomainLike(value: string): boolean {
  const text = value.trim().toLowerCase().replace(/^https?:\/\//, '').replace(/^www\./, '').replace(/\/.*$/, '');
  return /^(?=.{1,253}$)([a-z0-9\p{L}](?:[a-z0-9\p{L}-]{0,61}[a-z0-9\p{L}])?\.)+[a-z\p{L}]{2,63}$/u.test(text);
}

function widthOf(rows: readonly (readonly string[])[]): number {
  return rows.reduce((max, row) => Math.max(max, row.length), 0);
}

/** The columns of a sheet, named by its header row when it has one. */
export function sheetColumns(rows: readonly (readonly string[])[], hasHeader: boolean): TSheetColumn[] {
  const first = rows[0] ?? [];
  return Array.from({ length: widthOf(rows) }, (_, index) => ({ index, label: (hasHeader ? (first[index] ?? '').trim() : '') || `Column ${index + 1}` }));
}

/**
 * Guesses the header row and the e-mail column from a sheet's first rows (blank rows already left out): the first row
 * is a header when it has text and no address; a column headed like "Email" wins when it holds addresses (or there
 * is no data yet); otherwise the column with the most addresses. `hasHeader` forces the header choice.
 */
export function detectEmailColumn(rows: readonly (readonly string[])[], hasHeader?: boolean): TEmailColumnGuess {
  const first = rows[0] ?? [];
  const header = hasHeader ?? (first.some((cell) => cell.trim() !== '') && !first.some((cell) => isEmailLike(cell)));
  const data = header ? rows.slice(1) : rows;
  const columns = sheetColumns(rows, header);
  const counts = columns.map((column) => data.filter((row) => isEmailLike(row[column.index])).length);
  const heading = (column: TSheetColumn) => (header ? (first[column.index] ?? '').trim() : '');
  const rank = (column: TSheetColumn) => (counts[column.index] ?? 0) * 2 + (EXACT_EMAIL_HEADER.test(heading(column)) ? 1 : 0);
  const best = (candidates: TSheetColumn[]) => [...candidates].sort((a, b) => rank(b) - rank(a))[0]?.index ?? null;

  const named = columns.filter((column) => EMAIL_HEADER.test(heading(column)));
  const namedWithData = named.filter((column) => (counts[column.index] ?? 0) > 0);
  if (namedWithData.length > 0) return { hasHeader: header, columns, columnIndex: best(namedWithData) };
  if (!counts.some((count) => count > 0)) return { hasHeader: header, columns, columnIndex: named.length > 0 ? best(named) : null };
  let top: number | null = null;
  counts.forEach((count, index) => {
    if (count > 0 && (top === null || count > (counts[top] ?? 0))) top = index;
  });
  return { hasHeader: header, columns, columnIndex: top };
}

/** The columns a finder upload maps. */
export const FINDER_COLUMN_ROLES = ['first_name', 'middle_name', 'last_name', 'full_name', 'domain', 'company'] as const;
export type TFinderColumnRole = (typeof FINDER_COLUMN_ROLES)[number];
export type TFinderMapping = Record<TFinderColumnRole, number | null>;

export const EMPTY_FINDER_MAPPING: TFinderMapping = { first_name: null, middle_name: null, last_name: null, full_name: null, domain: null, company: null };

const FINDER_HEADINGS: Record<TFinderColumnRole, RegExp> = {
  first_name: /^(first[\s_-]?name|first|firstname|given[\s_-]?name|fname|prenom|prénom|vorname)$/i,
  middle_name: /^(middle[\s_-]?name|middle|mname|middle[\s_-]?initial)$/i,
  last_name: /^(last[\s_-]?name|last|lastname|surname|family[\s_-]?name|lname|nom|nachname)$/i,
  full_name: /^(full[\s_-]?name|name|contact[\s_-]?name|person|person[\s_-]?name|contact)$/i,
  domain: /^(domain|domain[\s_-]?name|company[\s_-]?domain|website|web[\s_-]?site|company[\s_-]?web[\s_-]?site|web|url|site)$/i,
  company: /^(company|company[\s_-]?name|organi[sz]ation|organi[sz]ation[\s_-]?name|org|employer|account[\s_-]?name)$/i,
};

/** True when the first row names the columns: it matches a known heading and holds no domain. */
function looksLikeFinderHeader(first: readonly string[]): boolean {
  if (first.some((cell) => isDomainLike(cell))) return false;
  return first.some((cell) => FINDER_COLUMN_ROLES.some((role) => FINDER_HEADINGS[role].test(cell.trim())));
}

/**
 * Guesses the header row and the column of each finder role from a sheet's first rows: headings first; then a column
 * whose values are mostly domains becomes the domain column when none was named. A first name without a last name
 * gives way to a full-name column, and a "name" column beside first and last names is not a full name.
 */
export function detectFinderColumns(rows: readonly (readonly string[])[]): { hasHeader: boolean; mapping: TFinderMapping } {
  const first = rows[0] ?? [];
  const hasHeader = looksLikeFinderHeader(first);
  const mapping: TFinderMapping = { ...EMPTY_FINDER_MAPPING };
  const taken = new Set<number>();
  if (hasHeader) {
    for (const role of FINDER_COLUMN_ROLES) {
      const index = first.findIndex((cell, at) => !taken.has(at) && FINDER_HEADINGS[role].test(cell.trim()));
      if (index >= 0) {
        mapping[role] = index;
        taken.add(index);
      }
    }
  }
  if (mapping.domain === null) {
    const data = hasHeader ? rows.slice(1) : rows;
    let best: { index: number; count: number } | null = null;
    for (let index = 0; index < widthOf(rows); index += 1) {
      if (taken.has(index)) continue;
      const count = data.filter((row) => isDomainLike(row[index] ?? '')).length;
      if (count > 0 && count * 2 >= data.length && (best === null || count > best.count)) best = { index, count };
    }
    if (best) mapping.domain = best.index;
  }
  if (mapping.first_name !== null && mapping.last_name === null && mapping.full_name !== null) mapping.first_name = null;
  if (mapping.first_name !== null && mapping.full_name !== null) mapping.full_name = null;
  return { hasHeader, mapping };
}

/** What is still missing before a finder upload: a name (first and last, or full) and a domain or company. */
export function listFinderMappingProblems(mapping: TFinderMapping): string[] {
  const problems: string[] = [];
  if (mapping.first_name === null && mapping.full_name === null) problems.push('Map the first name column (or a full name column).');
  if (mapping.first_name !== null && mapping.last_name === null && mapping.full_name === null) problems.push('Map the last name column.');
  if (mapping.domain === null && mapping.company === null) problems.push('Map the domain column (or a company name column).');
  return problems;
}
