import type { TOutboundClient } from '../../../platform/outbound-http/client';
import type { TImportSource, TIntegration } from '@verilead/contracts';

export type TRemoteListInfo = { id: string; name: string; memberCount: number | null };
export type TRemoteMember = { id: string; email: string; firstName: string; lastName: string };
/** One page of members and the platform's opaque cursor of the next one (null: the last page). */
export type TMemberPage = { members: TRemoteMember[]; nextCursor: string | null };

/** A verified member to write back. */
export type TWriteBackItem = {
  member: { id: string; email: string };
  status: string;
  safeToSend: boolean;
  reason: string;
  /** Undeliverable: the contact the user asked to unsubscribe / untag. */
  undeliverable: boolean;
};
export type TWriteBackMode = { unsubscribe: boolean; append: boolean };
/** Told the (platform) ids of members whose write-back is complete. */
export type TWrittenBack = (memberIds: string[]) => void;

/** An account connected through OAuth (Mailchimp, Zoho CRM). */
export type TOAuthCredentials = {
  accessToken: string;
  /** Where the account's API lives: Mailchimp's `api_endpoint` (from /oauth2/metadata), Zoho's `api_domain`. */
  apiEndpoint: string;
  refreshToken?: string;
  /** Zoho: the accounts server of the user's data centre (token refreshes go there). */
  accountsServer?: string;
  /** Mailchimp: the data centre (`dc`) from the metadata. */
  dc?: string;
};

/** The stored credentials of an account (encrypted at rest as JSON). OAuth accounts have an empty apiKey. */
export type TCredentials = {
  apiKey: string;
  apiUrl?: string;
  /** CleverTap: the account (project) id; GoHighLevel: the location id. */
  accountId?: string;
  /** CleverTap: the region the account lives in. */
  region?: string;
  oauth?: TOAuthCredentials;
};

/** The result fields written back (names as the platforms show them). */
export const RESULT_FIELDS = { status: 'Verilead Status', safeToSend: 'Verilead Safe To Send', reason: 'Verilead Reason' } as const;
export const UNDELIVERABLE_TAG = 'Verilead Undeliverable';

/**
 * One adapter per platform: the same five things everywhere. Every method may throw RemoteAuthError (the
 * credentials no longer work), RateLimitedError (the platform's throttling signal, with how long to wait) or
 * RemoteError.
 */
export type TIntegrationAdapter = {
  platform: TImportSource;
  /** Checks the credentials; answers what the platform calls the account. */
  verifyCredentials(): Promise<{ accountLabel: string }>;
  listLists(): Promise<TRemoteListInfo[]>;
  listMembers(listId: string, cursor: string | null): Promise<TMemberPage>;
  /** Creates the fields / properties / tags write-back needs (idempotent). */
  prepareWriteBack(listId: string, mode: TWriteBackMode): Promise<void>;
  /**
   * Writes one chunk of results back (idempotent: setting a field or status twice changes nothing). `written` hears
   * the members whose writes are all done as they finish, so that a chunk which meets a throttle part-way resumes
   * after them instead of writing them twice.
   */
  writeBack(listId: string, items: TWriteBackItem[], mode: TWriteBackMode, written?: TWrittenBack): Promise<void>;
};

/** Where each platform's API lives; every one is injectable (tests and demos point them at local fakes). */
export type TBaseUrls = Partial<Record<TIntegration, string>>;

export type TAdapterContext = {
  credentials: TCredentials;
  baseUrls: TBaseUrls;
  /**
   * The outbound client every request of the adapter goes through (guarded: pinned addresses, no redirects). Built
   * from `outboundPolicyOf(config, { allowPrivate })` by getAdapter; loopback only with ALLOW_PRIVATE_DESTINATIONS or
   * for this server's own local fake.
   */
  outbound: TOutboundClient;
  /** In-process waits on a throttling signal before giving the job back to the queue with a delay. */
  maxThrottleWaits?: number;
  /** Members per page (tests: small, to exercise paging); never above the platform's cap. */
  pageSize?: number;
  /** The longest in-process wait; a longer Retry-After is handed to the queue. */
  maxInlineWaitMs?: number;
  /** The OAuth client of the platform (token refreshes). */
  oauthClient?: { clientId: string; clientSecret: string };
};
