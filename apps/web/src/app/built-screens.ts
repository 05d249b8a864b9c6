import { getMenuId, type TMenuArea } from '@verilead/contracts';

/**
 * The menu screens this app has built. A menu entry whose screen is not here is absent from the
 * navigation (never a placeholder); add the `<area>.<menu_key>` id when its screen lands.
 */
export const BUILT_SCREENS: ReadonlySet<string> = new Set<string>(
  (
    [
      ['dashboard', 'overview'],
      ['email_verifier', 'quick_validation'],
      ['email_verifier', 'email_verifier_list'],
      ['email_verifier', 'add_list'],
      ['email_finder', 'quick_email_finder'],
      ['email_finder', 'email_finder_lists'],
      ['email_finder', 'add_list'],
      ['settings', 'settings'],
      ['settings', 'email_verifier'],
      ['settings', 'email_finder'],
      ['admin', 'admin'],
      ['admin', 'email_verifier'],
      ['admin', 'email_finder'],
      ['admin', 'prospect'],
      ['account', 'profile'],
      ['account', 'pricing'],
      ['account', 'billing'],
      ['account', 'coupons'],
      ['account', 'api'],
      ['account', 'delete'],
      ['apps', 'list_app'],
      ['apps', 'create_app'],
      ['apps', 'edit_app'],
      ['developer', 'api'],
      ['developer', 'reference'],
      ['developer', 'webhook'],
    ] as const satisfies ReadonlyArray<readonly [TMenuArea, string]>
  ).map(([area, key]) => getMenuId({ area, key })),
);
