import type { TConfig } from './config';
import type { TDatabase } from './platform/db/database';
import { createJobQueue, type TJobDefinition, type TQueueLogger } from './platform/jobs/queue';
import { createMailer, createMailTransport, createSendEmailJob, type TMailLogger } from './platform/mailer/mailer';
import type { TDeps } from './platform/deps';
import { createEmailVerifierJobs } from './features/email-verifier/jobs';
import { createDownloadJobs } from './features/downloads/jobs';

/** Wires the queue (with every job definition) and the mailer around an open database. */
export function createRuntime(opts: {
  config: TConfig;
  database: TDatabase;
  logger?: TQueueLogger & TMailLogger;
  extraJobs?: TJobDefinition[];
}): TDeps & { closeMail(): void } {
  const transport = createMailTransport({ database: opts.database, smtpUrl: opts.config.smtpUrl, from: opts.config.mailFrom, logger: opts.logger });
  const queue = createJobQueue({
    database: opts.database,
    definitions: [
      createSendEmailJob(transport),
      ...createEmailVerifierJobs({ database: opts.database, config: opts.config, getQueue: () => queue }),
      ...createDownloadJobs({ database: opts.database, config: opts.config }),
      ...(opts.extraJobs ?? []),
    ],
    pollIntervalMs: opts.config.jobPollIntervalMs,
    concurrency: opts.config.jobConcurrency,
    logger: opts.logger,
  });
  return { config: opts.config, database: opts.database, queue, mailer: createMailer(queue), closeMail: () => transport.close() };
}
