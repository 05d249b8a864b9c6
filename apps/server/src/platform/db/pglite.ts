import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { SERVER_ROOT } from '../../config';
import { installJobSchema } from './job-schema';
import { createMutex, MIGRATIONS_DIR, type TDatabase, type TDb, type TSqlExecutor } from './handle';

/** The embedded database's shared buffers (PostgreSQL's default is 128MB); PGLITE_SHARED_BUFFERS overrides it. */
const PGLITE_SHARED_BUFFERS = /^\d+(kB|MB|GB)$/.test(process.env.PGLITE_SHARED_BUFFERS ?? '') ? process.env.PGLITE_SHARED_BUFFERS! : '32MB';

/**
 * Prepares a data directory in a child process (initdb when new; the shared-buffers setting), so the server never
 * carries initdb's memory peak. Skipped when the directory is ready.
 */
function preparePgliteDir(dir: string): void {
  const autoConf = join(dir, 'postgresql.auto.conf');
  const ready = existsSync(join(dir, 'PG_VERSION')) && existsSync(autoConf) && readFileSync(autoConf, 'utf8').includes(`shared_buffers = '${PGLITE_SHARED_BUFFERS}'`);
  if (ready) return;
  const script = join(SERVER_ROOT, 'src', 'platform', 'db', 'pglite-init.mjs');
  const run = spawnSync(process.execPath, [script, dir, PGLITE_SHARED_BUFFERS], { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`Could not create the embedded database in ${dir}: ${run.stderr || run.error?.message || run.status}`);
}

/** Embedded PGlite (`openPglite` in ./database loads this module): `dir` undefined → in memory, one session shared by everything. */
export async function openPgliteDatabase(dir?: string, opts: { loadDataDir?: Blob } = {}): Promise<TDatabase> {
  if (dir) {
    mkdirSync(dir, { recursive: true });
    preparePgliteDir(dir);
  }
  // pg_trgm: trigram indexes of the prospect directory (names, titles), as on PostgreSQL.
  const extensions = { pg_trgm };
  const client = dir ? await PGlite.create(dir, { extensions }) : await PGlite.create(opts.loadDataDir ? { loadDataDir: opts.loadDataDir, extensions } : { extensions });
  const db = drizzlePglite(client) as unknown as TDb;
  const runExclusive = createMutex();
  const jobSql: TSqlExecutor = {
    executeSql: (text, values) =>
      runExclusive(async () => {
        if (values && values.length > 0) return client.query(text, values);
        // pg-boss sends multi-statement scripts (BEGIN; …; COMMIT) without parameters.
        const results = await client.exec(text);
        return results[results.length - 1] ?? { rows: [] };
      }),
  };
  return {
    engine: 'pglite',
    db,
    transaction: (fn) => runExclusive(() => db.transaction((tx) => fn(tx as unknown as TDb))),
    jobSql,
    migrate: async () => {
      await migratePglite(drizzlePglite(client), { migrationsFolder: MIGRATIONS_DIR });
      await installJobSchema(jobSql);
    },
    listen: async (channel, onPayload) => {
      const stop = await client.listen(channel, onPayload);
      return async () => {
        if (!client.closed) await stop().catch(() => undefined);
      };
    },
    close: () => client.close(),
    dumpDataDir: () => client.dumpDataDir('none'),
  };
}

