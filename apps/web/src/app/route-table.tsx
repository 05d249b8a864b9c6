import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { findMenuEntry, getRouteAccess, type TMenuArea, type TRouteAccess } from '@verilead/contracts';
import { accountScreens } from '../features/account';
import { activitiesScreens } from '../features/activities';
import { adminSettingsScreens } from '../features/admin-settings';
import { analyticsScreens } from '../features/analytics';
import { appsScreens } from '../features/apps';
import { auditScreens } from '../features/audit';
import { authScreens } from '../features/auth';
import { billingScreens } from '../features/billing';
import { bouncesScreens } from '../features/bounces';
import { dashboardScreens } from '../features/dashboard';
import { developerScreens } from '../features/developer';
import { downloadsScreens } from '../features/downloads';
import { emailFinderScreens } from '../features/email-finder';
import { emailVerifierScreens } from '../features/email-verifier';
import { formGuardScreens } from '../features/form-guard';
import { integrationsScreens } from '../features/integrations';
import { prospectsScreens } from '../features/prospects';
import { publicScreens } from '../features/public';
import { settingsScreens } from '../features/settings';
import { ssoScreens } from '../features/sso';
import { teamScreens } from '../features/team';

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

const SignupScreen = pick(authScreens.signup, 'SignupScreen');

function authRoute(path: string, screen: LazyExoticComponent<ComponentType>): TAppRoute {
  return { path, access: getRouteAccess(path), layout: 'auth', screen };
}

function appRoute(path: string, screen: LazyExoticComponent<ComponentType>): TAppRoute {
  return { path, access: getRouteAccess(path), layout: 'app', screen };
}

/** Every built screen; access comes from the route table of contracts (spec/routes.tsv). */
export const APP_ROUTES: readonly TAppRoute[] = [
  authRoute('/login', pickPlain(authScreens.login, 'LoginScreen')),
  authRoute('/register', SignupScreen),
  authRoute('/signup', SignupScreen),
  authRoute('/forgot_password', pick(authScreens.forgotPassword, 'ForgotPasswordScreen')),
  authRoute('/expired_password', pick(authScreens.expiredPassword, 'ExpiredPasswordScreen')),
  authRoute('/resetpassword', pick(authScreens.resetPassword, 'ResetPasswordScreen')),
  authRoute('/setup_password', pick(authScreens.setupPassword, 'SetupPasswordScreen')),
  authRoute('/emailverification', pick(authScreens.emailVerification, 'EmailVerificationScreen')),
  authRoute('/terms', pick(publicScreens.terms, 'TermsScreen')),
  authRoute('/public/instant_search', pick(publicScreens.publicInstantSearch, 'PublicInstantSearchScreen')),
  authRoute('/public/reverse-lookup', pick(prospectsScreens.publicReverseLookup, 'PublicReverseLookupScreen')),
  authRoute('/download_result/:download_id', pick(downloadsScreens.download, 'DownloadResultScreen')),
  authRoute('/download/result', pick(downloadsScreens.download, 'DownloadTokenScreen')),
  authRoute('/input_download/:request_id', pick(downloadsScreens.download, 'InputDownloadScreen')),
  authRoute('/download/email_finder_result', pick(emailFinderScreens.finderDownload, 'FinderResultDownloadScreen')),
  authRoute('/sso/signin', pick(ssoScreens.ssoSignin, 'SsoSigninScreen')),
  authRoute('/onetool_login', pick(ssoScreens.onetoolLogin, 'OnetoolLoginScreen')),
  authRoute('/enterprise/register', pick(ssoScreens.enterpriseRegister, 'EnterpriseRegisterScreen')),
  authRoute('/public/credits', pick(publicScreens.creditsCalculator, 'CreditsCalculatorScreen')),
  authRoute('/public/chrome-extension-uninstall', pick(publicScreens.extensionUninstall, 'ExtensionUninstallScreen')),
  authRoute('/public/marketing_stats/', pick(publicScreens.marketingStats, 'MarketingStatsScreen')),
  authRoute('/thank_you', pick(publicScreens.thankYou, 'ThankYouScreen')),
  authRoute('/download_email_finder_history', pick(emailFinderScreens.finderDownload, 'FinderHistoryDownloadScreen')),

  appRoute(menuPath('dashboard', 'overview'), pick(dashboardScreens.overview, 'OverviewScreen')),
  appRoute(menuPath('account', 'profile'), pick(accountScreens.profile, 'ProfileScreen')),
  appRoute(menuPath('account', 'api'), pick(accountScreens.apiKey, 'ApiKeyScreen')),
  appRoute(menuPath('account', 'delete'), pick(accountScreens.deleteAccount, 'DeleteAccountScreen')),
  appRoute(menuPath('account', 'authentication'), pick(ssoScreens.authentication, 'AuthenticationScreen')),
  appRoute(menuPath('account', 'audit_log'), pick(auditScreens.auditLog, 'AuditLogScreen')),
  appRoute(menuPath('account', 'help'), pick(ssoScreens.help, 'HelpScreen')),
  appRoute(menuPath('account', 'pricing'), pick(billingScreens.pricing, 'PricingScreen')),
  appRoute('/account/credits', pick(billingScreens.credits, 'CreditsScreen')),
  appRoute(menuPath('account', 'plan'), pick(billingScreens.plan, 'PlanScreen')),
  appRoute(menuPath('account', 'billing'), pick(billingScreens.billing, 'BillingScreen')),
  appRoute(menuPath('account', 'coupons'), pick(billingScreens.coupons, 'CouponsScreen')),
  appRoute('/payment/thank-you', pick(billingScreens.thankYou, 'ThankYouScreen')),
  appRoute('/activities', pick(activitiesScreens.activities, 'ActivitiesScreen')),
  appRoute(menuPath('email_verifier', 'quick_validation'), pick(emailVerifierScreens.quickValidation, 'QuickValidationScreen')),
  appRoute(menuPath('email_verifier', 'email_verifier_list'), pick(emailVerifierScreens.lists, 'ListsScreen')),
  appRoute('/email_verifier/lists/:listId', pick(emailVerifierScreens.listDetail, 'ListDetailScreen')),
  appRoute(menuPath('email_verifier', 'add_list'), pick(emailVerifierScreens.addList, 'AddListScreen')),
  appRoute(menuPath('email_verifier', 'bounces'), pick(bouncesScreens.bounces, 'BouncesScreen')),
  appRoute(menuPath('email_finder', 'quick_email_finder'), pick(emailFinderScreens.quickFinder, 'QuickFinderScreen')),
  appRoute(menuPath('email_finder', 'email_finder_lists'), pick(emailFinderScreens.finderLists, 'FinderListsScreen')),
  appRoute('/email_finder/lists/:listId', pick(emailFinderScreens.finderListDetail, 'FinderListDetailScreen')),
  appRoute(menuPath('email_finder', 'add_list'), pick(emailFinderScreens.finderAddList, 'FinderAddListScreen')),
  appRoute(menuPath('settings', 'settings'), pick(settingsScreens.settings, 'SettingsScreen')),
  appRoute(menuPath('settings', 'email_verifier'), pick(settingsScreens.evSettings, 'EvSettingsScreen')),
  appRoute(menuPath('settings', 'email_finder'), pick(settingsScreens.efSettings, 'EfSettingsScreen')),
  appRoute(menuPath('admin', 'admin'), pick(teamScreens.members, 'MembersScreen')),
  appRoute(menuPath('admin', 'email_verifier'), pick(adminSettingsScreens.adminEmailVerifier, 'AdminEmailVerifierScreen')),
  appRoute(menuPath('admin', 'email_finder'), pick(adminSettingsScreens.adminEmailFinder, 'AdminEmailFinderScreen')),
  appRoute(menuPath('admin', 'prospect'), pick(adminSettingsScreens.adminProspect, 'AdminProspectScreen')),
  appRoute(menuPath('prospect', 'home'), pick(prospectsScreens.prospectHome, 'ProspectHomeScreen')),
  appRoute(menuPath('prospect', 'people_search'), pick(prospectsScreens.peopleSearch, 'PeopleSearchScreen')),
  appRoute(menuPath('prospect', 'company_search'), pick(prospectsScreens.companySearch, 'CompanySearchScreen')),
  appRoute(menuPath('prospect', 'lists'), pick(prospectsScreens.lists, 'ProspectListsScreen')),
  appRoute('/prospect/lists/:listId', pick(prospectsScreens.listDetail, 'ProspectListDetailScreen')),
  appRoute(menuPath('prospect', 'saved_searches'), pick(prospectsScreens.savedSearches, 'SavedSearchesScreen')),
  appRoute(menuPath('prospect', 'people_profile'), pick(prospectsScreens.profile, 'PersonProfileScreen')),
  appRoute(menuPath('prospect', 'company_profile'), pick(prospectsScreens.profile, 'CompanyProfileScreen')),
  appRoute(menuPath('reverse_lookup', 'rl_email'), pick(prospectsScreens.reverseLookup, 'ReverseLookupEmailScreen')),
  appRoute(menuPath('reverse_lookup', 'rl_linkedin'), pick(prospectsScreens.reverseLookup, 'ReverseLookupLinkedinScreen')),
  appRoute(menuPath('settings', 'prospect'), pick(prospectsScreens.prospectSettings, 'ProspectSettingsScreen')),
  appRoute(menuPath('apps', 'list_app'), pick(appsScreens.appsList, 'AppsListScreen')),
  appRoute(menuPath('apps', 'create_app'), pick(appsScreens.appCreate, 'AppCreateScreen')),
  appRoute(menuPath('apps', 'edit_app'), pick(appsScreens.appEdit, 'AppEditScreen')),
  appRoute(menuPath('analytics', 'form_guard'), pick(formGuardScreens.formGuardAnalytics, 'FormGuardAnalyticsScreen')),
  appRoute('/form-guard', pick(formGuardScreens.formGuards, 'FormGuardsScreen')),
  appRoute('/form-guard/create', pick(formGuardScreens.formGuardCreate, 'FormGuardCreateScreen')),
  appRoute('/form-guard/:app_id', pick(formGuardScreens.formGuardEdit, 'FormGuardEditScreen')),
  appRoute(menuPath('developer', 'api'), pick(developerScreens.api, 'DeveloperApiScreen')),
  appRoute(menuPath('developer', 'reference'), pick(developerScreens.reference, 'ReferenceScreen')),
  appRoute(menuPath('developer', 'webhook'), pick(developerScreens.webhooks, 'WebhooksScreen')),
  appRoute(menuPath('integrations', 'integration_list'), pick(integrationsScreens.integrations, 'IntegrationsScreen')),
  appRoute(menuPath('integrations', 'connected_accounts'), pick(integrationsScreens.connectedAccounts, 'ConnectedAccountsScreen')),
  appRoute(menuPath('integrations', 'connect_account'), pick(integrationsScreens.connect, 'ConnectScreen')),
  appRoute(menuPath('integrations', 'individual_integration'), pick(integrationsScreens.integration, 'IntegrationScreen')),
  appRoute(menuPath('analytics', 'overview'), pick(analyticsScreens.analyticsOverview, 'AnalyticsOverviewScreen')),
  appRoute(menuPath('analytics', 'email_verifier'), pick(analyticsScreens.analyticsFeature, 'AnalyticsVerifierScreen')),
  appRoute(menuPath('analytics', 'email_finder'), pick(analyticsScreens.analyticsFeature, 'AnalyticsFinderScreen')),
  appRoute(menuPath('analytics', 'prospect'), pick(analyticsScreens.analyticsFeature, 'AnalyticsProspectScreen')),
  appRoute(menuPath('analytics', 'team'), pick(analyticsScreens.analyticsTeam, 'AnalyticsTeamScreen')),
  authRoute('/download/user_activity', pick(activitiesScreens.activityDownload, 'ActivityDownloadScreen')),
];
