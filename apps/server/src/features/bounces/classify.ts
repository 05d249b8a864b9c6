/**
 * Reading a bounce report from any ESP: which column holds the address, the bounce type, the SMTP code, the reason
 * and the date (SendGrid, Mailchimp, Brevo, Mailgun, Postmark, Amazon SES and HubSpot exports name them differently),
 * and whether a row is a hard or a soft bounce (the type's words, else the SMTP code: 5.x.x / 5xx hard, 4.x.x / 4xx
 * soft, else the reason's words). Pure: the routes' preview and the apply read through here.
 */
import { detectEmailColumn, sheetColumns, type TBounceKind, type TBounceMapping } from '@verilead/contracts';

/** Header names of each ESP's bounce export (lower-cased), to name the ESP in the preview. */
const ESP_SIGNATURES: Record<string, readonly string[]> = {
  SendGrid: ['sg_event_id', 'sg_message_id', 'bounce_classification', 'created', 'status', 'reason'],
  Mailchimp: ['email address', 'bounce type', 'clean_campaign_title', 'clean_campaign_id', 'cleaned_time', 'member_rating'],
  Brevo: ['st_text', 'event', 'date_event', 'hard_bounce', 'soft_bounce', 'ts_event'],
  Mailgun: ['recipient', 'severity', 'delivery-status.code', 'delivery-status.message', 'event'],
  Postmark: ['typecode', 'bouncedat', 'messageid', 'inactive', 'canactivate', 'details', 'description'],
  'Amazon SES': ['bouncetype', 'bouncesubtype', 'emailaddress', 'diagnosticcode', 'feedbackid', 'bounce type', 'bounce sub type'],
  HubSpot: ['recipient', 'event type', 'bounce category', 'response', 'portal id', 'email campaign'],
};

const TYPE_HEADER = /bounce[\s_.-]?(type|category|class(ification)?)|^bouncetype$|severity|classification|^type$|^event([\s_-]?type)?$|^category$|^st_text$/i;
const CODE_HEADER = /status|code|smtp|enhanced/i;
const REASON_HEADER = /reason|description|details|diagnostic|message|response|error/i;
const DATE_HEADER = /date|time|created|bounced[\s_-]?at|timestamp|^ts/i;
/** An enhanced status (5.1.1) or a reply code (550), alone or inside a longer text ("smtp;550 5.1.1 no such user"). */
const CODE_VALUE = /\b([45])\.\d{1,3}\.\d{1,3}\b|(?:^|[\s;:])([45])\d\d(?![\d.:])/;

/** "HardBounce", "hard_bounce", "UNKNOWN_USER" → "hard bounce", "unknown user". */
function words(text: string): string {
  return ` ${text.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/[_\-.]+/g, ' ').toLowerCase().replace(/\s+/g, ' ').trim()} `;
}

const HARD_WORDS = [' hard ', ' permanent ', ' unknown user ', ' user unknown ', ' bad email ', ' bad mailbox ', ' invalid ', ' no such ', ' does not exist ', ' not exist', ' undeliverable ', ' bounced address ', ' mailbox not found ', ' address not found ', ' cleaned '];
const SOFT_WORDS = [' soft ', ' transient ', ' temporary ', ' mailbox full ', ' quota ', ' deferred ', ' dns ', ' timeout ', ' blocked ', ' throttl', ' greylist', ' auto reply ', ' delayed '];

function kindOfWords(text: string): TBounceKind | null {
  const w = words(text);
  if (w.trim() === '') return null;
  // "soft" and "hard" first: "SoftBounce" says it whatever else follows.
  if (w.includes(' soft ')) return 'soft';
  if (w.includes(' hard ')) return 'hard';
  if (SOFT_WORDS.some((s) => w.includes(s))) return 'soft';
  if (HARD_WORDS.some((s) => w.includes(s))) return 'hard';
  return null;
}

/** 5.x.x or 5xx: hard; 4.x.x or 4xx: soft. */
export function kindOfCode(text: string): TBounceKind | null {
  const m = CODE_VALUE.exec(text);
  if (!m) return null;
  return (m[1] ?? m[2]) === '5' ? 'hard' : 'soft';
}

/** A row's bounce kind: the type column's words, else its code, else the SMTP code or words of the code and reason. */
export function classifyBounce(cells: { type?: string; code?: string; reason?: string }): TBounceKind | null {
  const type = cells.type?.trim() ?? '';
  if (type) {
    const byWords = kindOfWords(type);
    if (byWords) return byWords;
    const byCode = kindOfCode(type);
    if (byCode) return byCode;
  }
  const code = cells.code?.trim() ?? '';
  const byCode = code ? kindOfCode(code) : null;
  if (byCode) return byCode;
  const reason = cells.reason?.trim() ?? '';
  return (reason && (kindOfCode(reason) ?? kindOfWords(reason))) || (code ? kindOfWords(code) : null);
}

function findColumn(header: readonly string[], pattern: RegExp, taken: ReadonlySet<number>, prefer?: (i: number) => boolean): number | null {
  const hits = header.flatMap((h, i) => (!taken.has(i) && pattern.test(h.trim()) ? [i] : []));
  return hits.find((i) => prefer?.(i)) ?? hits[0] ?? null;
}

export type TDetectedReport = { hasHeader: boolean; columns: string[]; mapping: TBounceMapping; esp: string | null };

/** Reads a report's first rows: its header, the columns of the mapping, and the ESP it looks like. */
export function detectBounceReport(rows: readonly (readonly string[])[]): TDetectedReport {
  const guess = detectEmailColumn(rows);
  const hasHeader = guess.hasHeader;
  const columns = sheetColumns(rows, hasHeader).map((c) => c.label);
  const header = hasHeader ? (rows[0] ?? []).map((h) => h.trim()) : [];
  const data = rows.slice(hasHeader ? 1 : 0);
  const email = guess.columnIndex ?? 0;
  const taken = new Set([email]);
  const share = (i: number, test: (v: string) => boolean) => {
    const cells = data.map((r) => r[i] ?? '').filter((v) => v.trim() !== '');
    return cells.length > 0 && cells.filter(test).length / cells.length >= 0.5;
  };
  const classifies = (i: number) => share(i, (v) => kindOfWords(v) !== null || kindOfCode(v) !== null);
  let type = findColumn(header, TYPE_HEADER, taken, classifies);
  if (type === null && !hasHeader) {
    // No header to name it: the column whose cells read as bounce types.
    const width = Math.max(0, ...rows.map((r) => r.length));
    for (let i = 0; i < width && type === null; i++) if (!taken.has(i) && share(i, (v) => kindOfWords(v) !== null)) type = i;
  }
  if (type !== null) taken.add(type);
  // The SMTP code: a column so named that holds codes, else any column that holds them (Postmark's "Details"), else the named one.
  const holdsCodes = (i: number) => share(i, (v) => kindOfCode(v) !== null);
  const width = Math.max(0, ...rows.map((r) => r.length));
  const anyWithCodes = Array.from({ length: width }, (_, i) => i).find((i) => !taken.has(i) && holdsCodes(i)) ?? null;
  const named = findColumn(header, CODE_HEADER, taken);
  const code = (named !== null && holdsCodes(named) ? named : null) ?? anyWithCodes ?? named;
  if (code !== null) taken.add(code);
  const reason = findColumn(header, REASON_HEADER, taken);
  if (reason !== null) taken.add(reason);
  const date = findColumn(header, DATE_HEADER, taken, (i) => share(i, (v) => parseBounceDate(v, new Date()) !== null));
  const lower = new Set(header.map((h) => h.toLowerCase()));
  let esp: string | null = null;
  let best = 1;
  for (const [name, names] of Object.entries(ESP_SIGNATURES)) {
    const n = names.filter((h) => lower.has(h)).length;
    if (n > best) [esp, best] = [name, n];
  }
  return { hasHeader, columns, esp, mapping: { email_column: email, type_column: type, code_column: code, reason_column: reason, date_column: date } };
}

/**
 * A bounce's moment from a report's cell: ISO or "YYYY-MM-DD HH:MM:SS" (UTC), epoch seconds or milliseconds, a date
 * alone (read as the end of that day); never later than `now`. Null when the cell holds no date.
 */
export function parseBounceDate(cell: string, now: Date): Date | null {
  const text = cell.trim();
  if (!text) return null;
  let at: number;
  if (/^\d{10}(\.\d+)?$/.test(text)) at = Number(text) * 1000;
  else if (/^\d{13}$/.test(text)) at = Number(text);
  else if (/^\d{4}-\d{2}-\d{2}$/.test(text)) at = Date.parse(`${text}T23:59:59Z`);
  else if (/^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(text)) at = Date.parse(`${text.replace(' ', 'T')}Z`);
  else if (/\d{4}/.test(text)) at = Date.parse(text);
  else return null;
  if (!Number.isFinite(at)) return null;
  const year = new Date(at).getUTCFullYear();
  if (year < 1990 || year > 2999) return null;
  return new Date(Math.min(at, now.getTime()));
}

/** The cells of one row as the mapping reads them. */
export function readMappedRow(row: readonly string[], m: TBounceMapping) {
  const cell = (i: number | null) => (i === null ? '' : (row[i] ?? '').trim());
  return { email: cell(m.email_column).toLowerCase(), type: cell(m.type_column), code: cell(m.code_column), reason: cell(m.reason_column), date: cell(m.date_column) };
}
