import type { TConfig } from '../config';
import type { TDatabase } from './db/database';
import type { TJobQueue } from './jobs/jobs';
import type { TMailer } from './mailer/mailer';
import type { TPayments } from './payments';
import type { TFileStorage } from './storage/storage';
import type { TStandIns } from './test-doubles';
import type { TVerifier } from './verifier/verifier';

/**
 * The one dependency record: everything a service, a route or a job needs from outside its feature. The composition
 * root (runtime.ts) builds each of these once per process and hands this record over; nothing else builds them, and
 * no module keeps its own copy.
 */
export type TDeps = {
  config: TConfig;
  database: TDatabase;
  queue: TJobQueue;
  mailer: TMailer;
  /** Uploads and prepared result files (STORAGE_DIR, or DATA_DIR/storage). */
  storage: TFileStorage;
  /** The process's one verifier engine: instant checks, bulk jobs and finder searches share its limits and caches. */
  verifier: TVerifier;
  /** Stripe and PayPal, built on first use. */
  payments: TPayments;
  /** The test-mode stand-ins (local fake platforms) this process started, started on first use. */
  standIns: TStandIns;
  /** The time of time-based housekeeping (data retention); tests move it. */
  clock: () => Date;
};
