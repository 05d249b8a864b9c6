import type { CountryCode } from 'libphonenumber-js/max';
import { scoreGibberish, GIBBERISH_THRESHOLDS, type TVerificationResult } from '@verilead/verifier';
import { TEST_ADDRESSES, type TFormGuardSettings } from '@verilead/contracts';

/** A field's judgement under a guard's settings (no I/O: the e-mail verdict is passed in). */
export type TJudgement = { acceptable: boolean; reason: string | null; details: Record<string, unknown> };

/** Whether a verdict is billable by the product's rule: valid, invalid and catch-all are; unknown is not. */
export function isBillableVerdict(result: Pick<TVerificationResult, 'status'>): boolean {
  return result.status !== 'unknown';
}

/** The fixed verdict of a reserved test address (valid@example.com …), or null. Test addresses cost nothing. */
export function findTestAddress(email: string): Pick<TVerificationResult, 'email' | 'status' | 'safe_to_send' | 'disposable' | 'free_account' | 'role_account' | 'gibberish'> | null {
  const lower = email.trim().toLowerCase();
  const entry = TEST_ADDRESSES.find((a) => a.email === lower);
  if (!entry) return null;
  const account = lower.split('@')[0] ?? '';
  return { email: lower, status: entry.status, safe_to_send: entry.safe_to_send, disposable: account === 'disposable', free_account: false, role_account: account === 'role', gibberish: false };
}

/** An e-mail verdict against the guard's rules: invalid is always refused; the chosen verdicts too. */
export function judgeEmail(
  result: Pick<TVerificationResult, 'email' | 'status' | 'safe_to_send' | 'disposable' | 'free_account' | 'role_account' | 'gibberish'>,
  settings: TFormGuardSettings['email'],
): TJudgement {
  const details = { status: result.status, safe_to_send: result.safe_to_send, disposable: result.disposable, free_account: result.free_account, role_account: result.role_account, gibberish: result.gibberish };
  const refuse = (reason: string): TJudgement => ({ acceptable: false, reason, details });
  if (result.status === 'invalid') return refuse(result.disposable ? 'disposable' : 'invalid');
  const rules = new Set(settings.reject);
  if (rules.has('disposable') && result.disposable) return refuse('disposable');
  if (rules.has('role') && result.role_account) return refuse('role');
  if (rules.has('free') && result.free_account) return refuse('free');
  if (rules.has('gibberish') && result.gibberish) return refuse('gibberish');
  if (rules.has('unknown') && result.status === 'unknown') return refuse('unknown');
  if (rules.has('catch_all') && result.status === 'catch_all') return refuse('catch_all');
  if (settings.safe_to_send_only && result.safe_to_send !== 'yes') return refuse('not_safe_to_send');
  return { acceptable: true, reason: null, details };
}

/** A phone number (international, or national in the default country) against the allowed countries and line types. */
export async function judgePhone(value: string, settings: TFormGuardSettings['phone']): Promise<TJudgement> {
  const { default: parsePhoneNumber } = await import('libphonenumber-js/max');
  const phone = parsePhoneNumber(value, settings.default_country ? { defaultCountry: settings.default_country as CountryCode } : undefined);
  if (!phone || !phone.isValid()) return { acceptable: false, reason: 'invalid', details: {} };
  const details = { e164: phone.number, country: phone.country ?? null, line_type: phone.getType() ?? null };
  if (settings.allowed_countries.length > 0 && !settings.allowed_countries.includes(phone.country ?? '')) return { acceptable: false, reason: 'country', details };
  // A number the metadata cannot tell mobile from fixed line passes when either is allowed.
  const type = details.line_type;
  const types = new Set<string>(settings.line_types);
  const typeAllowed = types.size === 0 || (type !== null && (types.has(type) || (type === 'FIXED_LINE_OR_MOBILE' && (types.has('MOBILE') || types.has('FIXED_LINE')))));
  if (!typeAllowed) return { acceptable: false, reason: 'line_type', details };
  return { acceptable: true, reason: null, details };
}

/** A person's name: letters (any script), spaces, apostrophes, dots and hyphens, and not gibberish at the threshold. */
export function judgeName(value: string, settings: TFormGuardSettings['name']): TJudgement {
  const name = value.trim();
  if (!/^[\p{L}][\p{L}\p{M}' .-]{0,99}$/u.test(name)) return { acceptable: false, reason: 'invalid', details: {} };
  // Each word is scored; the name is gibberish when its worst word is.
  const words = name.split(/[\s.-]+/).filter((w) => /^[a-z']{3,}$/i.test(w));
  const score = words.length === 0 ? 0 : Math.max(...words.map((w) => scoreGibberish(w.replace(/'/g, '').toLowerCase())));
  const details = { gibberish_score: Math.round(score * 100) / 100 };
  if (score >= GIBBERISH_THRESHOLDS[settings.gibberish_threshold]) return { acceptable: false, reason: 'gibberish', details };
  return { acceptable: true, reason: null, details };
}
