import { z } from 'zod';

/** Member roles: admin is labelled Manager, analyst Executive. */
export const ZRole = z.enum(['owner', 'admin', 'analyst']);
export type TRole = z.infer<typeof ZRole>;
export const ROLE_LABELS: Record<TRole, string> = { owner: 'Owner', admin: 'Manager', analyst: 'Executive' };
/** Roles that may be chosen when adding a member. */
export const ASSIGNABLE_ROLES = ['admin', 'analyst'] as const;
/** Member filter choices. */
export const MEMBER_ROLE_FILTERS = ['all', 'owner', 'admin', 'analyst'] as const;

export const ZMemberStatus = z.enum(['active', 'inactive', 'removed']);
export type TMemberStatus = z.infer<typeof ZMemberStatus>;

export const ZDeletionReason = z.enum([
  'data_privacy_concern',
  'alternative_found',
  'service_no_longer_needed',
  'temporary_suspension_required',
  'others',
]);
export type TDeletionReason = z.infer<typeof ZDeletionReason>;
export const DELETION_REASON_LABELS: Record<TDeletionReason, string> = {
  data_privacy_concern: 'Data privacy concern',
  alternative_found: 'Found an alternative',
  service_no_longer_needed: 'Service no longer needed',
  temporary_suspension_required: 'Temporary suspension required',
  others: 'Others',
};

export const ZSignupSource = z.enum(['search_engines', 'social_networks', 'friends', 'team_invite', 'others']);
export type TSignupSource = z.infer<typeof ZSignupSource>;
export const SIGNUP_SOURCE_LABELS: Record<TSignupSource, string> = {
  search_engines: 'Search engines',
  social_networks: 'Social networks',
  friends: 'Friends',
  team_invite: 'Team invite',
  others: 'Others (specify)',
};

export const ZLimitType = z.enum(['daily', 'life_time']);
export type TLimitType = z.infer<typeof ZLimitType>;
export const ZRateWindow = z.enum(['minute', 'hour', 'day']);
export type TRateWindow = z.infer<typeof ZRateWindow>;
export const ZRateScope = z.enum(['ip', 'global']);
export type TRateScope = z.infer<typeof ZRateScope>;

/** Job activity types (each has queued, progress and history wording in the UI). */
export const ZJobActivityType = z.enum(['sync', 'verify', 'analyse', 'export', 'failed', 'find_emails', 'enrich']);
export type TJobActivityType = z.infer<typeof ZJobActivityType>;

/** Account activity types recorded for a user's notable actions. */
export const ZAccountActivityType = z.enum([
  'signup',
  'login',
  'logout',
  'email_verified',
  'password_change',
  'password_reset',
  'password_setup',
  'profile_update',
  'email_change',
  'api_key',
  'low_credit_alert',
  'upgrade_request',
  'account_deleted',
]);
export type TAccountActivityType = z.infer<typeof ZAccountActivityType>;

/** Every type an activity row can have: account actions and job activities. */
export const ZActivityType = z.enum([...ZAccountActivityType.options, ...ZJobActivityType.options]);
export type TActivityType = z.infer<typeof ZActivityType>;

export const ZVerifyListState = z.enum(['verified', 'non_verified', 'in_progress', 'cancelled']);
export type TVerifyListState = z.infer<typeof ZVerifyListState>;
export const ZFinderListState = z.enum(['processed', 'not_processed', 'in_progress', 'cancelled']);
export type TFinderListState = z.infer<typeof ZFinderListState>;
export const ZDownloadState = z.enum(['success', 'failed', 'cancelled', 'expired']);
export type TDownloadState = z.infer<typeof ZDownloadState>;

export const ZSourceAgent = z.enum([
  'bulk_verify',
  'instant_verify',
  'bulk_finder',
  'instant_finder',
  'enrich_list',
  'enrich_lead',
  'add_lead',
  'reverse_lookup',
  'js_widget',
  /** A valid verdict's credit given back because the address hard-bounced within the guarantee (issue 32). */
  'bounce_credit_back',
]);
export type TSourceAgent = z.infer<typeof ZSourceAgent>;

export const ZCurrency = z.enum(['USD', 'INR']);
export type TCurrency = z.infer<typeof ZCurrency>;
export const ZPriceKind = z.enum(['discount', 'standard', 'bonus']);
export type TPriceKind = z.infer<typeof ZPriceKind>;
export const ZPaymentProvider = z.enum(['paypal', 'stripe']);
export type TPaymentProvider = z.infer<typeof ZPaymentProvider>;
export const ZDataRegion = z.enum(['eu1', 'in1', 'sg1', 'us1', 'aps3', 'mec1']);
export type TDataRegion = z.infer<typeof ZDataRegion>;

export const ZAppType = z.enum(['server', 'client']);
export type TAppType = z.infer<typeof ZAppType>;
export const ZAppStatus = z.enum(['new', 'active', 'inactive', 'removed']);
export type TAppStatus = z.infer<typeof ZAppStatus>;
export const APP_STATUS_LABELS: Record<TAppStatus, string> = {
  new: 'Yet to Activate',
  active: 'Active',
  inactive: 'Inactive',
  removed: 'Removed',
};

export const ZListSource = z.enum([
  'upload',
  'apollo',
  'mailchimp',
  'active_campaign',
  'moosend',
  'hubspot',
  'mailerlite',
  'sendgrid',
  'automizy',
  'clevertap',
  'leads',
  'lemlist',
  'go_high_level',
  'kit',
  'zoho',
  'skylead',
]);
export type TListSource = z.infer<typeof ZListSource>;

export const ZVerificationStatus = z.enum(['valid', 'invalid', 'catch_all', 'unknown']);
export type TVerificationStatus = z.infer<typeof ZVerificationStatus>;
export const ZVerificationMode = z.enum(['highest_accuracy', 'fastest_turnaround']);
export type TVerificationMode = z.infer<typeof ZVerificationMode>;

/** Credits ledger row kinds. */
export const ZCreditTransactionKind = z.enum(['grant', 'purchase', 'charge', 'refund']);
export type TCreditTransactionKind = z.infer<typeof ZCreditTransactionKind>;

/** Kinds of single-use tokens sent by mail or handed out by the API. */
export const ZTokenKind = z.enum(['email_verification', 'password_reset', 'setup_password', 'email_change', 'password_change']);
export type TTokenKind = z.infer<typeof ZTokenKind>;

export const ZDashboardType = z.enum(['individual', 'team']);
export type TDashboardType = z.infer<typeof ZDashboardType>;
export const ZUserType = z.enum(['individual', 'organisation']);
export type TUserType = z.infer<typeof ZUserType>;

/** Plan intervals. Annual plans are 20% cheaper than one time. */
export const ZPlanInterval = z.enum(['free', 'one_time', 'monthly', 'annual']);
export type TPlanInterval = z.infer<typeof ZPlanInterval>;
