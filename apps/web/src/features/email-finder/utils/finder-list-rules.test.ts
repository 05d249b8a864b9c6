import { describe, expect, it } from 'vitest';
import { canCancelFinderList, canDownloadFinderList, canFindEmails, isFinderListBusy } from './finder-list-rules';

const counts = (processed: number, remaining: number) => ({ rows: 10, searchable: 8, skipped: 2, duplicate: 0, processed, remaining });

describe('finder list actions', () => {
  it('finds a new or cancelled list with rows left, never a running or finished one', () => {
    expect(canFindEmails({ state: 'not_processed', activity: null, counts: counts(0, 8) })).toBe(true);
    expect(canFindEmails({ state: 'cancelled', activity: null, counts: counts(3, 5) })).toBe(true);
    expect(canFindEmails({ state: 'cancelled', activity: null, counts: counts(8, 0) })).toBe(false);
    expect(canFindEmails({ state: 'in_progress', activity: 'find_emails', counts: counts(3, 5) })).toBe(false);
    expect(canFindEmails({ state: 'processed', activity: null, counts: counts(8, 0) })).toBe(false);
  });
  it('cancels only a running list and downloads once something was searched', () => {
    expect(canCancelFinderList({ state: 'in_progress', activity: 'find_emails', counts: counts(1, 7) })).toBe(true);
    expect(canCancelFinderList({ state: 'cancelled', activity: null, counts: counts(1, 7) })).toBe(false);
    expect(canDownloadFinderList({ state: 'not_processed', activity: null, counts: counts(0, 8) })).toBe(false);
    expect(canDownloadFinderList({ state: 'cancelled', activity: null, counts: counts(2, 6) })).toBe(true);
    expect(canDownloadFinderList({ state: 'in_progress', activity: 'find_emails', counts: counts(2, 6) })).toBe(false);
    expect(canDownloadFinderList({ state: 'processed', activity: null, counts: counts(0, 0) })).toBe(true);
  });
  it('is busy while in progress or while a job is attached', () => {
    expect(isFinderListBusy({ state: 'not_processed', activity: 'find_emails' })).toBe(true);
    expect(isFinderListBusy({ state: 'processed', activity: null })).toBe(false);
    expect(isFinderListBusy({ state: 'processed', activity: 'failed' })).toBe(false);
  });
});
