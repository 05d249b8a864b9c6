import { describe, expect, it, vi } from 'vitest';
import { ApiError, getErrorMessage } from './api-error';
import { applyServerErrors } from './form-errors';

const failure = (reasons: { field: string; messages: string[] }[]) =>
  new ApiError({
    status: 400,
    code: 'validation_failed',
    message: 'Please enter a last name. Please enter a valid link.',
    reasons: reasons.map((r) => ({ ...r, location: 'body' as const })),
  });

describe('server validation messages in forms', () => {
  it('never prefixes a message with its field key', () => {
    expect(getErrorMessage(failure([{ field: 'last_name', messages: ['Please enter a last name'] }]))).toBe('Please enter a last name');
    expect(getErrorMessage(failure([{ field: 'company_name', messages: ['Company name is required'] }, { field: 'url', messages: ['URL must be a valid link'] }]))).toBe(
      'Company name is required. URL must be a valid link.',
    );
  });

  it('places each reason on its field and reports only what did not land', () => {
    const setError = vi.fn();
    const error = failure([
      { field: 'last_name', messages: ['Please enter a last name'] },
      { field: 'url', messages: ['URL must be a valid link'] },
    ]);
    expect(applyServerErrors(error, setError, ['last_name'])).toBe('URL must be a valid link');
    expect(setError).toHaveBeenCalledWith('last_name', { type: 'server', message: 'Please enter a last name' });
    expect(applyServerErrors(error, vi.fn(), ['last_name', 'url'])).toBeNull();
  });

  it('places a nested reason on its nested field', () => {
    const setError = vi.fn();
    const error = failure([{ field: 'address.city', messages: ['City must be at most 100 characters'] }]);
    expect(applyServerErrors(error, setError, ['address.city'])).toBeNull();
    expect(setError).toHaveBeenCalledWith('address.city', { type: 'server', message: 'City must be at most 100 characters' });
  });
});
