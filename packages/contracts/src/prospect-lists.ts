// Prospect lists: adding people to a list, a list's leads, enriching people or whole lists (revealing their e-mails
// and phones for credits), exporting them, and the home page's recent work.
import { z } from 'zod';
import { ZPage, ZPageSize, ZPaged } from './common';
import { ZDownloadFileType } from './downloads';
import { ZEnrichEmails, ZEnrichPhones } from './settings';
import { PROSPECT_MAX_SELECTION, ZProspectFilters, ZProspectPerson } from './prospect-search';

// ---------- lists ----------

export const ZProspectListState = z.enum(['not_processed', 'in_progress', 'processed', 'cancelled']);
export type TProspectListState = z.infer<typeof ZProspectListState>;
export const ZProspectList = z.object({
  id: z.string(),
  name: z.string(),
  lead_count: z.number().int().nonnegative(),
  state: ZProspectListState,
  user_id: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TProspectList = z.infer<typeof ZProspectList>;
const ZListId = z.uuid({ message: 'Please choose a list' });
const ZPersonIds = z
  .array(z.uuid({ message: 'Please choose people from the results' }))
  .min(1, { message: 'Please choose at least one person' })
  .max(PROSPECT_MAX_SELECTION, { message: `Please choose at most ${PROSPECT_MAX_SELECTION} people at once` });
const ZListName = z.string().trim().min(1, { message: 'Please name the list' }).max(100, { message: 'A name may have at most 100 characters' });

export const ZProspectListsQuery = z.object({
  q: z.string().trim().max(100).optional(),
  page: ZPage.default(1),
  limit: ZPageSize.default(25),
});
export const ZProspectListsData = ZPaged(ZProspectList);

/** Add people to a list (an existing one, or a new one by name): chosen ids, or the first `count` results of a search. */
export const ZAddProfilesRequest = z
  .object({
    list_id: ZListId.optional(),
    list_name: ZListName.optional(),
    person_ids: ZPersonIds.optional(),
    filters: ZProspectFilters.optional(),
    count: z.coerce.number().int().min(1).max(PROSPECT_MAX_SELECTION, { message: `Please add at most ${PROSPECT_MAX_SELECTION} people at once` }).optional(),
  })
  .refine((v) => (v.list_id ? 1 : 0) + (v.list_name ? 1 : 0) === 1, { message: 'Please choose a list or name a new one', path: ['list_id'] })
  .refine((v) => (v.person_ids ? 1 : 0) + (v.filters ? 1 : 0) === 1, { message: 'Please choose people or a search', path: ['person_ids'] });
export const ZAddProfilesData = z.object({ list: ZProspectList, added: z.number().int().nonnegative(), already_in_list: z.number().int().nonnegative() });

export const ZListUpdateRequest = z.object({ list_id: ZListId, name: ZListName });
export const ZListRemoveRequest = z.object({ list_id: ZListId });
export const ZListRemoveLeadRequest = z.object({ list_id: ZListId, person_ids: ZPersonIds });
export const ZListDetailsQuery = z.object({ list_id: ZListId });
export const ZListDetailsData = z.object({
  list: ZProspectList,
  revealed_emails: z.number().int().nonnegative(),
  revealed_phones: z.number().int().nonnegative(),
  enrichment: z.lazy(() => ZEnrichRequest).nullable(),
});
export const ZLeadInListQuery = z.object({
  person_ids: z
    .string()
    .max(40_000)
    .transform((v) => v.split(',').map((s) => s.trim()).filter(Boolean))
    .pipe(ZPersonIds),
});
export const ZLeadInListData = z.object({ items: z.array(z.object({ person_id: z.string(), lists: z.array(z.object({ id: z.string(), name: z.string() })) })) });
export const ZListLeadsQuery = z.object({
  list_id: ZListId,
  q: z.string().trim().max(100).optional(),
  page: ZPage.default(1),
  limit: ZPageSize.default(25),
});
export const ZListLeadsData = ZPaged(ZProspectPerson.extend({ added_at: z.string() }));

// ---------- enrichment ----------

export const ZEnrichOptions = z.object({ phones: ZEnrichPhones, emails: ZEnrichEmails });
export const ZEnrichState = z.enum(['queued', 'in_progress', 'completed', 'cancelled', 'failed']);
export type TEnrichState = z.infer<typeof ZEnrichState>;
export const ZEnrichRequest = z.object({
  request_id: z.string(),
  kind: z.enum(['lead', 'list']),
  list_id: z.string().nullable(),
  list_name: z.string().nullable(),
  state: ZEnrichState,
  options: ZEnrichOptions,
  total: z.number().int().nonnegative(),
  processed: z.number().int().nonnegative(),
  progress: z.number().int().min(0).max(100),
  emails_revealed: z.number().int().nonnegative(),
  phones_revealed: z.number().int().nonnegative(),
  credits_charged: z.number().int().nonnegative(),
  error: z.string().nullable(),
  /** Why a running enrichment waits (its organisation or owner suspended by an operator), null (or absent) otherwise. */
  paused_reason: z.string().nullable().optional(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TEnrichRequest = z.infer<typeof ZEnrichRequest>;

/** POST /prospect/enrich: reveal chosen people now (options default to the member's prospect settings). */
export const ZEnrichLeadsRequest = z.object({ person_ids: ZPersonIds.max(25, { message: 'Please enrich at most 25 people at once, or add them to a list' }), options: ZEnrichOptions.optional() });

/**
 * What became of one field (e-mail or phone) of one person in an enrichment. Only `revealed` is charged:
 * - `revealed`: shown now and charged; `already_revealed`: the organisation revealed it before (free);
 * - `none`: the directory holds no such data; `excluded`: it does not fit the enrich options;
 * - `undeliverable`: the verifier found the address cannot receive mail;
 * - `unverified`: the mail server did not confirm it now (greylisting, a timeout): try again later, or in a list;
 * - `out_of_time`: the request's time for checks ran out before this address was confirmed.
 */
export const REVEAL_FIELD_CODES = ['revealed', 'already_revealed', 'none', 'excluded', 'undeliverable', 'unverified', 'out_of_time'] as const;
export type TRevealFieldCode = (typeof REVEAL_FIELD_CODES)[number];
export const ZRevealField = z.object({
  code: z.enum(REVEAL_FIELD_CODES),
  credits: z.number().int().nonnegative(),
  /** Why the field was not revealed, for people (null when it shows). */
  reason: z.string().nullable(),
});
export type TRevealField = z.infer<typeof ZRevealField>;
export const ZRevealResult = z.object({ person_id: z.string(), email: ZRevealField, phone: ZRevealField });
export type TRevealResult = z.infer<typeof ZRevealResult>;
export const ZEnrichLeadsData = z.object({ request: ZEnrichRequest, people: z.array(ZProspectPerson), results: z.array(ZRevealResult) });
export type TEnrichLeadsData = z.infer<typeof ZEnrichLeadsData>;

/**
 * One sentence on what an enrichment left unrevealed (and uncharged), for the screens' notices: null when every
 * e-mail and phone asked for was revealed. Addresses a mail server did not confirm in time are named apart, since
 * trying again later (or enriching a list) can reveal them.
 */
export function describeUnrevealed(results: readonly TRevealResult[]): string | null {
  const count = (field: 'email' | 'phone', codes: TRevealFieldCode[]) => results.filter((r) => codes.includes(r[field].code)).length;
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  const parts: string[] = [];
  const pending = count('email', ['unverified', 'out_of_time']);
  const undeliverable = count('email', ['undeliverable']);
  const excluded = count('email', ['excluded']) + count('phone', ['excluded']);
  const missing = count('email', ['none']) + count('phone', ['none']);
  if (pending > 0) parts.push(`${plural(pending, 'e-mail')} could not be confirmed right now (try again in a few minutes, or enrich a list, which waits for slow mail servers)`);
  if (undeliverable > 0) parts.push(`${plural(undeliverable, 'e-mail')} cannot receive mail`);
  if (excluded > 0) parts.push(`${excluded} left out by your enrich options`);
  if (missing > 0) parts.push(`${missing} not in the directory`);
  if (parts.length === 0) return null;
  return `Not revealed and not charged: ${parts.join('; ')}.`;
}
/** POST /prospect/list/enrich: start (or, with `cancel`, stop) enriching a whole list. */
export const ZListEnrichRequest = z.object({ list_id: ZListId, options: ZEnrichOptions.optional(), cancel: z.boolean().optional() });
export const ZEnrichStatusQuery = z.object({ request_id: z.uuid({ message: 'Please choose a request' }) });
export const ZRequestsQuery = z.object({ page: ZPage.default(1), limit: ZPageSize.default(25) });
export const ZRequestsData = ZPaged(ZEnrichRequest);
/** POST /prospect/remove: stop a running enrichment, or remove a finished one from the requests. */
export const ZRemoveRequestRequest = z.object({ request_id: z.uuid({ message: 'Please choose a request' }) });

// ---------- exports ----------

/** POST /prospect/list/export: a list's leads as CSV or XLSX (revealed contact data only), prepared by the downloads job. */
export const ZListExportRequest = z.object({ list_id: ZListId, file_type: ZDownloadFileType.default('csv') });
/** POST /prospect/download: chosen people as a file (revealed contact data only). */
export const ZProspectDownloadRequest = z.object({ person_ids: ZPersonIds, file_type: ZDownloadFileType.default('csv') });

// ---------- home ----------

export const ZRecentAddedData = z.object({
  items: z.array(z.object({ person: ZProspectPerson, list_id: z.string(), list_name: z.string(), added_at: z.string() })),
});
export const ZRecentActivitiesData = z.object({
  items: z.array(z.object({ type: z.string(), description: z.string(), created_at: z.string() })),
});
