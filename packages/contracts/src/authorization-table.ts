/**
 * The authorisation table: every API route (`METHOD /path`, relative to /api/v1) and who may call it.
 * The server checks it for every request (fail closed: a route missing here answers 403 unless it is
 * public); the web app reads the same table to hide actions a role cannot use.
 * Roles of routes that belong to a menu are taken from MENU_ENTRIES (navigation.ts), never repeated.
 * Sources: spec/menus.tsv, spec section 6, spec/calls.tsv. The look-ups over it are in authorization.ts.
 */
import type { TRole } from './enums';
import { MENU_ENTRIES, type TMenuArea } from './navigation';
import type { TObjectKind, TObjectRef } from './authorization-objects';
import { OPS_CONSOLE_AUTHORIZATION } from './authorization-table-ops';

/**
 * `public`: no login needed (the route checks its own token, if any).
 * `authenticated`: any active member of any role.
 * `operator`: the operator console's routes: an operator session only (the route's operator guard checks it;
 * every organisation role gets 403, no token 401).
 * A role list: only those roles (others get 403).
 */
export type TApiAccess = 'public' | 'authenticated' | 'operator' | readonly TRole[];

export type TApiRule = {
  readonly access: TApiAccess;
  /** The menu the route serves, when its roles come from the menu table. */
  readonly menu?: `${TMenuArea}.${string}`;
  /** Routes whose `:integration` parameter names an owner-only integration are owner only. */
  readonly ownerOnlyIntegrations?: boolean;
  /**
   * The object a by-id route reads, changes or deletes, and where its id is. The server answers 404 when the
   * object is not one the caller may see (another organisation's, or, for member objects, one the caller's role
   * does not see on the list pages: see MEMBER_OBJECT_VISIBILITY).
   */
  readonly object?: TObjectRef;
};

function byId(rule: TApiRule, kind: TObjectKind, from: TObjectRef['from'], field: string): TApiRule {
  return { ...rule, object: { kind, from, field } };
}

function menuRoles(area: TMenuArea, key: string): readonly TRole[] {
  const entry = MENU_ENTRIES.find((e) => e.area === area && e.key === key);
  if (!entry) throw new Error(`authorization: no menu ${area}.${key} in MENU_ENTRIES`);
  return entry.roles;
}

function menu(area: TMenuArea, key: string, extra: Omit<TApiRule, 'access' | 'menu'> = {}): TApiRule {
  return { access: menuRoles(area, key), menu: `${area}.${key}`, ...extra };
}

const PUBLIC: TApiRule = { access: 'public' };
const AUTHENTICATED: TApiRule = { access: 'authenticated' };

// Menus that grant a route; analytics has one "team" view for owner and admin, the other views are everyone's.
const ADMIN = menu('admin', 'admin');
const ADMIN_EV = menu('admin', 'email_verifier');
const ADMIN_EF = menu('admin', 'email_finder');
const ADMIN_PROSPECT = menu('admin', 'prospect');
const PROFILE = menu('account', 'profile');
const PLAN = menu('account', 'plan');
const PRICING = menu('account', 'pricing');
const BILLING = menu('account', 'billing');
const COUPONS = menu('account', 'coupons');
const ACCOUNT_API = menu('account', 'api');
const DELETE = menu('account', 'delete');
const AUTHENTICATION = menu('account', 'authentication');
const AUDIT_LOG = menu('account', 'audit_log');
const SETTINGS = menu('settings', 'settings');
const SETTINGS_EV = menu('settings', 'email_verifier');
const SETTINGS_EF = menu('settings', 'email_finder');
const SETTINGS_PROSPECT = menu('settings', 'prospect');
const EV_QUICK = menu('email_verifier', 'quick_validation');
const EV_LISTS = menu('email_verifier', 'email_verifier_list');
const EV_ADD = menu('email_verifier', 'add_list');
const EV_BOUNCES = menu('email_verifier', 'bounces');
const EF_QUICK = menu('email_finder', 'quick_email_finder');
const EF_LISTS = menu('email_finder', 'email_finder_lists');
const EF_ADD = menu('email_finder', 'add_list');
const PROSPECT_HOME = menu('prospect', 'home');
const PROSPECT_LISTS = menu('prospect', 'lists');
const PROSPECT_PEOPLE = menu('prospect', 'people_search');
const PROSPECT_SAVED = menu('prospect', 'saved_searches');
const ANALYTICS = menu('analytics', 'overview');
const DASHBOARD = menu('dashboard', 'overview');
const RL_EMAIL = menu('reverse_lookup', 'rl_email');
const CONNECTED_ACCOUNTS = menu('integrations', 'connected_accounts');
const CONNECT_ACCOUNT = menu('integrations', 'connect_account', { ownerOnlyIntegrations: true });
const INDIVIDUAL_INTEGRATION = menu('integrations', 'individual_integration', { ownerOnlyIntegrations: true });
/** Connecting an owner-only integration (Mailchimp, Zoho CRM) through OAuth. */
const OAUTH_CONNECT: TApiRule = { access: ['owner'] };
const PRIVACY: TApiRule = { access: ['owner'] };
const APPS_LIST = menu('apps', 'list_app');
const APPS_CREATE = menu('apps', 'create_app');
const APPS_EDIT = menu('apps', 'edit_app');
const WEBHOOK = menu('developer', 'webhook');

/** The table. Paths use `:param` for parameters (any name matches). */
export const API_AUTHORIZATION: Readonly<Record<string, TApiRule>> = {
  // ----- documentation and operator tools -----
  'GET /openapi.json': PUBLIC,
  'POST /ops/announcement': PUBLIC, // checks the operator secret itself
  'POST /ops/onetool_token': PUBLIC, // checks the operator secret itself
  'POST /ops/create_owner': PUBLIC, // checks the operator secret itself

  // ----- the operator console (features/ops-console, ops-infra; docs/ops-console.md): authorization-table-ops.ts -----
  ...OPS_CONSOLE_AUTHORIZATION,

  // ----- support access: the owner lets Verilead support see lists and results for a while -----
  'GET /settings/support_access': { access: ['owner'] },
  'POST /settings/support_access': { access: ['owner'] },
  'DELETE /settings/support_access': { access: ['owner'] },

  // ----- user: sign-up, login and token links (public) -----
  'POST /user/signup': PUBLIC,
  'POST /user/login': PUBLIC,
  'POST /user/activate': PUBLIC,
  'POST /user/verify_token': PUBLIC,
  'POST /user/forgot-password': PUBLIC,
  'POST /user/reset-password': PUBLIC,
  'POST /user/password/setup': PUBLIC,
  'POST /user/email/update': PUBLIC,

  // ----- user: the session and profile -----
  'GET /user/logout': AUTHENTICATED,
  'POST /user/resend_verification': AUTHENTICATED,
  'GET /user/profile': AUTHENTICATED,
  'GET /user/announcement': AUTHENTICATED,
  'GET /user/current_plan': AUTHENTICATED,
  'GET /user/credits_and_limits': AUTHENTICATED,
  'GET /user/credits_and_limits/transactions': AUTHENTICATED,
  'GET /user/credits_and_limits/ledger': AUTHENTICATED,
  'GET /user/credits_and_limits/ledger/rows': AUTHENTICATED,
  'GET /user/check_credit_status': AUTHENTICATED,
  'POST /user/activities': AUTHENTICATED,
  'POST /user/email/edit': PROFILE,
  'POST /user/phone/edit': PROFILE,
  'POST /user/name/edit': PROFILE,
  'POST /user/address/edit': PROFILE,
  'POST /user/timezone/edit': PROFILE,
  'POST /user/password/edit': PROFILE,
  'POST /user/freshchat/update': AUTHENTICATED,
  'POST /user/low_credit_alert/update': SETTINGS,
  'POST /admin/low_credit_alert/update': ADMIN,
  'GET /user/generateapikey': ACCOUNT_API,
  'POST /user/upgrade': PLAN,
  'PATCH /user/account': DELETE,

  // ----- settings -----
  'GET /user_preferences': SETTINGS,
  'PUT /user_preferences/email_verification_settings/autopilot': SETTINGS_EV,
  'PUT /user_preferences/email_verification_settings/accuracy': SETTINGS_EV,
  'PUT /user_preferences/email_verification_settings/wb_list': SETTINGS_EV,
  'GET /user_preferences/email_verification_settings/wb_list': SETTINGS_EV,
  'PUT /user_preferences/email_verification_settings/gibberish_threshold': SETTINGS_EV,
  'PUT /user_preferences/notification_settings/update': SETTINGS,
  'PUT /user_preferences/email_finder_settings': SETTINGS_EF,
  'PUT /user_preferences/prospect_settings/enrich': SETTINGS_PROSPECT,
  'GET /user_preferences/sso': AUTHENTICATION,
  // Issue 31 point 3: the organisation's audit log, read and exported by owners and Managers.
  'GET /audit_log': AUDIT_LOG,
  'GET /audit_log/export': AUDIT_LOG,
  'POST /user_preferences/sso': AUTHENTICATION,
  'POST /user_preferences/sso/domains/verify': AUTHENTICATION,
  // Data retention and privacy (issue 31): the organisation's owner only.
  'GET /user_preferences/data_retention': PRIVACY,
  'PUT /user_preferences/data_retention': PRIVACY,
  'POST /user_preferences/data_export': PRIVACY,
  'POST /user_preferences/organisation/delete': PRIVACY,

  // ----- email verifier -----
  'POST /email_verify/instant': EV_QUICK,
  'GET /email_verify/instant/recent': EV_QUICK,
  'POST /email_verify/list': EV_LISTS,
  'POST /email_verify/list/verify': byId(EV_LISTS, 'verify_list', 'body', 'list_id'),
  'POST /email_verify/list/export': byId(EV_LISTS, 'verify_list', 'body', 'list_id'),
  'GET /email_verify/list/columns': byId(EV_LISTS, 'verify_list', 'query', 'list_id'),
  'POST /email_verify/list/remove': byId(EV_LISTS, 'verify_list', 'body', 'list_id'),
  'GET /email_verify/list/remove': byId(EV_LISTS, 'verify_list', 'query', 'list_id'),
  'POST /email_verify/list/cancel': byId(EV_LISTS, 'verify_list', 'body', 'list_id'),
  'POST /email_verify/bulk_upload': EV_ADD,
  'POST /email_verify/bulk_upload/check_duplicate': EV_ADD,
  'POST /email_verify/bulk_upload/preview': EV_ADD,
  'GET /email_verify/bulk/progress_status': byId(EV_LISTS, 'verify_list', 'query', 'list_id'),
  // Lists that stay verified (issue 32 point 3): the schedule, its runs and their changes, per list.
  'GET /email_verify/list/keep_verified': byId(EV_LISTS, 'verify_list', 'query', 'list_id'),
  'PUT /email_verify/list/keep_verified': byId(EV_LISTS, 'verify_list', 'body', 'list_id'),
  'GET /email_verify/list/keep_verified/changes': byId(EV_LISTS, 'verify_list', 'query', 'list_id'),
  'GET /email_verify/getusercredits': AUTHENTICATED,

  // ----- email finder -----
  'POST /email_finder/instant': EF_QUICK,
  'GET /email_finder/instant/queue_status': byId(EF_QUICK, 'finder_search', 'query', 'qid'),
  'POST /email_finder/list': EF_LISTS,
  'POST /email_finder/list/find_emails': byId(EF_LISTS, 'finder_list', 'body', 'list_id'),
  'POST /email_finder/list/remove': byId(EF_LISTS, 'finder_list', 'body', 'list_id'),
  'POST /email_finder/list/cancel': byId(EF_LISTS, 'finder_list', 'body', 'list_id'),
  'POST /email_finder/bulk_upload': EF_ADD,
  'POST /email_finder/bulk_upload/check_duplicate': EF_ADD,
  'GET /email_finder/bulk/progress_status': byId(EF_LISTS, 'finder_list', 'query', 'list_id'),
  'POST /email_finder/download/result': byId(EF_LISTS, 'finder_list', 'body', 'list_id'),
  'GET /email_finder/history': EF_QUICK,
  'POST /email_finder/history/download': EF_QUICK,

  // ----- downloads (any member downloads what they may see) -----
  'POST /download/result': byId(AUTHENTICATED, 'verify_list', 'body', 'list_id'),
  'GET /download/result/status': byId(AUTHENTICATED, 'download', 'query', 'queue_id'),
  'POST /download/activities': AUTHENTICATED,
  'POST /download/activities/confirm': AUTHENTICATED,

  // ----- public (no login; download links carry their own token) -----
  'POST /public/verify': PUBLIC,
  'POST /public/person/search_by_email': PUBLIC,
  'POST /public/person/search_by_linkedin': PUBLIC,
  'POST /public/extension_uninstall': PUBLIC,
  'GET /public/companies/autocomplete': PUBLIC,
  'GET /public/ip_location': PUBLIC,
  'GET /public/download': PUBLIC,
  'GET /public/download_email_finder_history': PUBLIC,
  'GET /public/download_prospects': PUBLIC,
  'GET /public/user_activity_download': PUBLIC,
  'GET /public/marketing_stats': PUBLIC,
  'GET /public/price': PUBLIC,
  'GET /public/instance': PUBLIC,
  'GET /extension/version': PUBLIC,

  // ----- payments (owner only: billing) -----
  'POST /payment/buy': BILLING,
  'POST /payment/buy/request': BILLING,
  'POST /payment/confirm': BILLING,
  'POST /payment/getPaymentIntent': BILLING,
  'POST /payment/confirmPaymentIntent': BILLING,
  'POST /payment/card/add': BILLING,
  'POST /payment/card/delete': BILLING,
  'POST /payment/card/default': BILLING,
  'POST /payment/defaultcard': BILLING,
  'POST /payment/setup_intent/create': BILLING,
  'POST /payment/setup_intent/confirm': BILLING,
  'POST /payment/paypal/order/create': BILLING,
  'POST /payment/paypal/verify': BILLING,
  'POST /payment/paypal/capture': BILLING,
  'POST /payment/paypal/plan/subscription': BILLING,
  'POST /payment/paypal/create/subscription': BILLING,
  'POST /payment/paypal/subscription': BILLING,
  'GET /payment/cards': BILLING,
  'GET /payment/buyCredits': BILLING,
  'GET /payment/subscription/cancel': BILLING,
  'GET /payment/upgrade': BILLING,
  'GET /payment/upgrade/preview': BILLING,
  'GET /payment/subscription/resume': BILLING,
  'GET /payment/billing_details': BILLING,
  'POST /payment/billing_details': BILLING,
  // The plan screen: owners and managers.
  'GET /payment/plan': PLAN,
  'PATCH /payment/cancel': BILLING,
  // Stripe's signed webhook events (the signature is checked in the route).
  'POST /payment/webhook/stripe': PUBLIC,
  // PayPal's events (verified with PayPal's verify-webhook-signature in the route).
  'POST /payment/webhook/paypal': PUBLIC,
  // Bounce reports and ESP bounce webhooks (issue 32 point 2); the ESPs' calls carry the webhook's secret address
  // (and SendGrid's ECDSA signature when a key is stored), checked in the route.
  'POST /bounces/reports/upload': EV_BOUNCES,
  'POST /bounces/reports/apply': EV_BOUNCES,
  'GET /bounces/reports': EV_BOUNCES,
  'GET /bounces/webhooks': EV_BOUNCES,
  'POST /bounces/webhooks': EV_BOUNCES,
  'POST /public/bounces/:token': PUBLIC,
  'GET /public/bounces/:token': PUBLIC,

  // ----- pricing, coupons, invoices (owner only) -----
  'GET /price/slab': PRICING,
  'GET /price': PRICING,
  'GET /price/products': PRICING,
  'GET /price/compare': PRICING,
  'POST /coupon/apply': COUPONS,
  'GET /coupon/history': COUPONS,
  'GET /invoice/list': BILLING,
  'GET /invoice/pending_list': BILLING,
  'GET /invoice/download': BILLING,
  'GET /receipt/list': BILLING,
  'GET /receipt/download': BILLING,

  // ----- insights and reports (the team view is checked inside: owner and admin) -----
  'POST /insights/graph': ANALYTICS,
  'POST /insights/performance_stats': ANALYTICS,
  'POST /reports/usage': ANALYTICS,
  'POST /reports/finder_usage': ANALYTICS,
  'POST /reports/prospect_usage': ANALYTICS,
  'POST /reports/overview_usage': ANALYTICS,
  'POST /reports/js_widget_usage': ANALYTICS,
  'GET /dashboard': DASHBOARD,

  // ----- admin: members, teams, organisation, defaults (owner and admin) -----
  'POST /admin/member/add': ADMIN,
  'POST /admin/member/edit': ADMIN,
  'POST /admin/member/remove': ADMIN,
  'POST /admin/member/update_status': ADMIN,
  'POST /admin/member/reactivate': ADMIN,
  'POST /admin/member/seatrequest': ADMIN,
  'POST /admin/member/list': ADMIN,
  'POST /admin/team/create': ADMIN,
  'POST /admin/team/list': ADMIN,
  'POST /admin/team/members': ADMIN,
  'POST /admin/team/edit': ADMIN,
  'POST /admin/bulk/remove': ADMIN,
  'POST /admin/edit': ADMIN,
  'GET /admin/settings': ADMIN,
  'PUT /admin/settings/email_verifier': ADMIN_EV,
  'PUT /admin/settings/email_finder': ADMIN_EF,
  'PUT /admin/settings/prospect': ADMIN_PROSPECT,

  // ----- apps -----
  'POST /apps/create': APPS_CREATE,
  'POST /apps/update': byId(APPS_EDIT, 'app', 'body', 'app_id'),
  'GET /apps/list': APPS_LIST,
  'GET /apps/default': APPS_LIST,
  'POST /apps/default': APPS_LIST,
  'GET /apps/:id': byId(APPS_EDIT, 'app', 'params', 'id'),

  // ----- prospect -----
  'POST /prospect/search': PROSPECT_PEOPLE,
  'POST /prospect/view': PROSPECT_PEOPLE,
  'POST /prospect/remove': PROSPECT_LISTS,
  'POST /prospect/download': PROSPECT_LISTS,
  'POST /prospect/search/save_filter': PROSPECT_SAVED,
  'POST /prospect/search/remove_filter': PROSPECT_SAVED,
  'POST /prospect/search/add_profiles': PROSPECT_LISTS,
  'POST /prospect/enrich': PROSPECT_LISTS,
  'POST /prospect/list/enrich': PROSPECT_LISTS,
  'POST /prospect/list/export': PROSPECT_LISTS,
  'POST /prospect/list/update': PROSPECT_LISTS,
  'POST /prospect/list/remove': PROSPECT_LISTS,
  'POST /prospect/list/remove_lead': PROSPECT_LISTS,
  'GET /prospect/search/meta': PROSPECT_PEOPLE,
  'GET /prospect/list': PROSPECT_LISTS,
  'GET /prospect/search/filters': PROSPECT_SAVED,
  'GET /prospect/requests': PROSPECT_HOME,
  'GET /prospect/inprogress_requests': PROSPECT_HOME,
  'GET /prospect/recent_added': PROSPECT_HOME,
  'GET /prospect/list/details': PROSPECT_LISTS,
  'GET /prospect/search/profiles': PROSPECT_PEOPLE,
  'GET /prospect/list/lead_in_list': PROSPECT_LISTS,
  'GET /prospect/list/search/leads': PROSPECT_LISTS,
  'GET /prospect/recent_activities': PROSPECT_HOME,
  'GET /prospect/lead/enrich/status': PROSPECT_LISTS,

  // ----- reverse lookup -----
  'POST /reverse_lookup/person': RL_EMAIL,
  'GET /reverse_lookup/history': RL_EMAIL,

  // ----- integrations -----
  'GET /integration/linked_accounts': CONNECTED_ACCOUNTS,
  // A list imported from a platform: its new contacts verified automatically (issue 32 point 3), on the list's screen.
  'GET /integration/list_sync': byId(EV_LISTS, 'verify_list', 'query', 'list_id'),
  'PUT /integration/list_sync': byId(EV_LISTS, 'verify_list', 'body', 'list_id'),
  'GET /integration/test_mode': AUTHENTICATED, // whether platforms are local stand-ins here: every screen may say so
  'GET /integration/account/:integration': INDIVIDUAL_INTEGRATION,
  'POST /integration/account/:integration': CONNECT_ACCOUNT,
  'DELETE /integration/account/:integration': INDIVIDUAL_INTEGRATION,
  'GET /integration/account/:integration/:x': INDIVIDUAL_INTEGRATION,
  'POST /integration/account/:integration/verify_list': INDIVIDUAL_INTEGRATION,
  'GET /integration/imports': CONNECTED_ACCOUNTS,
  'POST /integration/imports/cancel': CONNECTED_ACCOUNTS,
  // The `leads` source: the caller's visible prospect lists (scoped like the prospect list pages).
  'GET /integration/leads/lists': CONNECTED_ACCOUNTS,
  'POST /integration/leads/verify_list': CONNECTED_ACCOUNTS,

  // ----- form guard (not in the spec: the Form Guard screen's detail of checks) -----
  'POST /form_guard/usage': ANALYTICS,

  // ----- single sign-on and one-tool login (public: they are ways to log in) -----
  'POST /sso/google': PUBLIC,
  'POST /sso/microsoft': PUBLIC,
  'POST /sso/:provider/activate': PUBLIC,
  'POST /sso/signin': PUBLIC,
  'POST /sso/activate': PUBLIC,
  'GET /sso/config': PUBLIC,
  'POST /onetool/verify_token': PUBLIC,
  'POST /onetool/login': PUBLIC,
  'GET /sso/saml/metadata/:org_id': PUBLIC,
  'POST /sso/saml/acs/:org_id': PUBLIC, // the identity provider's signed answer, posted by the browser
  // OAuth connections of owner-only integrations: the connect screen asks for the consent URL, then hands over the
  // platform's redirect (`code` + a state signed for this owner); both calls carry the owner's session.
  'GET /oauth/mailchimp': OAUTH_CONNECT,
  'GET /oauth/zoho': OAUTH_CONNECT,
  'GET /g2crowd/url': AUTHENTICATED,

  // ----- webhooks (developer menu: everyone) -----
  'GET /webhook/list': WEBHOOK,
  'GET /webhook/name_list': WEBHOOK,
  'GET /webhook/token': WEBHOOK,
  'GET /webhook/:id': byId(WEBHOOK, 'webhook', 'params', 'id'),
  'POST /webhook': byId(WEBHOOK, 'webhook', 'body', 'webhook_id'),
  'POST /webhook/test': byId(WEBHOOK, 'webhook', 'body', 'webhook_id'),
  'POST /webhook/event_logs': WEBHOOK,
  'POST /webhook/event_logs/redeliver': byId(WEBHOOK, 'webhook_delivery', 'body', 'delivery_id'),
  // The signing secret signs every webhook of the organisation: rotating it acts on others' webhooks too, so only
  // owners and Managers rotate it (everyone reads it, to check their own deliveries).
  'POST /webhook/token': { access: ['owner', 'admin'] },
  'DELETE /webhook/:id': byId(WEBHOOK, 'webhook', 'params', 'id'),
};
