import { createTestDoubles } from '@verilead/test-doubles/stand-ins';
import type { TConfig } from './config';
import type { TDatabase } from './platform/db/database';
import { createAuditRetentionTask } from './features/audit';
import { createOperatorLogRetentionTask } from './features/ops-console';
import { createSignInFailuresRetentionTask } from './platform/auth/sign-in-limit';
import type { TJobDefinition, TJobQueue, TQueueLogger } from './platform/jobs/jobs';
import { createMaintenanceJob, MAINTENANCE_JOB } from './platform/jobs/maintenance';
import { createJobQueue } from './platform/jobs/pg-boss-queue';
import { createMailer, createMailTransport, createSendEmailJob, type TMailLogger } from './platform/mailer/mailer';
import type { TDeps } from './platform/deps';
import { createStorage } from './platform/storage/storage';
import { createVerifier } from './platform/verifier/verifier';
import { createLateQueue } from './platform/jobs/late-queue';
import { createStandIns } from './platform/test-doubles';
import { createEmailVerifierJobs, createReverifyMaintenance } from './features/email-verifier';
import { createEmailFinderJobs, finderExportSource } from './features/email-finder';
import { createDownloadJobs, createDownloadMaintenance } from './features/downloads';
import { createRetentionMaintenance, organisationExportSource } from './features/privacy';
import { createWebhookJobs, ensureWebhookDispatcher } from './features/webhooks';
import { createIntegrationJobs, createNewContactsPollTask, createRunWriteBackHook } from './features/integrations';
import { createProspectJobs, prospectExportSource } from './features/prospects';
import { createBillingJobs, LOW_CREDIT_CHECK_JOB, createSubscriptionRenewalTask, createPayments } from './features/billing';
import { createBounceJobs, createCreditBackSweep } from './features/bounces';

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
 * The composition root: every dependency of the product built once, in the one record (platform/deps.ts) that
 * routes, services and jobs take: storage, the verifier, the payment providers, the clock, the job queue with every
 * job kind, and the mailer, around an open database. Tests, `--role worker` and `--role all` all get this same set;
 * `queue.start()` also schedules maintenance and makes sure the webhook dispatcher runs. `extraJobs` builds kinds
 * that replace a declared kind of the same name (tests tune one), from the same record.
 */
export function createRuntime(opts: {
  config: TConfig;
  database: TDatabase;
  logger?: TQueueLogger & TMailLogger;
  extraJobs?: (deps: TDeps) => TJobDefinition[];
  /** The clock of time-based housekeeping (data retention); tests move it. */
  clock?: () => Date;
}): TDeps & { closeMail(): void } {
  const { config, database } = opts;
  const transport = createMailTransport({ database, smtpUrl: config.smtpUrl, from: config.mailFrom, logger: opts.logger });
  // The job kinds are built from the record and the queue from the job kinds: the record holds a forwarder, bound below.
  const late = createLateQueue();
  const deps: TDeps = {
    config,
    database,
    queue: late.queue,
    mailer: createMailer(late.queue),
    storage: createStorage(config),
    verifier: createVerifier(config),
    payments: createPayments(config),
    standIns: createStandIns(),
    clock: opts.clock ?? (() => new Date()),
  };
  const declared: TJobDefinition[] = [
    createSendEmailJob(transport),
    // A run of a list kept verified hands its changes to the integrations (a platform list's write-back).
    ...createEmailVerifierJobs(deps, { afterRun: createRunWriteBackHook(deps.queue) }),
    ...createEmailFinderJobs(deps),
    // The files other features prepare through the export job: downloads reads them without importing those features.
    ...createDownloadJobs({
      ...deps,
      sources: { prospects: prospectExportSource, finder_result: finderExportSource, finder_history: finderExportSource, organisation_data: organisationExportSource },
    }),
    ...createWebhookJobs(deps),
    ...createIntegrationJobs(deps),
    ...createProspectJobs(deps),
    ...createBillingJobs(deps),
    ...createBounceJobs(deps),
    createMaintenanceJob({
      queue: deps.queue,
      tasks: [
        createDownloadMaintenance(deps),
        createRetentionMaintenance(deps),
        createSubscriptionRenewalTask(deps),
        createAuditRetentionTask({ database, retentionDays: config.auditRetentionDays }),
        createOperatorLogRetentionTask({ database, retentionDays: config.auditRetentionDays }),
        createSignInFailuresRetentionTask({ database }),
        // Lists that stay verified: the due re-verification runs, and the polls of platform lists for new contacts.
        createReverifyMaintenance(deps),
        createNewContactsPollTask(deps),
        // The bounce guarantee's claims whose re-check was lost.
        createCreditBackSweep(deps),
      ],
    }),
  ];
  const byName = new Map(declared.map((d) => [d.name, d]));
  for (const d of opts.extraJobs?.(deps) ?? []) byName.set(d.name, d);
  const queue: TJobQueue = createJobQueue({
    database,
    definitions: [...byName.values()],
    jobs: config.jobs,
    pollIntervalMs: config.jobPollIntervalMs,
    logger: opts.logger,
    onStart: [(q) => q.schedule(MAINTENANCE_JOB, config.jobs.maintenanceCron), (q) => ensureWebhookDispatcher(q), (q) => q.schedule(LOW_CREDIT_CHECK_JOB, config.lowCreditCheckCron)],
  });
  late.bind(queue);
  return { ...deps, closeMail: () => transport.close() };
}
