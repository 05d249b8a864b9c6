import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { findMenuEntry, getRouteAccess, type TMenuArea, type TRouteAccess } from '@verilead/contracts';

export type TAppRoute = {
  path: string;
  access: TRouteAccess;
  /** auth: centred card beside the brand panel; app: the logged-in shell. */
  layout: 'auth' | 'app';
  screen: LazyExoticComponent<ComponentType>;
};

/** A lazily loaded screen with the app's query client around it (loaded beside the screen). */
function pick<T extends Record<string, unknown>>(load: () => Promise<T>, name: keyof T) {
  return lazy(async () => {
    const [module, { withQueryClient }] = await Promise.all([load(), import('./query-boundary')]);
    return { default: withQueryClient(module[name] as ComponentType) };
  });
}

/** A lazily loaded screen that needs no server-state cache (the log-in page: its call is a plain request). */
function pickPlain<T extends Record<string, unknown>>(load: () => Promise<T>, name: keyof T) {
  return lazy(async () => ({ default: (await load())[name] as ComponentType }));
}

function menuPath(area: TMenuArea, key: string): string {
  const entry = findMenuEntry(area, key);
  if (!entry) throw new Error(`No menu entry ${area}.${key}`);
  return entry.path;
}

const loadAuth = {
  login: () => import('../features/auth/routes/login-screen'),
  signup: () => import('../features/auth/routes/signup-screen'),
  forgot: () => import('../features/auth/routes/forgot-password-screen'),
  reset: () => import('../features/auth/routes/reset-password-screen'),
  setup: () => import('../features/auth/routes/setup-password-screen'),
  expired: () => import('../features/auth/routes/expired-password-screen'),
  verify: () => import('../features/auth/routes/email-verification-screen'),
};

const SignupScreen = pick(loadAuth.signup, 'SignupScreen');

function authRoute(path: string, screen: LazyExoticComponent<ComponentType>): TAppRoute {
  return { path, access: getRouteAccess(path), layout: 'auth', screen };
}

function appRoute(path: string, screen: LazyExoticComponent<ComponentType>): TAppRoute {
  return { path, access: getRouteAccess(path), layout: 'app', screen };
}

/** Every built screen; access comes from the route table of contracts (spec/routes.tsv). */
export const APP_ROUTES: readonly TAppRoute[] = [
  authRoute('/login', pickPlain(loadAuth.login, 'LoginScreen')),
  authRoute('/register', SignupScreen),
  authRoute('/signup', SignupScreen),
  authRoute('/forgot_password', pick(loadAuth.forgot, 'ForgotPasswordScreen')),
  authRoute('/expired_password', pick(loadAuth.expired, 'ExpiredPasswordScreen')),
  authRoute('/resetpassword', pick(loadAuth.reset, 'ResetPasswordScreen')),
  authRoute('/setup_password', pick(loadAuth.setup, 'SetupPasswordScreen')),
  authRoute('/emailverification', pick(loadAuth.verify, 'EmailVerificationScreen')),
  authRoute('/terms', pick(() => import('../features/public/routes/terms-screen'), 'TermsScreen')),
  authRoute('/public/instant_search', pick(() => import('../features/public/routes/public-instant-search-screen'), 'PublicInstantSearchScreen')),
  authRoute('/public/reverse-lookup', pick(() => import('../features/prospects/routes/public-reverse-lookup-screen'), 'PublicReverseLookupScreen')),
  authRoute('/download_result/:download_id', pick(() => import('../features/downloads/routes/download-screens'), 'DownloadResultScreen')),
  authRoute('/download/result', pick(() => import('../features/downloads/routes/download-screens'), 'DownloadTokenScreen')),
  authRoute('/input_download/:request_id', pick(() => import('../features/downloads/routes/download-screens'), 'InputDownloadScreen')),
  authRoute('/download/email_finder_result', pick(() => import('../features/email-finder/routes/finder-download-screens'), 'FinderResultDownloadScreen')),
  authRoute('/sso/signin', pick(() => import('../features/sso/routes/sso-signin-screen'), 'SsoSigninScreen')),
  authRoute('/onetool_login', pick(() => import('../features/sso/routes/onetool-login-screen'), 'OnetoolLoginScreen')),
  authRoute('/enterprise/register', pick(() => import('../features/sso/routes/enterprise-register-screen'), 'EnterpriseRegisterScreen')),
  authRoute('/public/credits', pick(() => import('../features/public/routes/credits-calculator-screen'), 'CreditsCalculatorScreen')),
  authRoute('/public/chrome-extension-uninstall', pick(() => import('../features/public/routes/extension-uninstall-screen'), 'ExtensionUninstallScreen')),
  authRoute('/public/marketing_stats/', pick(() => import('../features/public/routes/marketing-stats-screen'), 'MarketingStatsScreen')),
  authRoute('/thank_you', pick(() => import('../features/public/routes/thank-you-screen'), 'ThankYouScreen')),
  authRoute('/download_email_finder_history', pick(() => import('../features/email-finder/routes/finder-download-screens'), 'FinderHistoryDownloadScreen')),

  appRoute(menuPath('dashboard', 'overview'), pick(() => import('../features/dashboard/routes/overview-screen'), 'OverviewScreen')),
  appRoute(menuPath('account', 'profile'), pick(() => import('../features/account/routes/profile-screen'), 'ProfileScreen')),
  appRoute(menuPath('account', 'api'), pick(() => import('../features/account/routes/api-key-screen'), 'ApiKeyScreen')),
  appRoute(menuPath('account', 'delete'), pick(() => import('../features/account/routes/delete-account-screen'), 'DeleteAccountScreen')),
  appRoute(menuPath('account', 'authentication'), pick(() => import('../features/sso/routes/authentication-screen'), 'AuthenticationScreen')),
  appRoute(menuPath('account', 'audit_log'), pick(() => import('../features/audit/routes/audit-log-screen'), 'AuditLogScreen')),
  appRoute(menuPath('account', 'help'), pick(() => import('../features/sso/routes/help-screen'), 'HelpScreen')),
  appRoute(menuPath('account', 'pricing'), pick(() => import('../features/billing/routes/pricing-screen'), 'PricingScreen')),
  appRoute('/account/credits', pick(() => import('../features/billing/routes/credits-screen'), 'CreditsScreen')),
  appRoute(menuPath('account', 'plan'), pick(() => import('../features/billing/routes/plan-screen'), 'PlanScreen')),
  appRoute(menuPath('account', 'billing'), pick(() => import('../features/billing/routes/billing-screen'), 'BillingScreen')),
  appRoute(menuPath('account', 'coupons'), pick(() => import('../features/billing/routes/coupons-screen'), 'CouponsScreen')),
  appRoute('/payment/thank-you', pick(() => import('../features/billing/routes/thank-you-screen'), 'ThankYouScreen')),
  appRoute('/activities', pick(() => import('../features/activities/routes/activities-screen'), 'ActivitiesScreen')),
  appRoute(menuPath('email_verifier', 'quick_validation'), pick(() => import('../features/email-verifier/routes/quick-validation-screen'), 'QuickValidationScreen')),
  appRoute(menuPath('email_verifier', 'email_verifier_list'), pick(() => import('../features/email-verifier/routes/lists-screen'), 'ListsScreen')),
  appRoute('/email_verifier/lists/:listId', pick(() => import('../features/email-verifier/routes/list-detail-screen'), 'ListDetailScreen')),
  appRoute(menuPath('email_verifier', 'add_list'), pick(() => import('../features/email-verifier/routes/add-list-screen'), 'AddListScreen')),
  appRoute(menuPath('email_finder', 'quick_email_finder'), pick(() => import('../features/email-finder/routes/quick-finder-screen'), 'QuickFinderScreen')),
  appRoute(menuPath('email_finder', 'email_finder_lists'), pick(() => import('../features/email-finder/routes/finder-lists-screen'), 'FinderListsScreen')),
  appRoute('/email_finder/lists/:listId', pick(() => import('../features/email-finder/routes/finder-list-detail-screen'), 'FinderListDetailScreen')),
  appRoute(menuPath('email_finder', 'add_list'), pick(() => import('../features/email-finder/routes/finder-add-list-screen'), 'FinderAddListScreen')),
  appRoute(menuPath('settings', 'settings'), pick(() => import('../features/settings/routes/settings-screen'), 'SettingsScreen')),
  appRoute(menuPath('settings', 'email_verifier'), pick(() => import('../features/settings/routes/ev-settings-screen'), 'EvSettingsScreen')),
  appRoute(menuPath('settings', 'email_finder'), pick(() => import('../features/settings/routes/ef-settings-screen'), 'EfSettingsScreen')),
  appRoute(menuPath('admin', 'admin'), pick(() => import('../features/team/routes/members-screen'), 'MembersScreen')),
  appRoute(menuPath('admin', 'email_verifier'), pick(() => import('../features/admin-settings/routes/admin-email-verifier-screen'), 'AdminEmailVerifierScreen')),
  appRoute(menuPath('admin', 'email_finder'), pick(() => import('../features/admin-settings/routes/admin-email-finder-screen'), 'AdminEmailFinderScreen')),
  appRoute(menuPath('admin', 'prospect'), pick(() => import('../features/admin-settings/routes/admin-prospect-screen'), 'AdminProspectScreen')),
  appRoute(menuPath('prospect', 'home'), pick(() => import('../features/prospects/routes/prospect-home-screen'), 'ProspectHomeScreen')),
  appRoute(menuPath('prospect', 'people_search'), pick(() => import('../features/prospects/routes/people-search-screen'), 'PeopleSearchScreen')),
  appRoute(menuPath('prospect', 'company_search'), pick(() => import('../features/prospects/routes/company-search-screen'), 'CompanySearchScreen')),
  appRoute(menuPath('prospect', 'lists'), pick(() => import('../features/prospects/routes/lists-screen'), 'ProspectListsScreen')),
  appRoute('/prospect/lists/:listId', pick(() => import('../features/prospects/routes/list-detail-screen'), 'ProspectListDetailScreen')),
  appRoute(menuPath('prospect', 'saved_searches'), pick(() => import('../features/prospects/routes/saved-searches-screen'), 'SavedSearchesScreen')),
  appRoute(menuPath('prospect', 'people_profile'), pick(() => import('../features/prospects/routes/profile-screens'), 'PersonProfileScreen')),
  appRoute(menuPath('prospect', 'company_profile'), pick(() => import('../features/prospects/routes/profile-screens'), 'CompanyProfileScreen')),
  appRoute(menuPath('reverse_lookup', 'rl_email'), pick(() => import('../features/prospects/routes/reverse-lookup-screens'), 'ReverseLookupEmailScreen')),
  appRoute(menuPath('reverse_lookup', 'rl_linkedin'), pick(() => import('../features/prospects/routes/reverse-lookup-screens'), 'ReverseLookupLinkedinScreen')),
  appRoute(menuPath('settings', 'prospect'), pick(() => import('../features/prospects/routes/prospect-settings-screen'), 'ProspectSettingsScreen')),
  appRoute(menuPath('apps', 'list_app'), pick(() => import('../features/apps/routes/apps-list-screen'), 'AppsListScreen')),
  appRoute(menuPath('apps', 'create_app'), pick(() => import('../features/apps/routes/app-create-screen'), 'AppCreateScreen')),
  appRoute(menuPath('apps', 'edit_app'), pick(() => import('../features/apps/routes/app-edit-screen'), 'AppEditScreen')),
  appRoute(menuPath('analytics', 'form_guard'), pick(() => import('../features/form-guard/routes/form-guard-analytics-screen'), 'FormGuardAnalyticsScreen')),
  appRoute('/form-guard', pick(() => import('../features/form-guard/routes/form-guards-screen'), 'FormGuardsScreen')),
  appRoute('/form-guard/create', pick(() => import('../features/form-guard/routes/form-guard-create-screen'), 'FormGuardCreateScreen')),
  appRoute('/form-guard/:app_id', pick(() => import('../features/form-guard/routes/form-guard-edit-screen'), 'FormGuardEditScreen')),
  appRoute(menuPath('developer', 'api'), pick(() => import('../features/developer/routes/api-screen'), 'DeveloperApiScreen')),
  appRoute(menuPath('developer', 'reference'), pick(() => import('../features/developer/routes/reference-screen'), 'ReferenceScreen')),
  appRoute(menuPath('developer', 'webhook'), pick(() => import('../features/developer/routes/webhooks-screen'), 'WebhooksScreen')),
  appRoute(menuPath('integrations', 'integration_list'), pick(() => import('../features/integrations/routes/integrations-screen'), 'IntegrationsScreen')),
  appRoute(menuPath('integrations', 'connected_accounts'), pick(() => import('../features/integrations/routes/connected-accounts-screen'), 'ConnectedAccountsScreen')),
  appRoute(menuPath('integrations', 'connect_account'), pick(() => import('../features/integrations/routes/connect-screen'), 'ConnectScreen')),
  appRoute(menuPath('integrations', 'individual_integration'), pick(() => import('../features/integrations/routes/integration-screen'), 'IntegrationScreen')),
  appRoute(menuPath('analytics', 'overview'), pick(() => import('../features/analytics/routes/analytics-overview-screen'), 'AnalyticsOverviewScreen')),
  appRoute(menuPath('analytics', 'email_verifier'), pick(() => import('../features/analytics/routes/analytics-feature-screens'), 'AnalyticsVerifierScreen')),
  appRoute(menuPath('analytics', 'email_finder'), pick(() => import('../features/analytics/routes/analytics-feature-screens'), 'AnalyticsFinderScreen')),
  appRoute(menuPath('analytics', 'prospect'), pick(() => import('../features/analytics/routes/analytics-feature-screens'), 'AnalyticsProspectScreen')),
  appRoute(menuPath('analytics', 'team'), pick(() => import('../features/analytics/routes/analytics-team-screen'), 'AnalyticsTeamScreen')),
  authRoute('/download/user_activity', pick(() => import('../features/activities/routes/activity-download-screen'), 'ActivityDownloadScreen')),
];
