import { describe, expect, it } from 'vitest';
import { getPageSelection, togglePageSelection, toggleRowSelection } from './row-selection';

describe('row selection', () => {
  it('toggles one row in and out', () => {
    const one = toggleRowSelection(new Set(), 'a');
    expect([...one]).toEqual(['a']);
    expect([...toggleRowSelection(one, 'a')]).toEqual([]);
  });

  it('reports none, some or all of the page', () => {
    expect(getPageSelection(new Set(), ['a', 'b'])).toBe('none');
    expect(getPageSelection(new Set(['a']), ['a', 'b'])).toBe('some');
    expect(getPageSelection(new Set(['a', 'b', 'z']), ['a', 'b'])).toBe('all');
    expect(getPageSelection(new Set(['a']), [])).toBe('none');
  });

  it('header toggle selects the page, then clears only the page', () => {
    const fromOtherPage = new Set(['z']);
    const all = togglePageSelection(fromOtherPage, ['a', 'b']);
    expect([...all].sort()).toEqual(['a', 'b', 'z']);
    const cleared = togglePageSelection(all, ['a', 'b']);
    expect([...cleared]).toEqual(['z']);
    const partial = togglePageSelection(new Set(['a']), ['a', 'b']);
    expect([...partial].sort()).toEqual(['a', 'b']);
  });
});
