import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { getErrorMessage, isApiError, joinReasonMessages } from './api-error';

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
  const unplaced = error.reasons.filter((reason) => {
    const field = fields.find((candidate) => candidate === reason.field);
    if (field) setError(field, { type: 'server', message: reason.messages.join(' ') });
    return !field;
  });
  if (unplaced.length === 0) return null;
  // A validation failure speaks through its reasons; any other failure has its own message.
  if (error.code !== 'validation_failed') return getErrorMessage(error);
  return joinReasonMessages(unplaced) ?? getErrorMessage(error);
}
