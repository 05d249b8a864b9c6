import { FINDER_COLUMN_ROLES, type TFinderColumnRole, type TFinderMapping } from '@verilead/contracts';

// The detection itself (header row, each role's column) lives in contracts, shared with the server.

export const FINDER_ROLE_LABELS: Record<TFinderColumnRole, string> = {
  first_name: 'First name',
  middle_name: 'Middle name',
  last_name: 'Last name',
  full_name: 'Full name',
  domain: 'Domain',
  company: 'Company',
};

/** Sets a role's column; a column holds one role, so another role on that column is cleared. */
export function assignFinderColumn(mapping: TFinderMapping, role: TFinderColumnRole, index: number | null): TFinderMapping {
  const next: TFinderMapping = { ...mapping };
  if (index !== null) for (const other of FINDER_COLUMN_ROLES) if (next[other] === index) next[other] = null;
  next[role] = index;
  return next;
}

/** Multipart fields of POST /email_finder/bulk_upload (ZFinderUploadFields in contracts). */
export type TFinderUploadFieldValues = {
  list_name: string;
  has_header: 'true' | 'false';
  first_name_column?: number;
  middle_name_column?: number;
  last_name_column?: number;
  full_name_column?: number;
  domain_column?: number;
  company_column?: number;
};

/** The multipart fields of POST /email_finder/bulk_upload for a mapping. */
export function toFinderUploadFields(mapping: TFinderMapping, listName: string, hasHeader: boolean): TFinderUploadFieldValues {
  const fields: TFinderUploadFieldValues = { list_name: listName, has_header: hasHeader ? 'true' : 'false' };
  if (mapping.first_name !== null) fields.first_name_column = mapping.first_name;
  if (mapping.middle_name !== null) fields.middle_name_column = mapping.middle_name;
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
