import { isDomainLike } from './finder-format';

/** The columns a finder upload maps. */
export const FINDER_COLUMN_ROLES = ['first_name', 'last_name', 'full_name', 'domain', 'company'] as const;
export type TFinderColumnRole = (typeof FINDER_COLUMN_ROLES)[number];
export type TFinderMapping = Record<TFinderColumnRole, number | null>;

export const FINDER_ROLE_LABELS: Record<TFinderColumnRole, string> = {
  first_name: 'First name',
  last_name: 'Last name',
  full_name: 'Full name',
  domain: 'Domain',
  company: 'Company',
};

const HEADER_PATTERNS: Record<TFinderColumnRole, RegExp> = {
  first_name: /^(first[\s_-]?name|first|firstname|given[\s_-]?name|fname|prenom|prénom|vorname)$/i,
  last_name: /^(last[\s_-]?name|last|lastname|surname|family[\s_-]?name|lname|nom|nachname)$/i,
  full_name: /^(full[\s_-]?name|name|contact[\s_-]?name|person|contact)$/i,
  domain: /^(domain|company[\s_-]?domain|website|web[\s_-]?site|url|site|domain[\s_-]?name)$/i,
  company: /^(company|company[\s_-]?name|organi[sz]ation|organi[sz]ation[\s_-]?name|employer|account[\s_-]?name)$/i,
};

export const EMPTY_FINDER_MAPPING: TFinderMapping = { first_name: null, last_name: null, full_name: null, domain: null, company: null };

/** True when the first row names the columns: it matches a known heading and holds no domain. */
function looksLikeHeader(first: readonly string[]): boolean {
  if (first.some((cell) => isDomainLike(cell))) return false;
  return first.some((cell) => FINDER_COLUMN_ROLES.some((role) => HEADER_PATTERNS[role].test(cell.trim())));
}

/**
 * Guesses the header row and the column of each role from the first rows: headings first; then a
 * column whose values are mostly domains becomes the domain column when none was named.
 */
export function detectFinderColumns(rows: readonly (readonly string[])[]): { hasHeader: boolean; mapping: TFinderMapping } {
  const first = rows[0] ?? [];
  const hasHeader = looksLikeHeader(first);
  const mapping: TFinderMapping = { ...EMPTY_FINDER_MAPPING };
  const taken = new Set<number>();
  if (hasHeader) {
    for (const role of FINDER_COLUMN_ROLES) {
      const index = first.findIndex((cell, at) => !taken.has(at) && HEADER_PATTERNS[role].test(cell.trim()));
      if (index >= 0) {
        mapping[role] = index;
        taken.add(index);
      }
    }
  }
  if (mapping.domain === null) {
    const data = hasHeader ? rows.slice(1) : rows;
    const width = rows.reduce((max, row) => Math.max(max, row.length), 0);
    let best: { index: number; count: number } | null = null;
    for (let index = 0; index < width; index += 1) {
      if (taken.has(index)) continue;
      const count = data.filter((row) => isDomainLike(row[index] ?? '')).length;
      if (count > 0 && count * 2 >= data.length && (best === null || count > best.count)) best = { index, count };
    }
    if (best) mapping.domain = best.index;
  }
  // A "name" column next to first/last columns is not a full name.
  if (mapping.first_name !== null && mapping.full_name !== null) mapping.full_name = null;
  return { hasHeader, mapping };
}

/** Sets a role's column; a column holds one role, so another role on that column is cleared. */
export function assignFinderColumn(mapping: TFinderMapping, role: TFinderColumnRole, index: number | null): TFinderMapping {
  const next: TFinderMapping = { ...mapping };
  if (index !== null) for (const other of FINDER_COLUMN_ROLES) if (next[other] === index) next[other] = null;
  next[role] = index;
  return next;
}

/** What is still missing before the upload: a name (first name or full name) and a domain or company. */
export function listMappingProblems(mapping: TFinderMapping): string[] {
  const problems: string[] = [];
  if (mapping.first_name === null && mapping.full_name === null) problems.push('Map the first name column (or a full name column).');
  if (mapping.first_name !== null && mapping.last_name === null && mapping.full_name === null) problems.push('Map the last name column.');
  if (mapping.domain === null && mapping.company === null) problems.push('Map the domain column (or a company name column).');
  return problems;
}

/** Multipart fields of POST /email_finder/bulk_upload (ZFinderUploadFields in contracts). */
export type TFinderUploadFieldValues = {
  list_name: string;
  has_header: 'true' | 'false';
  first_name_column?: number;
  last_name_column?: number;
  full_name_column?: number;
  domain_column?: number;
  company_column?: number;
};

/** The multipart fields of POST /email_finder/bulk_upload for a mapping. */
export function toFinderUploadFields(mapping: TFinderMapping, listName: string, hasHeader: boolean): TFinderUploadFieldValues {
  const fields: TFinderUploadFieldValues = { list_name: listName, has_header: hasHeader ? 'true' : 'false' };
  if (mapping.first_name !== null) fields.first_name_column = mapping.first_name;
  if (mapping.last_name !== null) fields.last_name_column = mapping.last_name;
  if (mapping.full_name !== null) fields.full_name_column = mapping.full_name;
  if (mapping.domain !== null) fields.domain_column = mapping.domain;
  if (mapping.company !== null) fields.company_column = mapping.company;
  return fields;
}

/** Column index → role label, for the preview's badges. */
export function getMappingTags(mapping: TFinderMapping): Map<number, string> {
  const tags = new Map<number, string>();
  for (const role of FINDER_COLUMN_ROLES) {
    const index = mapping[role];
    if (index !== null) tags.set(index, FINDER_ROLE_LABELS[role]);
  }
  return tags;
}
