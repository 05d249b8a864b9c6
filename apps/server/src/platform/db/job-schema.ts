import PgBoss from 'pg-boss';
import { JOB_QUEUE_NAMES } from '../../config';
import type { TSqlExecutor } from './handle';

/** The job queue's tables are set up with the database (migrate), so they live here: pg-boss keeps its tables in this schema (created and upgraded by pg-boss itself). */
export const JOB_SCHEMA = 'pgboss';

/**
 * Installs or upgrades pg-boss's schema and creates one queue per kind of work (idempotent; safe when several
 * processes start at once: pg-boss takes an advisory lock and queue creation ignores existing queues).
 */
export async function installJobSchema(db: TSqlExecutor): Promise<void> {
  const boss = new PgBoss({ db, schema: JOB_SCHEMA, supervise: false, schedule: false, migrate: true });
  await boss.start();
  try {
    const existing = new Set((await boss.getQueues()).map((q) => q.name));
    for (const name of JOB_QUEUE_NAMES) if (!existing.has(name)) await boss.createQueue(name);
  } finally {
    await boss.stop({ graceful: false, close: false });
  }
}
