import { describe, expect, it } from 'vitest';
import { buildList } from '../test-data';
import { canCancelList, canExportList, canVerifyList } from './list-actions-rules';

describe('list action rules', () => {
  it('verifies an analysed list with addresses left, and resumes a cancelled one', () => {
    expect(canVerifyList(buildList())).toBe(true);
    expect(canVerifyList(buildList({ state: 'cancelled', counts: { rows: 14, unique: 10, duplicate: 2, syntax_error: 2, verified: 4, remaining: 6 } }))).toBe(true);
    expect(canVerifyList(buildList({ analysis: { state: 'processing', error: null } }))).toBe(false);
    expect(canVerifyList(buildList({ state: 'verified', counts: { rows: 14, unique: 10, duplicate: 2, syntax_error: 2, verified: 10, remaining: 0 } }))).toBe(false);
  });

  it('cancels only a running list', () => {
    expect(canCancelList(buildList({ state: 'in_progress' }))).toBe(true);
    expect(canCancelList(buildList())).toBe(false);
  });

  it('exports once something was verified, never while running', () => {
    expect(canExportList(buildList())).toBe(false);
    expect(canExportList(buildList({ state: 'verified' }))).toBe(true);
    expect(canExportList(buildList({ state: 'cancelled', counts: { rows: 14, unique: 10, duplicate: 2, syntax_error: 2, verified: 3, remaining: 7 } }))).toBe(true);
    expect(canExportList(buildList({ state: 'in_progress', counts: { rows: 14, unique: 10, duplicate: 2, syntax_error: 2, verified: 3, remaining: 7 } }))).toBe(false);
  });
});
