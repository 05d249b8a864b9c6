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
      ['prospect', 'home'],
      ['prospect', 'people_search'],
      ['prospect', 'company_search'],
      ['prospect', 'lists'],
      ['prospect', 'saved_searches'],
      ['prospect', 'people_profile'],
      ['prospect', 'company_profile'],
      ['reverse_lookup', 'rl_email'],
      ['reverse_lookup', 'rl_linkedin'],
      ['settings', 'prospect'],
      ['account', 'profile'],
      ['account', 'pricing'],
      ['account', 'api'],
      ['account', 'delete'],
      ['account', 'authentication'],
      ['account', 'help'],
      ['apps', 'list_app'],
      ['apps', 'create_app'],
      ['apps', 'edit_app'],
      ['developer', 'api'],
      ['developer', 'reference'],
      ['developer', 'webhook'],
      ['analytics', 'form_guard'],
      ['integrations', 'integration_list'],
      ['integrations', 'connected_accounts'],
      ['integrations', 'connect_account'],
      ['integrations', 'individual_integration'],
      ['analytics', 'overview'],
      ['analytics', 'email_verifier'],
      ['analytics', 'email_finder'],
      ['analytics', 'prospect'],
      ['analytics', 'team'],
      ['analytics', 'form_guard'],
    ] as const satisfies ReadonlyArray<readonly [TMenuArea, string]>
  ).map(([area, key]) => getMenuId({ area, key })),
);
