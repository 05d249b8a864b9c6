import type { Duplex } from 'node:stream';

export type TVerificationStatus = 'valid' | 'invalid' | 'catch_all' | 'unknown';
export type TSafeToSend = 'yes' | 'risky' | 'no';

/** Stable reason codes, shared with @verilead/mailworld's truth. */
export const REASON_CODES = {
  valid: ['valid_mailbox', 'allowed_by_user_list'],
  invalid: [
    'invalid_syntax',
    'domain_not_found',
    'null_mx',
    'no_mail_server',
    'mailbox_not_found',
    'mailbox_disabled',
    'mailbox_full',
    'blocked_by_user_list',
  ],
  catch_all: ['accept_all'],
  unknown: ['greylisted', 'verifier_blocked', 'smtp_timeout', 'connection_failed', 'dns_error', 'service_unavailable', 'smtp_error'],
} as const;

export type TValidReason = (typeof REASON_CODES.valid)[number];
export type TInvalidReason = (typeof REASON_CODES.invalid)[number];
export type TCatchAllReason = (typeof REASON_CODES.catch_all)[number];
export type TUnknownReason = (typeof REASON_CODES.unknown)[number];
export type TReasonCode = TValidReason | TInvalidReason | TCatchAllReason | TUnknownReason;

export type TTranscriptLine = { at_ms: number; direction: 'C' | 'S'; line: string };

export type TVerificationResult = {
  email: string;
  status: TVerificationStatus;
  reason: { code: TReasonCode; text: string };
  safe_to_send: TSafeToSend;
  suggested_email_address: string | null;
  disposable: boolean;
  free_account: boolean;
  role_account: boolean;
  gibberish: boolean;
  mx_record: string | null;
  smtp_provider: string | null;
  verified_on: string;
  ai_verdict: string;
  greylist_count: number;
  account: string;
  domain: string;
  time_taken: number;
  deliverability_score: number;
  transcript: TTranscriptLine[];
};

export type TVerificationMode = 'highest_accuracy' | 'fastest_turnaround';
export type TGibberishThreshold = 'low' | 'medium' | 'high';

/**
 * Cache for DNS answers and catch-all verdicts. Values are plain JSON data.
 * Methods may be synchronous or return promises (e.g. a Redis-backed cache).
 */
export interface TVerifierCache {
  get(key: string): unknown | Promise<unknown>;
  set(key: string, value: unknown, ttlMs: number): void | Promise<void>;
}

export type TClock = { now(): number };
/**
 * Waits `ms` on the engine's time. `signal` (when given) cancels the wait: the default ends it at once (rejecting); an
 * injected sleep may ignore it, since the engine never relies on it alone (it races the signal itself).
 */
export type TSleep = (ms: number, signal?: AbortSignal) => Promise<void>;
/** Opens a TCP connection; must return a socket that emits 'connect' (like net.connect) or is already connected. */
export type TDial = (options: { host: string; port: number }) => Duplex;

export type TTimeouts = { dnsMs: number; connectMs: number; replyMs: number; totalMs: number };

/** Choices that may differ from one call to the next on one shared engine (the user's settings). */
export type TCallOptions = {
  mode?: TVerificationMode;
  gibberishThreshold?: TGibberishThreshold;
  wbList?: { allow: string[]; block: string[] };
  /**
   * What a greylisted address does inside this call (default `wait`):
   * - `wait`: retried on the mode's greylist schedule inside the call, which then lasts minutes;
   * - `defer`: not retried: the call answers at once `unknown` / `greylisted` (greylist_count 1) and the caller re-checks
   *   the address later on the schedule (a bulk list finishes the rest meanwhile);
   * - `last`: the caller's last re-check: not retried, the call answers the verdict the schedule's last attempt would
   *   (an accepted recipient whose catch-all probe is still deferred is valid; otherwise `unknown` / `greylisted`).
   */
  greylisting?: 'wait' | 'defer' | 'last';
  /**
   * Cancels the call: it rejects at once with the signal's reason (a stream ends at once), whatever it was doing. An
   * SMTP exchange already under way for it is finished in the background (its replies read, so the session is sound
   * when reused; other calls' recipients in the same transaction get their answers) and its answer dropped.
   */
  signal?: AbortSignal;
  /**
   * The longest this call waits for a mail host an operator paused (`TVerifyOptions.hostPause`); after it the attempt
   * answers `unknown` / `smtp_timeout` ("paused by the operator"). Unset: it waits until the pause is lifted or `signal`
   * cancels it. The wait never counts against the call's own time limit.
   */
  pauseWaitMs?: number;
};

/** A mail host as a pause sees it: "ip:port", the ip, and the MX name it is reached as. */
export type THostRef = { key: string; ip: string; exchange: string };

/** An operator's pause of mail hosts (injected: the engine only asks it and waits for its changes). */
export type THostPause = {
  isPaused(host: THostRef): boolean;
  /** Resolves at the next change of what is paused (or at once when `signal` is aborted). */
  nextChange(signal?: AbortSignal): Promise<void>;
};

/** A stream of verifications on a shared engine. */
export type TStreamOptions = TCallOptions & {
  /** how many addresses are worked on at once (default 50); addresses waiting for a mail host slot do not count */
  concurrency?: number;
};

export type TVerifyOptions = {
  /** DNS servers as 'host:port' (or 'host' for port 53). Default: the system's dns.getServers(). */
  dnsServers?: string[];
  /** Name sent in EHLO/HELO. Should be a real host name with matching reverse DNS in production. */
  heloName?: string;
  /** Envelope sender used in MAIL FROM. Empty string sends the null reverse-path `<>`. */
  mailFrom?: string;
  smtpPort?: number;
  timeouts?: Partial<TTimeouts>;
  mode?: TVerificationMode;
  /** Delays (ms) before each greylisting retry; overrides the mode's default schedule. */
  greylistSchedule?: number[];
  gibberishThreshold?: TGibberishThreshold;
  wbList?: { allow: string[]; block: string[] };
  cache?: TVerifierCache;
  clock?: TClock;
  sleep?: TSleep;
  dial?: TDial;
  /** verifyMany: how many addresses are verified at once (default 50). */
  concurrency?: number;
  /** How many SMTP sessions the engine (the whole process, when it is shared) may have open to one mail host at once (default 3). */
  perHostConcurrency?: number;
  /**
   * Most recipients asked in one SMTP transaction. By default addresses of one mail host that wait for a session are
   * asked together in batches of up to 20, pipelined where the host offers PIPELINING, and a session's transaction
   * stays open across its batches up to 100 recipients. Set, it caps both: 1 asks one address per transaction.
   */
  maxRecipientsPerTransaction?: number;
  /**
   * A session's budget (default 8 and 8, below Postfix's 10 errors and Exim's 10 non-mail commands): refused replies
   * it may collect and non-mail commands (EHLO, STARTTLS, RSET…) it may send before it retires with QUIT. A host that
   * cuts a session anyway lowers its own. Raise it only for hosts known to have no such limits.
   */
  sessionBudget?: { errors?: number; nonMail?: number };
  /**
   * Where each mail host's lessons (connection limit, session budget, pause) and its connections are counted: by
   * default this engine alone (the process). Several processes behind one egress address share a store (the server's
   * is in Redis with `REDIS_URL`) so that together they never exceed what a host takes from that address.
   */
  hostBudgets?: THostBudgetStore;
  /** Mail hosts an operator paused: new work for them waits (engine/host-watch.ts `PausedHosts` is one). */
  hostPause?: THostPause;
};

/** What a mail host taught an engine, as shared between processes: each lesson with how long it still holds (ms). */
export type THostLessons = {
  /** The most connections the host takes at once from our address (learned from its 421). */
  ceiling?: { value: number; forMs: number };
  /** Refused replies and non-mail commands a session may spend there (lowered when the host cut one). */
  budget?: { errors: number; nonMail: number };
  /** The host failed repeatedly: paused until then. */
  down?: { forMs: number; reason: 'smtp_timeout' | 'connection_failed' | 'service_unavailable' };
};

/** One connection to a mail host, counted by a host-budget store from before it is opened until it ends. */
export type THostLease = {
  /**
   * The host refused this connection (a 4xx greeting): the connections every other lease (every process) holds there
   * now, which the store keeps at once as the host's ceiling when there are any; null when the store cannot tell.
   */
  refused(): Promise<number | null>;
  /** The host greeted the connection: it takes at least as many at once as are greeted now (shared slow start). */
  established(): void;
  /** The connection ended (or was never opened). */
  release(): void;
  /** Calls `listener` whenever another process waits for a connection slot at the host (an idle session then gives its up). */
  onWanted?(listener: () => void): void;
};

/**
 * A mail host's budgets shared by the processes of one egress address (`TVerifyOptions.hostBudgets`). The engine asks it
 * only when a session opens or ends and when a host teaches it something; `lessons` is read from the store's own cache
 * (refreshed in the background), never a round trip per recipient. A store that cannot reach its backend answers as if
 * the process were alone (each engine keeps its own limits): it never fails a verification.
 */
export interface THostBudgetStore {
  /** What is known of a host ("ip:port") from the other processes, as last read (undefined: nothing). */
  lessons(host: string): THostLessons | undefined;
  /** A host taught this process something: shared, merged with what others learned (the lower limit, the longer pause). */
  learn(host: string, lessons: THostLessons): void;
  /**
   * A lease for one more connection to the host: waits while every process together holds as many as the host takes
   * (its learned ceiling, or one more than it has been seen to greet at once); null when `waitMs` passed first or
   * `signal` aborted. A synchronous answer is used at once (the in-process store).
   */
  lease(host: string, waitMs: number, signal?: AbortSignal): THostLease | null | Promise<THostLease | null>;
}
