import { z } from 'zod';

/**
 * The platforms a list can come from (spec section 3 list sources, minus `upload` and `leads`), with what connecting
 * one asks for. `available: false` platforms are listed but cannot be connected (the reason says why).
 */
export const INTEGRATIONS = [
  'mailchimp',
  'hubspot',
  'active_campaign',
  'sendgrid',
  'mailerlite',
  'moosend',
  'clevertap',
  'lemlist',
  'go_high_level',
  'kit',
  'zoho',
  'apollo',
  'skylead',
  'automizy',
] as const;
export const ZIntegration = z.enum(INTEGRATIONS, { message: 'This integration does not exist' });
export type TIntegration = z.infer<typeof ZIntegration>;

export type TIntegrationField = {
  /** `account_id`: an account / location id sent with the key (CleverTap, GoHighLevel); `region`: a choice among `options` (CleverTap). */
  key: 'api_key' | 'api_url' | 'account_id' | 'region';
  label: string;
  placeholder: string;
  help?: string;
  options?: { value: string; label: string }[];
};

/** CleverTap's regions: each account lives in one, at `https://{region}.api.clevertap.com`. */
export const CLEVERTAP_REGIONS = [
  { value: 'eu1', label: 'Europe (eu1)' },
  { value: 'in1', label: 'India (in1)' },
  { value: 'us1', label: 'United States (us1)' },
  { value: 'sg1', label: 'Singapore (sg1)' },
  { value: 'aps3', label: 'Indonesia (aps3)' },
  { value: 'mec1', label: 'Middle East (mec1)' },
];

export type TIntegrationInfo = {
  key: TIntegration;
  label: string;
  description: string;
  available: boolean;
  /** Why a platform cannot be connected (defunct, no public API, not built yet). */
  unavailable_reason?: string;
  fields: TIntegrationField[];
  /** Kit: the user confirms a paid plan before connecting (spec section 2). */
  requires_paid_plan_confirmation?: boolean;
  /** What "unsubscribe" does on this platform. */
  unsubscribe_means: string;
  /** Connects through the platform's OAuth consent page (`GET /oauth/{platform}`), besides or instead of an API key. */
  oauth?: boolean;
};

const API_KEY = (label = 'API key', placeholder = 'Paste the API key', help?: string): TIntegrationField => ({ key: 'api_key', label, placeholder, help });

export const INTEGRATION_CATALOG: Record<TIntegration, TIntegrationInfo> = {
  mailchimp: {
    key: 'mailchimp',
    label: 'Mailchimp',
    description: 'Verify the members of a Mailchimp audience.',
    available: true,
    fields: [API_KEY('API key', 'xxxxxxxxxxxxxxxx-us19', 'Account › Extras › API keys; the part after the dash is your data centre.')],
    unsubscribe_means: 'Undeliverable members are set to unsubscribed in the audience.',
    oauth: true,
  },
  hubspot: {
    key: 'hubspot',
    label: 'HubSpot',
    description: 'Verify the contacts of a HubSpot list.',
    available: true,
    fields: [API_KEY('Private app access token', 'pat-na1-…')],
    unsubscribe_means: 'Undeliverable contacts are removed from the (static) list.',
  },
  active_campaign: {
    key: 'active_campaign',
    label: 'ActiveCampaign',
    description: 'Verify the contacts of an ActiveCampaign list.',
    available: true,
    fields: [
      { key: 'api_url', label: 'API URL', placeholder: 'https://youraccount.api-us1.com', help: 'Settings › Developer: the URL exactly as shown.' },
      API_KEY('API key'),
    ],
    unsubscribe_means: 'Undeliverable contacts are unsubscribed from the list.',
  },
  sendgrid: {
    key: 'sendgrid',
    label: 'SendGrid',
    description: 'Verify a SendGrid marketing list (read through an asynchronous export).',
    available: true,
    fields: [API_KEY('API key', 'SG.…', 'Settings › API Keys: a key with Marketing access.')],
    unsubscribe_means: 'Undeliverable contacts are removed from the list.',
  },
  mailerlite: {
    key: 'mailerlite',
    label: 'MailerLite',
    description: 'Verify the subscribers of a MailerLite group.',
    available: true,
    fields: [API_KEY('API token', 'Paste the API token')],
    unsubscribe_means: 'Undeliverable subscribers are set to unsubscribed.',
  },
  moosend: {
    key: 'moosend',
    label: 'Moosend',
    description: 'Verify the subscribers of a Moosend mailing list.',
    available: true,
    fields: [API_KEY()],
    unsubscribe_means: 'Undeliverable subscribers are unsubscribed from the mailing list.',
  },
  clevertap: {
    key: 'clevertap',
    label: 'CleverTap',
    description: 'Verify the CleverTap profiles who did an event in the last 30 days (read through its cursor download).',
    available: true,
    fields: [
      { key: 'region', label: 'Region', placeholder: 'Choose the region of your account', help: 'Settings › Project: the region your dashboard URL starts with (e.g. in1, us1, eu1).', options: CLEVERTAP_REGIONS },
      { key: 'account_id', label: 'Account ID', placeholder: 'W88-R65-9Z7Z', help: 'Settings › Project: the Project (account) ID.' },
      API_KEY('Passcode', 'Paste the passcode', 'Settings › Project: the passcode of this account.'),
    ],
    unsubscribe_means: 'Email is switched off (MSG-email) for undeliverable profiles.',
  },
  lemlist: {
    key: 'lemlist',
    label: 'lemlist',
    description: 'Verify the leads of a lemlist campaign.',
    available: true,
    fields: [API_KEY('API key', 'Paste the API key', 'Settings › Integrations › API: the key is sent as the password of Basic authentication.')],
    unsubscribe_means: 'Undeliverable leads are unsubscribed from the campaign.',
  },
  go_high_level: {
    key: 'go_high_level',
    label: 'GoHighLevel',
    description: 'Verify GoHighLevel contacts by tag (tags act as lists).',
    available: true,
    fields: [
      { key: 'account_id', label: 'Location ID', placeholder: 've9EPM428h8vShlRW1KT', help: 'Settings › Business Profile: the Location (sub-account) ID.' },
      API_KEY('Private integration token', 'pit-…', 'Settings › Private Integrations: a token with the contacts, tags and custom fields scopes.'),
    ],
    unsubscribe_means: 'The tag is removed from undeliverable contacts, and they get the tag "Verilead Undeliverable".',
  },
  kit: {
    key: 'kit',
    label: 'Kit',
    description: 'Verify the subscribers of a Kit tag (tags act as lists).',
    available: true,
    fields: [API_KEY('V4 API key', 'kit_…')],
    requires_paid_plan_confirmation: true,
    unsubscribe_means: 'The tag is removed from undeliverable subscribers.',
  },
  zoho: { key: 'zoho', label: 'Zoho CRM', description: 'Verify the contacts of a Zoho CRM campaign.', available: true, oauth: true, fields: [], unsubscribe_means: 'Email opt-out is set on undeliverable contacts.' },
  apollo: {
    key: 'apollo',
    label: 'Apollo',
    description: 'Verify Apollo contacts by label (lists).',
    available: true,
    fields: [API_KEY('Master API key', 'Paste the master API key', 'Settings › Integrations › API: labels and custom fields need a master key.')],
    unsubscribe_means: 'Apollo has no unsubscribe: undeliverable contacts get the label "Verilead Undeliverable".',
  },
  skylead: {
    key: 'skylead',
    label: 'Skylead',
    description: 'Skylead lists.',
    available: false,
    unavailable_reason: 'Skylead publishes no API reference, so this connector cannot be built yet.',
    fields: [],
    unsubscribe_means: 'Skylead only takes appended columns.',
  },
  automizy: {
    key: 'automizy',
    label: 'Automizy',
    description: 'Automizy was shut down.',
    available: false,
    unavailable_reason: 'Automizy has shut down its service, so new accounts cannot be connected. Lists imported from Automizy earlier keep working.',
    fields: [],
    unsubscribe_means: '—',
  },
};

export const KIT_PAID_PLAN_MESSAGE = 'Kit only allows API access on paid plans. Does this Kit account have a paid plan?';

export const ZIntegrationParams = z.object({ integration: ZIntegration });
export const ZIntegrationAccountParams = z.object({ integration: ZIntegration, x: z.uuid({ message: 'This account does not exist' }) });

const ZName = z.string().trim().min(1, { message: 'Please enter a name for this account' }).max(100, { message: 'Please use at most 100 characters' });
const ZSecret = z.string().trim().min(1, { message: 'Please enter the API key' }).max(500, { message: 'This key is too long' });

export const ZConnectAccountRequest = z.object({
  name: ZName,
  api_key: ZSecret,
  api_url: z
    .string()
    .trim()
    .max(500)
    .regex(/^https?:\/\/\S+$/i, { message: 'Please enter the API URL, starting with https://' })
    .optional(),
  /** Kit: the user answered "Yes, Continue" to the paid-plan question. */
  paid_plan_confirmed: z.boolean().optional(),
  /** CleverTap: the account (project) id; GoHighLevel: the location id. */
  account_id: z.string().trim().min(1, { message: 'Please enter the account ID' }).max(200, { message: 'This ID is too long' }).optional(),
  /** CleverTap: the region the account lives in (one of the platform's `options`). */
  region: z.string().trim().max(20).optional(),
});
export type TConnectAccountRequest = z.input<typeof ZConnectAccountRequest>;

export const ZDeleteAccountQuery = z.object({ account_id: z.uuid({ message: 'This account does not exist' }) });

export const ZLinkedAccount = z.object({
  id: z.uuid(),
  integration: ZIntegration,
  name: z.string(),
  /** What the platform calls the account (its name or e-mail), read when it was verified. */
  remote_account: z.string().nullable(),
  created_at: z.string(),
});
export type TLinkedAccount = z.infer<typeof ZLinkedAccount>;

export const ZRemoteList = z.object({ id: z.string(), name: z.string(), member_count: z.number().int().nullable() });
export type TRemoteList = z.infer<typeof ZRemoteList>;

export const ZWriteBackChoice = z.object({
  /** Unsubscribe (or untag / remove from the list, as the platform allows) undeliverable contacts. */
  unsubscribe: z.boolean().default(false),
  /** Write the verification result into fields (created when missing). */
  append: z.boolean().default(true),
});

export const ZVerifyListRequest = z.object({
  account_id: z.uuid({ message: 'Please choose an account' }),
  list_id: z.string().trim().min(1, { message: 'Please choose a list' }).max(200),
  write_back: ZWriteBackChoice.default({ unsubscribe: false, append: true }),
});
export type TVerifyListRequest = z.input<typeof ZVerifyListRequest>;

export const IMPORT_STATES = ['importing', 'verifying', 'writing_back', 'completed', 'failed', 'cancelled'] as const;
export const ZImportState = z.enum(IMPORT_STATES);
export type TImportState = z.infer<typeof ZImportState>;

/** Where an import reads from: a platform, or `leads` (a prospect list of this product). */
export const ZImportSource = z.enum([...INTEGRATIONS, 'leads']);
export type TImportSource = z.infer<typeof ZImportSource>;

export const ZIntegrationImport = z.object({
  id: z.uuid(),
  integration: ZImportSource,
  account_id: z.uuid().nullable(),
  account_name: z.string(),
  remote_list_id: z.string(),
  remote_list_name: z.string(),
  state: ZImportState,
  imported: z.number().int(),
  /** Members the platform reported for the list (null when it does not say). */
  total: z.number().int().nullable(),
  verify_list_id: z.uuid().nullable(),
  written_back: z.number().int(),
  write_back: z.object({ unsubscribe: z.boolean(), append: z.boolean() }),
  error: z.string().nullable(),
  /** Why a running import waits (its organisation or importer suspended by an operator), null (or absent) otherwise. */
  paused_reason: z.string().nullable().optional(),
  created_at: z.string(),
});
export type TIntegrationImport = z.infer<typeof ZIntegrationImport>;

export const ZLinkedAccountsResponse = z.object({ status: z.literal('success'), data: z.object({ items: z.array(ZLinkedAccount) }) });
export const ZLinkedAccountResponse = z.object({ status: z.literal('success'), data: ZLinkedAccount });
export const ZAccountListsResponse = z.object({ status: z.literal('success'), data: z.object({ account: ZLinkedAccount, lists: z.array(ZRemoteList) }) });
export const ZDeleteAccountResponse = z.object({ status: z.literal('success'), data: z.object({ message: z.string() }) });
export const ZIntegrationImportResponse = z.object({ status: z.literal('success'), data: ZIntegrationImport });
/** POST /integration/imports/cancel: stops a running import (as `/email_verify/list/cancel` stops a list); answers the import, `cancelled`. */
export const ZImportCancelRequest = z.object({ import_id: z.uuid({ message: 'import_id must be an import id' }) });
export type TImportCancelRequest = z.infer<typeof ZImportCancelRequest>;
export const ZIntegrationImportsResponse = z.object({ status: z.literal('success'), data: z.object({ items: z.array(ZIntegrationImport) }) });

// ---------- OAuth (Mailchimp, Zoho CRM) ----------

/** Zoho's data centres: the accounts server of each is accounts.zoho.{region}. */
export const ZOHO_REGIONS = ['com', 'eu', 'in', 'com.au', 'jp', 'com.cn'] as const;
export const ZOHO_REGION_LABELS: Record<(typeof ZOHO_REGIONS)[number], string> = {
  com: 'United States (zoho.com)',
  eu: 'Europe (zoho.eu)',
  in: 'India (zoho.in)',
  'com.au': 'Australia (zoho.com.au)',
  jp: 'Japan (zoho.jp)',
  'com.cn': 'China (zoho.com.cn)',
};
export const ZZohoRegion = z.enum(ZOHO_REGIONS, { message: 'Please choose your Zoho data centre' });

/**
 * GET /oauth/{platform}: without `code`, starts a connection (`name`, Zoho `region`) and answers the platform's
 * consent URL; with `code` and `state` (the platform's redirect), finishes it and answers the connected account.
 */
export const ZOAuthQuery = z.object({
  name: ZName.optional(),
  region: ZZohoRegion.optional(),
  code: z.string().trim().min(1).max(2000).optional(),
  state: z.string().trim().max(300).optional(),
  /** The platform's refusal (the user pressed "Deny"). */
  error: z.string().max(300).optional(),
  /** Zoho's redirect: the user's data centre and its accounts server. */
  location: z.string().max(20).optional(),
  'accounts-server': z.string().max(200).optional(),
});
export type TOAuthQuery = z.input<typeof ZOAuthQuery>;
export const ZOAuthResult = z.object({ authorize_url: z.string().nullable(), account: ZLinkedAccount.nullable() });
export type TOAuthResult = z.infer<typeof ZOAuthResult>;
export const ZOAuthResponse = z.object({ status: z.literal('success'), data: ZOAuthResult });

// ---------- the `leads` source: this product's prospect lists ----------

export const ZLeadsSourceList = z.object({ id: z.uuid(), name: z.string(), lead_count: z.number().int(), email_count: z.number().int() });
export type TLeadsSourceList = z.infer<typeof ZLeadsSourceList>;
export const ZLeadsSourceListsResponse = z.object({ status: z.literal('success'), data: z.object({ items: z.array(ZLeadsSourceList) }) });
export const ZLeadsVerifyRequest = z.object({ list_id: z.uuid({ message: 'Please choose a prospect list' }) });
export type TLeadsVerifyRequest = z.input<typeof ZLeadsVerifyRequest>;

/** What a test-mode connect form may be filled with: the local stand-in's own credentials. */
export const ZIntegrationTestCredentials = z.object({
  api_key: z.string(),
  api_url: z.string().optional(),
  account_id: z.string().optional(),
  region: z.string().optional(),
});
export type TIntegrationTestCredentials = z.infer<typeof ZIntegrationTestCredentials>;
/**
 * GET /integration/test_mode. In test mode (the condition of payments' test mode) every platform with an API key is
 * answered by a local stand-in this server starts (nothing leaves the machine), and OAuth platforms by their local
 * consent pages; `credentials` are the stand-ins' own keys.
 */
export const ZIntegrationTestMode = z.object({ test_mode: z.boolean(), credentials: z.partialRecord(ZIntegration, ZIntegrationTestCredentials) });
export type TIntegrationTestMode = z.infer<typeof ZIntegrationTestMode>;
export const ZIntegrationTestModeResponse = z.object({ status: z.literal('success'), data: ZIntegrationTestMode });
