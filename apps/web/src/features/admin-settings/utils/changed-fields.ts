function isSameValue(left: unknown, right: unknown): boolean {
  if (Object.is(left, right)) return true;
  if (typeof left !== 'object' || typeof right !== 'object' || left === null || right === null) return false;
  const leftKeys = Object.keys(left);
  const rightKeys = Object.keys(right);
  if (leftKeys.length !== rightKeys.length) return false;
  return leftKeys.every((key) => isSameValue((left as Record<string, unknown>)[key], (right as Record<string, unknown>)[key]));
}

/** The fields of `next` whose value differs from `saved` (nested objects compared by value, sent whole). */
export function pickChangedFields<T extends Record<string, unknown>>(saved: T, next: T): Partial<T> {
  const changed: Partial<T> = {};
  for (const key of Object.keys(next) as Array<keyof T>) {
    if (!isSameValue(saved[key], next[key])) changed[key] = next[key];
  }
  return changed;
}
