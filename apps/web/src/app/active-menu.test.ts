import { describe, expect, it } from 'vitest';
import { findActiveMenuPath } from './active-menu';

const PATHS = ['/', '/settings', '/settings/email_verifier', '/admin', '/admin/email_verifier', '/email_verifier/lists'];

describe('findActiveMenuPath', () => {
  it('picks the longest menu path a screen falls under, and only one', () => {
    expect(findActiveMenuPath(PATHS, '/settings/email_verifier')).toBe('/settings/email_verifier');
    expect(findActiveMenuPath(PATHS, '/settings')).toBe('/settings');
    expect(findActiveMenuPath(PATHS, '/admin/email_verifier')).toBe('/admin/email_verifier');
    expect(findActiveMenuPath(PATHS, '/email_verifier/lists/123')).toBe('/email_verifier/lists');
  });

  it('matches the dashboard only on / and nothing for unrelated paths', () => {
    expect(findActiveMenuPath(PATHS, '/')).toBe('/');
    expect(findActiveMenuPath(PATHS, '/activities')).toBeNull();
    expect(findActiveMenuPath(PATHS, '/settingsx')).toBeNull();
  });

  it('lights the search a profile is opened from, not the area\'s Home (/prospect)', () => {
    const prospect = ['/', '/prospect', '/prospect/people_search', '/prospect/company_search', '/prospect/lists'];
    expect(findActiveMenuPath(prospect, '/prospect/people/8d1c')).toBe('/prospect/people_search');
    expect(findActiveMenuPath(prospect, '/prospect/company/42')).toBe('/prospect/company_search');
    expect(findActiveMenuPath(prospect, '/prospect/lists/7')).toBe('/prospect/lists');
  });
});
