import { describe, expect, it } from 'vitest';
import { pollWhile } from './poll-while';

type TJob = { state: 'queued' | 'in_progress' | 'completed' };
const interval = pollWhile((job: TJob | undefined) => job?.state === 'queued' || job?.state === 'in_progress', 1_000);
const query = (data: TJob | undefined, fetchFailureCount = 0) => ({ state: { data, fetchFailureCount } });

describe('pollWhile', () => {
  it('polls at the usual pace while the job runs and stops once it ended or before anything is known', () => {
    expect(interval(query({ state: 'queued' }))).toBe(1_000);
    expect(interval(query({ state: 'in_progress' }))).toBe(1_000);
    expect(interval(query({ state: 'completed' }))).toBe(false);
    expect(interval(query(undefined))).toBe(false);
  });

  it('doubles the wait with each failed poll in a row, up to eight times the usual one', () => {
    const running = { state: 'in_progress' } as const;
    expect([1, 2, 3, 4, 10].map((failures) => interval(query(running, failures)))).toEqual([2_000, 4_000, 8_000, 8_000, 8_000]);
  });
});
