import type { z } from 'zod';
import type { TEfSettings, TProspectSettings } from '@verilead/contracts';

/** Product defaults of the finder and prospect settings (the verifier's live in contracts). */
export const DEFAULT_EF_SETTINGS: TEfSettings = { setting_last_modified_on: null, include_role_email: true, strict_domain_check: false };
export const DEFAULT_PROSPECT_SETTINGS: TProspectSettings = {
  setting_last_modified_on: null,
  person_enrich_settings: { phones: 'all', emails: 'all' },
  company_enrich_settings: { phones: 'all', emails: 'all' },
};

/** Merges a stored settings section over its defaults; anything unreadable falls back to the defaults. */
export function readSection<T extends object>(schema: z.ZodType<T>, defaults: T, stored: Record<string, unknown> | null | undefined): T {
  const parsed = schema.safeParse({ ...defaults, ...(stored ?? {}) });
  return parsed.success ? parsed.data : defaults;
}

/** The fields of a patch that were given (undefined means "leave as it is"). */
export function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
