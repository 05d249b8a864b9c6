import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { getErrorMessage, isApiError } from './api-error';

/**
 * Puts a failed call's field reasons on the form's fields; returns the message for anything
 * that did not land on a field (or null when every reason did).
 */
export function applyServerErrors<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  fields: ReadonlyArray<Path<T>>,
): string | null {
  if (!isApiError(error) || error.reasons.length === 0) return getErrorMessage(error);
  let unplaced = false;
  for (const reason of error.reasons) {
    const field = fields.find((candidate) => candidate === reason.field);
    if (field) setError(field, { type: 'server', message: reason.messages.join(' ') });
    else unplaced = true;
  }
  return unplaced ? getErrorMessage(error) : null;
}
