// Text no database or mail system can hold: a NUL character, or a lone UTF-16 surrogate (broken Unicode).

// eslint-disable-next-line no-control-regex -- the NUL character is exactly what this looks for
const INVALID_TEXT = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** True when a string holds a NUL character or a lone surrogate. */
export function hasInvalidText(value: string): boolean {
  return INVALID_TEXT.test(value);
}

/** The path ("email", "items.0.name") of the first string (or key) holding invalid text in a parsed input, or null. */
export function findInvalidText(value: unknown, path = '', depth = 0): string | null {
  if (typeof value === 'string') return hasInvalidText(value) ? path || '(root)' : null;
  if (value === null || typeof value !== 'object' || depth > 32) return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findInvalidText(value[i], path ? `${path}.${i}` : String(i), depth + 1);
      if (found) return found;
    }
    return null;
  }
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    const at = path ? `${path}.${key}` : key;
    if (hasInvalidText(key)) return at;
    const found = findInvalidText(v, at, depth + 1);
    if (found) return found;
  }
  return null;
}

export const INVALID_TEXT_MESSAGE = 'This text contains characters that are not allowed (a NUL character or broken Unicode)';
