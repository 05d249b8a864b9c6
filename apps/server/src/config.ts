import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { ZAppUpdateCode } from '@verilead/contracts';
import type { TTestDoubles } from './config-test-doubles';

/**
 * The repository root: the nearest folder above this module that holds `apps/server/migrations`. Found by walking up,
 * so it holds both for the TypeScript sources (apps/server/src) and for the bundle `npm start` runs (apps/server/dist).
 */
export const REPO_ROOT = findRepoRoot(dirname(fileURLToPath(import.meta.url)));
/** The server's folder (apps/server): migrations and the files the server reads beside its code. */
export const SERVER_ROOT = join(REPO_ROOT, 'apps', 'server');

function findRepoRoot(from: string): string {
  for (let dir = resolve(from); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'apps', 'server', 'migrations'))) return dir;
    if (dirname(dir) === dir) throw new Error(`The Verilead repository (apps/server/migrations) was not found above ${from}`);
  }
}

const ZBool = z
  .union([z.boolean(), z.string()])
  .transform((v) => (typeof v === 'boolean' ? v : ['1', 'true', 'yes', 'on'].includes(v.trim().toLowerCase())));
const ZOptionalString = z
  .string()
  .optional()
  .transform((v) => (v && v.trim() ? v.trim() : undefined));

const ZEnv = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  /** Default: loopback (`localhost`) for the quick start, every interface (`0.0.0.0`) with NODE_ENV=production. */
  HOST: ZOptionalString,
  DATABASE_URL: ZOptionalString,
  DATA_DIR: z.string().default('./data'),
  APP_SECRET: ZOptionalString,
  PUBLIC_URL: ZOptionalString,
  SMTP_URL: ZOptionalString,
  MAIL_FROM: z.string().default('Verilead <no-reply@verilead.test>'),
  MIN_APP_VERSION: z.string().regex(/^\d+(\.\d+){0,2}$/).default('0.0.0'),
  APP_UPDATE_CODE: ZAppUpdateCode.default('reload'),
  REDIS_URL: ZOptionalString,
  PASSWORD_MAX_AGE_DAYS: z.coerce.number().int().min(1).default(180),
  DNS_SERVERS: ZOptionalString,
  // default: the host of PUBLIC_URL, and verify@ that host (checkProbeIdentity warns at start when receivers cannot accept them)
  VERIFIER_HELO_NAME: ZOptionalString,
  VERIFIER_MAIL_FROM: ZOptionalString,
  VERIFIER_SMTP_PORT: z.coerce.number().int().min(1).max(65535).default(25),
  VERIFIER_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).optional(),
  VERIFIER_REPLY_TIMEOUT_MS: z.coerce.number().int().min(100).optional(),
  VERIFIER_GREYLIST_SCHEDULE_MS: z
    .string()
    .regex(/^\d+(,\d+)*$/)
    .optional(),
  DEMO_MAIL_WORLD: ZBool.default(false),
  DEMO_GREYLIST_DELAY_MS: z.coerce.number().int().min(100).max(3_600_000).default(1_000),
  STORAGE_DIR: ZOptionalString,
  RATE_LIMIT_AUTH_MAX: z.coerce.number().int().min(1).default(20),
  RATE_LIMIT_PUBLIC_MAX: z.coerce.number().int().min(1).default(60),
  RATE_LIMIT_WINDOW_MS: z.coerce.number().int().min(1).default(60_000),
  /** Posts one ESP bounce webhook address takes per window (an ESP batches its events; a leaked address is held to it). */
  RATE_LIMIT_WEBHOOK_MAX: z.coerce.number().int().min(1).default(600),
  /** How often each queue is polled for jobs that became due (a job enqueued wakes the workers at once: JOBS_CHANNEL). */
  JOB_POLL_INTERVAL_MS: z.coerce.number().int().min(10).default(2_000),
  JOB_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
  JOB_CONCURRENCY_MAIL: z.coerce.number().int().min(1).max(64).optional(),
  JOB_CONCURRENCY_WEBHOOKS: z.coerce.number().int().min(1).max(64).optional(),
  JOB_CONCURRENCY_EXPORTS: z.coerce.number().int().min(1).max(64).optional(),
  JOB_CONCURRENCY_ANALYSIS: z.coerce.number().int().min(1).max(64).optional(),
  JOB_CONCURRENCY_VERIFICATION: z.coerce.number().int().min(1).max(64).optional(),
  JOB_CONCURRENCY_FINDER: z.coerce.number().int().min(1).max(64).optional(),
  JOB_CONCURRENCY_MAINTENANCE: z.coerce.number().int().min(1).max(64).optional(),
  JOB_CONCURRENCY_INTEGRATIONS: z.coerce.number().int().min(1).max(64).optional(),
  JOB_MAX_BACKOFF_SECONDS: z.coerce.number().int().min(1).default(900),
  JOB_RETENTION_HOURS: z.coerce.number().int().min(1).default(24),
  JOB_SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).default(30_000),
  JOB_MAINTENANCE_CRON: z.string().default('*/10 * * * *'),
  /** Overrides every queue's heartbeat expiry (seconds); tests use a few seconds so a killed worker's job returns fast. */
  JOB_EXPIRE_SECONDS: z.coerce.number().int().min(2).optional(),
  /** How often pg-boss's supervisor gives up abandoned jobs (seconds). */
  JOB_SUPERVISE_INTERVAL_SECONDS: z.coerce.number().int().min(1).default(60),
  /** Rows per chunk job of a bulk list: any worker takes any chunk. */
  BULK_CHUNK_SIZE: z.coerce.number().int().min(10).max(20_000).default(1_000),
  TRUST_PROXY: ZBool.default(false),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** `production`: a live deployment; test-mode fakes that stand in for an unconfigured provider are not started (payments: unless PAYMENTS_TEST_MODE=true). */
  NODE_ENV: ZOptionalString,
  WEB_DIST_DIR: ZOptionalString,
  /** Outbound requests to user-given destinations may reach private, loopback and link-local addresses. */
  ALLOW_PRIVATE_DESTINATIONS: ZBool.optional(),
  /** The former name of ALLOW_PRIVATE_DESTINATIONS, still read when the new one is unset. */
  ALLOW_PRIVATE_WEBHOOKS: ZBool.optional(),
  /** `host[:port],…`: DNS servers that resolve outbound destinations instead of the system resolver. */
  OUTBOUND_DNS_SERVERS: ZOptionalString,
  /** `platform=url,…`: where integration platforms' APIs live (demos and tests point them at local fakes). */
  INTEGRATION_BASE_URLS: ZOptionalString,
  /** Mailchimp OAuth app (without it, "Connect with Mailchimp" uses a local fake Mailchimp: test mode). */
  MAILCHIMP_CLIENT_ID: ZOptionalString,
  MAILCHIMP_CLIENT_SECRET: ZOptionalString,
  MAILCHIMP_OAUTH_URL: z.string().default('https://login.mailchimp.com'),
  /** Zoho CRM OAuth client (multi-DC enabled); without it a local fake Zoho: test mode. ZOHO_ACCOUNTS_URL overrides every data centre's accounts server. */
  ZOHO_CLIENT_ID: ZOptionalString,
  ZOHO_CLIENT_SECRET: ZOptionalString,
  ZOHO_ACCOUNTS_URL: ZOptionalString,
  GOOGLE_OIDC_ISSUER: z.string().default('https://accounts.google.com'),
  GOOGLE_CLIENT_ID: ZOptionalString,
  GOOGLE_CLIENT_SECRET: ZOptionalString,
  MICROSOFT_OIDC_ISSUER: z.string().default('https://login.microsoftonline.com/organizations/v2.0'),
  MICROSOFT_CLIENT_ID: ZOptionalString,
  MICROSOFT_CLIENT_SECRET: ZOptionalString,
  EXTENSION_LATEST_VERSION: z.string().regex(/^\d+(\.\d+){0,3}$/).default('1.0.0'),
  EXTENSION_MIN_VERSION: z.string().regex(/^\d+(\.\d+){0,3}$/).default('1.0.0'),
  G2_REVIEW_URL: z.string().default('https://www.g2.com/products/verilead/reviews/start'),
  STRIPE_SECRET_KEY: ZOptionalString,
  STRIPE_WEBHOOK_SECRET: ZOptionalString,
  STRIPE_API_BASE: ZOptionalString,
  PAYPAL_CLIENT_ID: ZOptionalString,
  PAYPAL_CLIENT_SECRET: ZOptionalString,
  PAYPAL_API_BASE: ZOptionalString,
  PAYPAL_WEBHOOK_ID: ZOptionalString,
  /** Lets the local fake Stripe and PayPal take payments when no keys are set; off by default with NODE_ENV=production or a HOST beyond loopback. */
  PAYMENTS_TEST_MODE: ZBool.optional(),
  LOW_CREDIT_CHECK_CRON: z.string().default('* * * * *'),
  /** Bearer token of GET /metrics (Prometheus); unset → /metrics answers 404. */
  METRICS_TOKEN: ZOptionalString,
  /** Days the audit log keeps an entry (the maintenance job deletes older ones). */
  AUDIT_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(365),
  /** The bounce guarantee: a valid verdict that hard-bounced within this many days is credited back (0: off). */
  BOUNCE_GUARANTEE_DAYS: z.coerce.number().int().min(0).max(3650).default(30),
});

/** A social sign-in provider (OpenID Connect); null when its client id or secret is not set. */
export type TOidcProviderConfig = { issuer: string; clientId: string; clientSecret: string };

/** The job queues: one per kind of work, so no kind starves another. */
export const JOB_QUEUE_NAMES = ['mail', 'webhooks', 'exports', 'analysis', 'verification', 'finder', 'maintenance', 'integrations'] as const;
export type TJobQueueName = (typeof JOB_QUEUE_NAMES)[number];

export type TJobQueueConfig = {
  /** Jobs of this queue one worker process runs at the same time. */
  concurrency: number;
  /**
   * Seconds an active job may go without a heartbeat before it counts as abandoned (its worker died) and is
   * retried, within its attempt cap. A running handler's heartbeat keeps it alive however long it works.
   */
  expireSeconds: number;
};

export type TJobsConfig = {
  queues: Record<TJobQueueName, TJobQueueConfig>;
  /** Upper bound of the delay before a retry (exponential back-off with jitter below it). */
  maxBackoffSeconds: number;
  /** Finished jobs are archived after this many hours (failed ones after a week at least) and deleted two days later. */
  retentionHours: number;
  /** On stop, how long running handlers may finish before the worker gives up waiting. */
  shutdownTimeoutMs: number;
  /** When the maintenance job runs (cron, UTC): expired files, old jobs. */
  maintenanceCron: string;
  /** How often pg-boss's supervisor gives up abandoned jobs (seconds). */
  superviseIntervalSeconds: number;
  /** Rows per chunk job of a bulk list. */
  chunkSize: number;
};

export type TConfig = {
  port: number;
  host: string;
  databaseUrl: string | undefined;
  dataDir: string;
  pgliteDir: string;
  appSecret: string;
  /** PUBLIC_URL without its trailing slash; unset: links follow each request's address (platform/http/public-url.ts). */
  configuredPublicUrl: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  minAppVersion: string;
  appUpdateCode: z.infer<typeof ZAppUpdateCode>;
  redisUrl: string | undefined;
  passwordMaxAgeDays: number;
  dnsServers: string[];
  verifierHeloName: string;
  verifierMailFrom: string;
  /** SMTP port the verifier dials (25; the demo mail world may use a high port). */
  verifierSmtpPort: number;
  /** Optional engine overrides (the demo mail world sets short ones). */
  verifierConnectTimeoutMs?: number;
  verifierReplyTimeoutMs?: number;
  verifierGreylistScheduleMs?: number[];
  demoMailWorld: boolean;
  /** With the demo mail world: how long greylist.test greylists a new (client, sender, recipient) triplet. */
  demoGreylistDelayMs: number;
  storageDir: string;
  rateLimit: { authMax: number; publicMax: number; webhookMax: number; windowMs: number };
  jobPollIntervalMs: number;
  /** The job system (pg-boss): one queue per kind, each with its own concurrency and expiry. */
  jobs: TJobsConfig;
  logLevel: z.infer<typeof ZEnv>['LOG_LEVEL'];
  /** NODE_ENV=production: an unconfigured OAuth provider is refused with a message, never replaced by a local fake. */
  production: boolean;
  /** The quick start's demo (NODE_ENV not production): the demo data is seeded on an empty database and the screens say "Demo". */
  demo: boolean;
  /** Behind a reverse proxy: the client address from X-Forwarded-For (rate limits), links from X-Forwarded-Host/-Proto. */
  trustProxy: boolean;
  webDistDir: string;
  /**
   * Outbound HTTP to user-given destinations (webhooks, integration APIs, OpenID Connect providers) may reach
   * private, loopback and link-local addresses (ALLOW_PRIVATE_DESTINATIONS, alias ALLOW_PRIVATE_WEBHOOKS).
   */
  allowPrivateDestinations: boolean;
  /** DNS servers resolving outbound destinations (OUTBOUND_DNS_SERVERS); empty: the system resolver. */
  outboundDnsServers: string[];
  /**
   * Tests only, never read from the environment: replace the outbound guard's resolver, its own-address list or its
   * address judgement (see TOutboundPolicy in platform/outbound-http/guard.ts).
   */
  outboundTestHooks?: {
    lookup?: (hostname: string) => Promise<{ address: string; family: number }[]>;
    ownAddresses?: () => string[];
    isRefused?: (address: string) => boolean;
  };
  /** Base URLs of integration platforms by key (INTEGRATION_BASE_URLS); a platform absent here uses its real API. */
  integrationBaseUrls: Record<string, string>;
  /** OAuth clients of integration platforms; a platform without one connects through a local fake (test mode). */
  integrationOAuth: {
    mailchimp: { clientId?: string; clientSecret?: string; baseUrl: string };
    zoho: { clientId?: string; clientSecret?: string; accountsUrl?: string };
  };
  /** Sign in with Google / Microsoft (issuer URLs configurable; local providers in tests and demos). */
  sso: { google: TOidcProviderConfig | null; microsoft: TOidcProviderConfig | null };
  extension: { latestVersion: string; minVersion: string };
  g2ReviewUrl: string;
  /**
   * Stripe: without a secret key the server runs a local fake Stripe on 127.0.0.1 (test mode). `apiBase` points
   * the official SDK elsewhere (a fake in tests); its test checkout pages are served there too.
   */
  stripe: { secretKey?: string; webhookSecret?: string; apiBase?: string };
  /** PayPal REST (client credentials); without them a local fake PayPal on 127.0.0.1 (test mode). */
  paypal: { clientId?: string; clientSecret?: string; apiBase?: string; webhookId?: string };
  /**
   * A provider without keys is served by its local fake (test mode). True for the quick start on a loopback HOST;
   * with NODE_ENV=production or a HOST reachable beyond loopback it takes PAYMENTS_TEST_MODE=true, and without it
   * payments answer 503 "Payments are not configured".
   */
  paymentsTestMode: boolean;
  /**
   * Never read from the environment: the local fakes that stand in for unconfigured providers in test mode, wired by
   * the composition root (runtime.ts `withTestDoubles`) outside production or with PAYMENTS_TEST_MODE. Absent: none.
   */
  testDoubles?: TTestDoubles;
  /** When the low-credit alert check runs (cron, UTC). */
  lowCreditCheckCron: string;
  /** METRICS_TOKEN: the bearer token Prometheus sends to GET /metrics; undefined → /metrics answers 404. */
  metricsToken: string | undefined;
  /** AUDIT_RETENTION_DAYS (365): how long the audit log keeps an entry. */
  auditRetentionDays: number;
  /** BOUNCE_GUARANTEE_DAYS (30): a valid verdict that hard-bounced within this many days gets its credit back; 0 turns the guarantee off. */
  bounceGuaranteeDays: number;
};

/** Whether a listen address is reachable from this machine only (`localhost`, 127.0.0.0/8, ::1). */
export function isLoopbackHost(host: string): boolean {
  const h = host.trim().toLowerCase().replace(/^\[(.*)\]$/, '$1');
  return h === 'localhost' || h === '::1' || /^(::ffff:)?127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

function resolvePath(p: string): string {
  return isAbsolute(p) ? p : resolve(REPO_ROOT, p);
}

/** The shortest APP_SECRET a production start (NODE_ENV=production) accepts. */
export const MIN_PRODUCTION_SECRET_LENGTH = 32;

/** Reads the secret kept in DATA_DIR, generating it on first use. */
function readOrCreateSecret(dataDir: string): string {
  const file = join(dataDir, 'app-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString('hex');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

/** `mailchimp=http://127.0.0.1:4000/3.0,kit=…` → { mailchimp: 'http://127.0.0.1:4000/3.0', kit: … }. */
function parseBaseUrls(value: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of (value ?? '').split(',')) {
    const at = pair.indexOf('=');
    if (at > 0) out[pair.slice(0, at).trim()] = pair.slice(at + 1).trim();
  }
  return out;
}

/** The host name of a URL, or `fallback` when there is none. */
function hostOfUrl(url: string | undefined, fallback: string): string {
  if (!URL.canParse(url ?? '')) return fallback;
  return new URL(url as string).hostname.replace(/^\[|\]$/g, '') || fallback;
}

/** Parses the environment once. `overrides` lets tests and `main.ts` flags replace values. */
export function loadConfig(env: Record<string, string | undefined> = process.env, overrides: Partial<TConfig> = {}): TConfig {
  const parsed = ZEnv.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const dataDir = overrides.dataDir ?? resolvePath(e.DATA_DIR);
  const port = overrides.port ?? e.PORT;
  const production = e.NODE_ENV === 'production';
  const host = e.HOST ?? (production ? '0.0.0.0' : 'localhost');
  const appSecret = e.APP_SECRET ?? overrides.appSecret ?? readOrCreateSecret(dataDir);
  // A production start refuses a short secret from the environment or DATA_DIR (it signs links, keys the kept secrets
  // and opens the ops endpoints); the quick start's generated one is 64 characters, tests pass theirs as overrides.
  const secretFromOverrides = e.APP_SECRET === undefined && overrides.appSecret !== undefined;
  if (production && !secretFromOverrides && appSecret.length < MIN_PRODUCTION_SECRET_LENGTH) {
    throw new Error(
      `Invalid configuration:\nAPP_SECRET: with NODE_ENV=production it must be at least ${MIN_PRODUCTION_SECRET_LENGTH} characters long (it has ${appSecret.length}). ` +
        'Generate one with `openssl rand -hex 32` and set the same value in every process.',
    );
  }
  const config: TConfig = {
    port,
    host,
    databaseUrl: e.DATABASE_URL,
    dataDir,
    pgliteDir: join(dataDir, 'pglite'),
    appSecret,
    configuredPublicUrl: e.PUBLIC_URL?.replace(/\/+$/, ''),
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    minAppVersion: e.MIN_APP_VERSION,
    appUpdateCode: e.APP_UPDATE_CODE,
    redisUrl: e.REDIS_URL,
    passwordMaxAgeDays: e.PASSWORD_MAX_AGE_DAYS,
    dnsServers: e.DNS_SERVERS ? e.DNS_SERVERS.split(',').map((s) => s.trim()).filter(Boolean) : [],
    verifierHeloName: e.VERIFIER_HELO_NAME ?? hostOfUrl(e.PUBLIC_URL, 'verilead.localhost'),
    verifierMailFrom: e.VERIFIER_MAIL_FROM ?? `verify@${e.VERIFIER_HELO_NAME ?? hostOfUrl(e.PUBLIC_URL, 'verilead.localhost')}`,
    verifierSmtpPort: e.VERIFIER_SMTP_PORT,
    verifierConnectTimeoutMs: e.VERIFIER_CONNECT_TIMEOUT_MS,
    verifierReplyTimeoutMs: e.VERIFIER_REPLY_TIMEOUT_MS,
    verifierGreylistScheduleMs: e.VERIFIER_GREYLIST_SCHEDULE_MS?.split(',').map(Number),
    demoMailWorld: e.DEMO_MAIL_WORLD,
    demoGreylistDelayMs: e.DEMO_GREYLIST_DELAY_MS,
    storageDir: e.STORAGE_DIR ? resolvePath(e.STORAGE_DIR) : join(dataDir, 'storage'),
    rateLimit: { authMax: e.RATE_LIMIT_AUTH_MAX, publicMax: e.RATE_LIMIT_PUBLIC_MAX, webhookMax: e.RATE_LIMIT_WEBHOOK_MAX, windowMs: e.RATE_LIMIT_WINDOW_MS },
    jobPollIntervalMs: e.JOB_POLL_INTERVAL_MS,
    jobs: {
      queues: {
        mail: { concurrency: e.JOB_CONCURRENCY_MAIL ?? e.JOB_CONCURRENCY, expireSeconds: e.JOB_EXPIRE_SECONDS ?? 120 },
        webhooks: { concurrency: e.JOB_CONCURRENCY_WEBHOOKS ?? Math.max(4, e.JOB_CONCURRENCY), expireSeconds: e.JOB_EXPIRE_SECONDS ?? 120 },
        exports: { concurrency: e.JOB_CONCURRENCY_EXPORTS ?? e.JOB_CONCURRENCY, expireSeconds: e.JOB_EXPIRE_SECONDS ?? 300 },
        analysis: { concurrency: e.JOB_CONCURRENCY_ANALYSIS ?? e.JOB_CONCURRENCY, expireSeconds: e.JOB_EXPIRE_SECONDS ?? 300 },
        verification: { concurrency: e.JOB_CONCURRENCY_VERIFICATION ?? e.JOB_CONCURRENCY, expireSeconds: e.JOB_EXPIRE_SECONDS ?? 300 },
        finder: { concurrency: e.JOB_CONCURRENCY_FINDER ?? e.JOB_CONCURRENCY, expireSeconds: e.JOB_EXPIRE_SECONDS ?? 300 },
        maintenance: { concurrency: e.JOB_CONCURRENCY_MAINTENANCE ?? 2, expireSeconds: e.JOB_EXPIRE_SECONDS ?? 600 },
        integrations: { concurrency: e.JOB_CONCURRENCY_INTEGRATIONS ?? e.JOB_CONCURRENCY, expireSeconds: e.JOB_EXPIRE_SECONDS ?? 300 },
      },
      maxBackoffSeconds: e.JOB_MAX_BACKOFF_SECONDS,
      retentionHours: e.JOB_RETENTION_HOURS,
      shutdownTimeoutMs: e.JOB_SHUTDOWN_TIMEOUT_MS,
      maintenanceCron: e.JOB_MAINTENANCE_CRON,
      superviseIntervalSeconds: e.JOB_SUPERVISE_INTERVAL_SECONDS,
      chunkSize: e.BULK_CHUNK_SIZE,
    },
    logLevel: e.LOG_LEVEL,
    production,
    demo: !production,
    trustProxy: e.TRUST_PROXY,
    webDistDir: e.WEB_DIST_DIR ? resolvePath(e.WEB_DIST_DIR) : join(REPO_ROOT, 'apps', 'web', 'dist'),
    allowPrivateDestinations: e.ALLOW_PRIVATE_DESTINATIONS ?? e.ALLOW_PRIVATE_WEBHOOKS ?? false,
    outboundDnsServers: e.OUTBOUND_DNS_SERVERS ? e.OUTBOUND_DNS_SERVERS.split(',').map((s) => s.trim()).filter(Boolean) : [],
    integrationBaseUrls: parseBaseUrls(e.INTEGRATION_BASE_URLS),
    integrationOAuth: {
      mailchimp: { clientId: e.MAILCHIMP_CLIENT_ID, clientSecret: e.MAILCHIMP_CLIENT_SECRET, baseUrl: e.MAILCHIMP_OAUTH_URL.replace(/\/+$/, '') },
      zoho: { clientId: e.ZOHO_CLIENT_ID, clientSecret: e.ZOHO_CLIENT_SECRET, accountsUrl: e.ZOHO_ACCOUNTS_URL?.replace(/\/+$/, '') },
    },
    sso: {
      google: e.GOOGLE_CLIENT_ID && e.GOOGLE_CLIENT_SECRET ? { issuer: e.GOOGLE_OIDC_ISSUER, clientId: e.GOOGLE_CLIENT_ID, clientSecret: e.GOOGLE_CLIENT_SECRET } : null,
      microsoft:
        e.MICROSOFT_CLIENT_ID && e.MICROSOFT_CLIENT_SECRET
          ? { issuer: e.MICROSOFT_OIDC_ISSUER, clientId: e.MICROSOFT_CLIENT_ID, clientSecret: e.MICROSOFT_CLIENT_SECRET }
          : null,
    },
    extension: { latestVersion: e.EXTENSION_LATEST_VERSION, minVersion: e.EXTENSION_MIN_VERSION },
    g2ReviewUrl: e.G2_REVIEW_URL,
    stripe: { secretKey: e.STRIPE_SECRET_KEY, webhookSecret: e.STRIPE_WEBHOOK_SECRET, apiBase: e.STRIPE_API_BASE },
    paypal: { clientId: e.PAYPAL_CLIENT_ID, clientSecret: e.PAYPAL_CLIENT_SECRET, apiBase: e.PAYPAL_API_BASE, webhookId: e.PAYPAL_WEBHOOK_ID },
    paymentsTestMode: e.PAYMENTS_TEST_MODE ?? (!production && isLoopbackHost(host)),
    lowCreditCheckCron: e.LOW_CREDIT_CHECK_CRON,
    metricsToken: e.METRICS_TOKEN,
    auditRetentionDays: e.AUDIT_RETENTION_DAYS,
    bounceGuaranteeDays: e.BOUNCE_GUARANTEE_DAYS,
  };
  return { ...config, ...overrides };
}
