import { z } from 'zod';
import { ZSuccess } from './envelopes';

// ---------- data retention and privacy (owner only) ----------

/** The choices of how long uploaded files and prepared exports are kept, in days (30 by default). */
export const FILE_RETENTION_DAYS = [1, 7, 15, 30, 60, 90] as const;
/** The choices of how long verification results are kept, in days (90 by default); aggregates stay for analytics. */
export const RESULT_RETENTION_DAYS = [7, 30, 90, 180, 365] as const;
export const DEFAULT_FILE_RETENTION_DAYS = 30;
export const DEFAULT_RESULT_RETENTION_DAYS = 90;

const oneOf = (choices: readonly number[], what: string) =>
  z.number().int().refine((v) => choices.includes(v), { message: `${what} must be one of ${choices.join(', ')} days` });

export const ZDataRetention = z.object({
  file_retention_days: z.number().int(),
  result_retention_days: z.number().int(),
  /** The organisation's name, which deleting it asks to type again. */
  organisation_name: z.string(),
});
export type TDataRetention = z.infer<typeof ZDataRetention>;
export const ZDataRetentionResponse = ZSuccess(ZDataRetention);

export const ZDataRetentionUpdateRequest = z.object({
  file_retention_days: oneOf(FILE_RETENTION_DAYS, 'File retention'),
  result_retention_days: oneOf(RESULT_RETENTION_DAYS, 'Result retention'),
});
export type TDataRetentionUpdateRequest = z.infer<typeof ZDataRetentionUpdateRequest>;

/** Deleting the organisation: the owner's password, and the organisation's name typed again. */
export const ZOrganisationDeleteRequest = z.object({
  password: z.string().min(1).max(200),
  organisation_name: z.string().trim().min(1, 'Type the organisation name to confirm').max(200),
});
export type TOrganisationDeleteRequest = z.infer<typeof ZOrganisationDeleteRequest>;
