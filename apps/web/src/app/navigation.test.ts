import { describe, expect, it } from 'vitest';
import { MENU_ENTRIES, ZRole, getMenuId, groupMenusByArea, visibleMenus } from '@verilead/contracts';
import { BUILT_SCREENS } from './built-screens';

const ALL_SCREENS = new Set(MENU_ENTRIES.map(getMenuId));
const ids = (entries: ReturnType<typeof visibleMenus>) => entries.map(getMenuId);

describe('menu table', () => {
  it('holds the 49 entries of spec/menus.tsv, the audit log (issue 31) and bounces (issue 32) with unique ids and paths', () => {
    expect(MENU_ENTRIES).toHaveLength(51);
    expect(new Set(MENU_ENTRIES.map(getMenuId)).size).toBe(51);
    expect(new Set(MENU_ENTRIES.map((entry) => entry.path)).size).toBe(51);
    expect(MENU_ENTRIES.find((entry) => entry.key === 'audit_log')).toMatchObject({ area: 'account', path: '/account/audit-log', roles: ['owner', 'admin'] });
  });
});

describe('visibleMenus with every screen built', () => {
  it('gives the owner every navigable entry', () => {
    const owner = ids(visibleMenus('owner', ALL_SCREENS));
    expect(owner).toContain('account.delete');
    expect(owner).toContain('account.billing');
    expect(owner).toContain('analytics.team');
    expect(owner).toContain('admin.admin');
    expect(owner).not.toContain('prospect.people_profile');
  });

  it('gives the manager admin and team analytics but not billing, pricing, coupons or delete', () => {
    const admin = ids(visibleMenus('admin', ALL_SCREENS));
    expect(admin).toEqual(expect.arrayContaining(['admin.admin', 'analytics.team', 'account.api', 'account.plan', 'account.authentication']));
    for (const id of ['account.billing', 'account.pricing', 'account.coupons', 'account.delete']) expect(admin).not.toContain(id);
  });

  it('gives the executive no admin menus and analytics without team', () => {
    const analyst = ids(visibleMenus('analyst', ALL_SCREENS));
    expect(analyst.some((id) => id.startsWith('admin.'))).toBe(false);
    expect(analyst).not.toContain('analytics.team');
    expect(analyst).toContain('analytics.overview');
    expect(analyst).toEqual(expect.arrayContaining(['account.profile', 'account.help', 'developer.api']));
    for (const id of ['account.api', 'account.plan', 'integrations.connected_accounts']) expect(analyst).not.toContain(id);
  });
});

describe('visibleMenus with the built screens', () => {
  it('lists exactly the built screens each role may use', () => {
    for (const role of ZRole.options) {
      const expected = MENU_ENTRIES.filter(
        (entry) => BUILT_SCREENS.has(getMenuId(entry)) && entry.roles.includes(role) && !entry.path.includes(':'),
      ).map(getMenuId);
      expect(ids(visibleMenus(role, BUILT_SCREENS))).toEqual(expected);
    }
  });

  it('keeps the foundation screens per role', () => {
    const owner = ids(visibleMenus('owner', BUILT_SCREENS));
    const admin = ids(visibleMenus('admin', BUILT_SCREENS));
    const analyst = ids(visibleMenus('analyst', BUILT_SCREENS));
    expect(owner).toEqual(expect.arrayContaining(['dashboard.overview', 'account.profile', 'account.pricing', 'account.api', 'account.delete']));
    expect(admin).toEqual(expect.arrayContaining(['dashboard.overview', 'account.profile', 'account.api']));
    expect(analyst).toEqual(expect.arrayContaining(['dashboard.overview', 'account.profile', 'settings.settings']));
    for (const id of ['account.pricing', 'account.delete']) expect(admin).not.toContain(id);
    for (const id of ['account.pricing', 'account.delete', 'account.api']) expect(analyst).not.toContain(id);
  });

  it('never lists a screen that is not built', () => {
    const partial = new Set(['dashboard.overview', 'account.profile']);
    for (const role of ZRole.options) expect(ids(visibleMenus(role, partial))).toEqual(['dashboard.overview', 'account.profile']);
  });

  it('groups by area in navigation order', () => {
    const groups = groupMenusByArea(visibleMenus('owner', new Set(['account.delete', 'dashboard.overview', 'settings.settings', 'account.profile'])));
    expect(groups.map((group) => group.area)).toEqual(['dashboard', 'settings', 'account']);
    expect(groups[2]?.entries.map((entry) => entry.key)).toEqual(['profile', 'delete']);
  });
});
