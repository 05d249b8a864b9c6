import * as z from 'zod/mini';

// Human validation messages for every schema in the app (server and browser share them): zod's
// default texts ("Too small: expected string to have >=3 characters") never reach a person.

const WORDS: Record<string, string> = {
  url: 'URL',
  urls: 'URLs',
  id: 'ID',
  ids: 'IDs',
  api: 'API',
  org: 'Organisation',
  tel: 'phone',
  csv: 'CSV',
  xlsx: 'XLSX',
};

/** A field's label for a person: org_website_url → Organisation website URL. */
export function humanFieldLabel(path: ReadonlyArray<PropertyKey>): string {
  const key = [...path].reverse().find((part): part is string => typeof part === 'string');
  if (!key) return 'This value';
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[_\s.-]+/)
    .filter(Boolean)
    .map((word) => WORDS[word.toLowerCase()] ?? word.toLowerCase());
  const text = words.join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function plural(count: number | bigint, word: string): string {
  return `${count} ${word}${Number(count) === 1 ? '' : 's'}`;
}

type TIssue = z.core.$ZodRawIssue;

function sizeWord(origin: string, count: number | bigint): string {
  if (origin === 'string') return plural(count, 'character');
  if (origin === 'array' || origin === 'set') return plural(count, 'item');
  if (origin === 'file') return plural(count, 'byte');
  return String(count);
}

function formatMessage(label: string, format: string): string {
  if (format === 'email') return 'Please enter a valid email address';
  if (format === 'url') return `${label} must be a valid link`;
  if (format === 'date') return `${label} must be a date (YYYY-MM-DD)`;
  if (format === 'datetime') return `${label} must be a date and time`;
  if (format === 'uuid' || format === 'cuid' || format === 'ulid') return `${label} is not a valid identifier`;
  return `${label} is not in the expected format`;
}

/** The message a person reads for one validation issue. */
export function humanIssueMessage(issue: TIssue): string {
  const label = humanFieldLabel(issue.path ?? []);
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined || issue.input === null || issue.input === '') return `${label} is required`;
      return `${label} is not valid`;
    case 'too_small': {
      const origin = String(issue.origin);
      if (origin === 'string' && Number(issue.minimum) === 1) return `${label} is required`;
      if (origin === 'array' && Number(issue.minimum) === 1) return `${label} needs at least one item`;
      if (origin === 'date') return `${label} is too early`;
      return `${label} must be at least ${sizeWord(origin, issue.minimum as number)}`;
    }
    case 'too_big': {
      const origin = String(issue.origin);
      if (origin === 'date') return `${label} is too late`;
      return `${label} must be at most ${sizeWord(origin, issue.maximum as number)}`;
    }
    case 'invalid_format':
      return formatMessage(label, String(issue.format));
    case 'invalid_value':
      return `Please choose a valid ${label.toLowerCase()}`;
    case 'not_multiple_of':
      return `${label} must be a multiple of ${String(issue.divisor)}`;
    case 'unrecognized_keys':
      return `Unexpected field${issue.keys.length === 1 ? '' : 's'}: ${issue.keys.join(', ')}`;
    default:
      return `${label} is not valid`;
  }
}

// zod's one global configuration (classic and mini share it). package.json lists this file under sideEffects so
// bundlers keep this call even when a page imports nothing else from here.
z.config({ customError: (issue) => humanIssueMessage(issue) });
