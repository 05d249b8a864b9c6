import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { loadConfig } from '../config';
import { sql } from 'drizzle-orm';
import { MIGRATIONS_DIR, openPglite, openPostgres, selectRows, type TDatabase, type TDb } from '../platform/db/database';

export type TTestDb = TDatabase & { name: string; dispose(): Promise<void> };

/** Hash of the migration set: the PGlite template is rebuilt whenever a migration changes. */
function hashMigrations(): string {
  const h = createHash('sha256');
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else h.update(entry.name).update(readFileSync(full));
    }
  };
  walk(MIGRATIONS_DIR);
  return h.digest('hex').slice(0, 16);
}

/**
 * A migrated in-memory PGlite. Creating a PGlite database (initdb in WASM) costs seconds, so the first
 * test file keeps a migrated data directory in the temp folder and later files start from that copy.
 */
async function openMigratedPglite(): Promise<TDatabase> {
  const template = join(tmpdir(), `verilead-pglite-template-${hashMigrations()}.tar`);
  if (existsSync(template)) {
    try {
      const database = await openPglite(undefined, { loadDataDir: new Blob([readFileSync(template)]) });
      await database.migrate();
      return database;
    } catch {
      /* a damaged template: build a fresh database below */
    }
  }
  const database = await openPglite();
  await database.migrate();
  if (database.dumpDataDir) {
    const dump = Buffer.from(await (await database.dumpDataDir()).arrayBuffer());
    const partial = `${template}.${process.pid}.${randomBytes(4).toString('hex')}`;
    writeFileSync(partial, dump);
    renameSync(partial, template);
  }
  return database;
}

/** Serialises building the PostgreSQL template across the test processes of every run on this server. */
const TEMPLATE_LOCK = 724302;

/**
 * The migrated template database on the server `admin` is connected to, named by the migration set's hash: built by
 * the first test file that needs it (under an advisory lock, so concurrent files wait rather than build twice) and
 * kept for later runs. It is built under a temporary name and renamed when complete, so a copy never starts from a
 * half-migrated template; nothing stays connected to it, which `create database … template` requires.
 */
async function postgresTemplate(admin: pg.Client, databaseUrl: string): Promise<string> {
  const name = `vl_template_${hashMigrations()}`;
  await admin.query('select pg_advisory_lock($1)', [TEMPLATE_LOCK]);
  try {
    const found = await admin.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount) return name;
    const building = `${name}_building`;
    await admin.query(`drop database if exists ${building} with (force)`);
    await admin.query(`create database ${building}`);
    const url = new URL(databaseUrl);
    url.pathname = `/${building}`;
    const database = openPostgres(url.toString(), 2);
    try {
      await database.migrate();
    } finally {
      await database.close();
    }
    await admin.query(`alter database ${building} rename to ${name}`);
    await admin.query(`comment on database ${name} is '${Date.now()}'`);
    await dropStaleTemplates(admin, name);
    return name;
  } finally {
    await admin.query('select pg_advisory_unlock($1)', [TEMPLATE_LOCK]);
  }
}

/** A template is kept this long after it was built; a run on an older migration set builds its own again. */
const TEMPLATE_KEEP_MS = 24 * 60 * 60 * 1000;

/**
 * Drops the templates of other migration sets built more than a day ago (each migration change builds a new one,
 * and they would pile up on the server). Runs under the template lock, so no file is copying one at that moment;
 * a template without a build time (older code) counts as stale.
 */
async function dropStaleTemplates(admin: pg.Client, current: string): Promise<void> {
  const { rows } = await admin.query<{ datname: string; built: string | null }>(
    `select datname, shobj_description(oid, 'pg_database') as built from pg_database
      where datname like 'vl\\_template\\_%' and datname <> $1 and datname not like '%\\_building'`,
    [current],
  );
  for (const { datname, built } of rows) {
    const age = Date.now() - Number(built ?? 0);
    if (!/^vl_template_[0-9a-f]{16}$/.test(datname) || !(age > TEMPLATE_KEEP_MS)) continue;
    await admin.query(`drop database if exists ${datname} with (force)`).catch(() => undefined);
  }
}

/**
 * A fresh, migrated database for one test file: in-memory PGlite, or — when DATABASE_URL is set — a new
 * `vl_test_<random>` database on that server, copied from the migrated template (a file copy instead of running
 * every migration again) and dropped by `dispose()`. `migrate()` still runs on the copy: a no-op when the template
 * is current, and the catch-up when pg-boss's own schema moved on since the template was built.
 */
export async function createTestDb(): Promise<TTestDb> {
  const { databaseUrl } = loadConfig(process.env, { appSecret: 'test-secret' });
  if (!databaseUrl) {
    const database = await openMigratedPglite();
    return { ...database, name: 'pglite-memory', dispose: () => database.close() };
  }
  const name = `vl_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  try {
    const template = await postgresTemplate(admin, databaseUrl);
    await admin.query(`create database ${name} template ${template}`);
  } finally {
    await admin.end();
  }
  const url = new URL(databaseUrl);
  url.pathname = `/${name}`;
  const database = openPostgres(url.toString(), 20);
  await database.migrate();
  return {
    ...database,
    name,
    dispose: async () => {
      await database.close();
      const c = new pg.Client({ connectionString: databaseUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

/**
 * Resolves once a session of this PostgreSQL database waits for a lock (pg_stat_activity: an event the database
 * reports), e.g. a statement under test queued behind a row another transaction holds; rejects after `timeoutMs`.
 */
export async function waitForLockWaiter(db: TDb, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const rows = await selectRows<{ n: number }>(db, sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`);
    if ((rows[0]?.n ?? 0) > 0) return;
    if (Date.now() > until) throw new Error(`no statement waited for a lock within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
