import { createTestDoubles } from '@verilead/test-doubles/stand-ins';
import type { TConfig } from './config';
import type { TDatabase } from './platform/db/database';
import { createAuditRetentionTask } from './features/audit';
import type { TJobDefinition, TJobQueue, TQueueLogger } from './platform/jobs/jobs';
import { createMaintenanceJob, MAINTENANCE_JOB } from './platform/jobs/maintenance';
import { createJobQueue } from './platform/jobs/pg-boss-queue';
import { createMailer, createMailTransport, createSendEmailJob, type TMailLogger } from './platform/mailer/mailer';
import type { TDeps } from './platform/deps';
import { getStorage } from './platform/storage/storage';
import { createEmailVerifierJobs } from './features/email-verifier';
import { createEmailFinderJobs, finderExportSource } from './features/email-finder';
import { createDownloadJobs, createDownloadMaintenance } from './features/downloads';
import { createRetentionMaintenance, organisationExportSource } from './features/privacy';
import { createWebhookJobs, ensureWebhookDispatcher } from './features/webhooks';
import { createIntegrationJobs } from './features/integrations';
import { createProspectJobs, prospectExportSource } from './features/prospects';
import { createBillingJobs, LOW_CREDIT_CHECK_JOB, createSubscriptionRenewalTask, getStripeGateway } from './features/billing';

/**
 * The configuration with the local fakes wired (`config.testDoubles`, from @verilead/test-doubles) where test mode may
 * stand one in for an unconfigured provider: outside production, or with PAYMENTS_TEST_MODE=true. A production start
 * gets none, so it never starts one (an unconfigured provider is refused) and never loads their modules. The fakes
 * start on first use only (`npm start`'s demo: the first payment or platform connection), as each feature asks.
 * `npm start` (main.ts) and the tests' app (test/test-app.ts) both build their configuration through this.
 */
export function withTestDoubles(config: TConfig): TConfig {
  if (config.testDoubles || (config.production && !config.paymentsTestMode)) return config;
  return { ...config, testDoubles: createTestDoubles() };
}

/**
 * The composition root: the job queue with every job kind, and the mailer, around an open database. Tests,
 * `--role worker` and `--role all` all get this same set; `queue.start()` also schedules maintenance and makes
 * sure the webhook dispatcher runs. `extraJobs` replaces a declared kind of the same name (tests tune one).
 */
export function createRuntime(opts: {
  config: TConfig;
  database: TDatabase;
  logger?: TQueueLogger & TMailLogger;
  extraJobs?: TJobDefinition[];
  /** The clock of time-based housekeeping (data retention); tests move it. */
  clock?: () => Date;
}): TDeps & { closeMail(): void } {
  const { config, database } = opts;
  const transport = createMailTransport({ database, smtpUrl: config.smtpUrl, from: config.mailFrom, logger: opts.logger });
  const storage = getStorage(config);
  const getQueue = (): TJobQueue => queue;
  const declared: TJobDefinition[] = [
    createSendEmailJob(transport),
    ...createEmailVerifierJobs({ database, config, getQueue }),
    ...createEmailFinderJobs({ database, config, getQueue }),
    // The files other features prepare through the export job: downloads reads them without importing those features.
    ...createDownloadJobs({
      database,
      config,
      sources: { prospects: prospectExportSource, finder_result: finderExportSource, finder_history: finderExportSource, organisation_data: organisationExportSource },
    }),
    ...createWebhookJobs({ database, config, getQueue }),
    ...createIntegrationJobs({ database, config, getQueue }),
    ...createProspectJobs({ database, config, getQueue }),
    ...createBillingJobs({ database, config, getQueue }),
    createMaintenanceJob({
      getQueue,
      tasks: [
        createDownloadMaintenance({ database, storage }),
        createRetentionMaintenance({ database, storage, clock: opts.clock }),
        createSubscriptionRenewalTask({ database, config, gateway: getStripeGateway(config) }),
        createAuditRetentionTask({ database, retentionDays: config.auditRetentionDays }),
      ],
    }),
  ];
  const byName = new Map(declared.map((d) => [d.name, d]));
  for (const d of opts.extraJobs ?? []) byName.set(d.name, d);
  const queue: TJobQueue = createJobQueue({
    database,
    definitions: [...byName.values()],
    jobs: config.jobs,
    pollIntervalMs: config.jobPollIntervalMs,
    logger: opts.logger,
    onStart: [(q) => q.schedule(MAINTENANCE_JOB, config.jobs.maintenanceCron), (q) => ensureWebhookDispatcher(q), (q) => q.schedule(LOW_CREDIT_CHECK_JOB, config.lowCreditCheckCron)],
  });
  return { config, database, queue, mailer: createMailer(queue), closeMail: () => transport.close() };
}
