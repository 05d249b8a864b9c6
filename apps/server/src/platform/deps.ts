import type { TConfig } from '../config';
import type { TDatabase } from './db/database';
import type { TJobQueue } from './jobs/jobs';
import type { TMailer } from './mailer/mailer';

/** What services need: configuration, the database, the job queue and the mailer. */
export type TDeps = {
  config: TConfig;
  database: TDatabase;
  queue: TJobQueue;
  mailer: TMailer;
};
