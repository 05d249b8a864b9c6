import { parseArgs } from 'node:util';
import pino from 'pino';
import { buildApp } from './app';
import { loadConfig } from './config';
import { openDatabase } from './platform/db/database';
import { startMailHostSync } from './platform/verifier/host-sync';
import { describeUnsharedHostBudgets } from './platform/verifier/verifier';
import { createRuntime, withTestDoubles } from './runtime';
import { describeInstallation, hasAnyUser, seedDemoIfEmpty } from './seed';
import { describeMissingPublicUrl } from './platform/http/public-url';
import { startDemoMailWorld } from './platform/verifier/demo-mail-world';
import { checkProbeIdentity } from '@verilead/verifier';
import { loadDemoDirectoryCorpus, seedDemoDirectoryIfEmpty } from './features/prospects';

/** How long a stop may take beyond the jobs' shutdown time before the process exits anyway. */
const STOP_GRACE_MS = 15_000;

type TRoleArg = 'api' | 'worker' | 'all';

/** Starts the API, the job worker, or both (default) on the configured database. */
async function main() {
  const { values } = parseArgs({
    options: {
      role: { type: 'string', default: 'all' },
      'demo-mail-world': { type: 'boolean', default: false },
      'demo-idp': { type: 'boolean', default: false },
      port: { type: 'string' },
    },
    allowPositionals: true,
    strict: false,
  });
  const role = String(values.role) as TRoleArg;
  if (!['api', 'worker', 'all'].includes(role)) throw new Error(`--role must be api, worker or all (got ${role})`);
  const base = loadConfig();
  const flagged = {
    ...base,
    ...(values['demo-mail-world'] ? { demoMailWorld: true } : {}),
    ...(typeof values.port === 'string' ? { port: Number(values.port) } : {}),
  };
  // --demo-mail-world: a local mail world (DNS + SMTP on loopback) and the verifier pointed at it.
  // Demo-only modules (faker's data, the identity providers) are loaded only when asked for: they cost the server memory.
  const demoWorld = flagged.demoMailWorld
    ? await startDemoMailWorld(await loadDemoDirectoryCorpus(), flagged.demoGreylistDelayMs)
    : null;
  const withWorld = demoWorld ? { ...flagged, ...demoWorld.configOverrides } : flagged;
  // --demo-idp: local OpenID Connect and SAML identity providers on 127.0.0.1 (PORT+30, PORT+31), from the test doubles.
  const demoIdp = values['demo-idp'] ? await (await import('@verilead/test-doubles/identity')).startDemoIdp(withWorld) : null;
  // Test mode's local fakes (Stripe, PayPal, the integration platforms), wired unless this is a production start.
  const config = withTestDoubles(demoIdp ? { ...withWorld, ...demoIdp.configOverrides } : withWorld);
  if (demoIdp) console.log(`Demo ${demoIdp.summary}`);
  const logger = pino({ level: config.logLevel });
  if (demoWorld) console.log(`Demo ${demoWorld.summary}`);
  // real receivers refuse a HELO name or sender that cannot resolve (the demo mail world on loopback does not care)
  else for (const warning of checkProbeIdentity({ heloName: config.verifierHeloName, mailFrom: config.verifierMailFrom })) logger.warn(warning);
  // several workers without Redis each keep their own per-mail-host budget and together overrun a host's limit
  const unsharedBudgets = describeUnsharedHostBudgets(role, config);
  if (unsharedBudgets) logger.warn(unsharedBudgets);
  // A connection PostgreSQL drops is reported and replaced; what ran on it fails and is retried (never a process exit).
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    pgliteDir: config.pgliteDir,
    onConnectionError: (err, connection) => logger.warn({ connection, err: err.message }, 'database connection lost'),
  });
  await database.migrate();
  logger.info({ engine: database.engine }, 'database migrated');
  // The quick start's demo only: a production start (NODE_ENV=production) seeds nothing, no organisation, no
  // credits, no made-up directory; its first owner signs up or is created by `npm run ops -- create-owner`.
  if (role !== 'worker' && config.demo) {
    await seedDemoIfEmpty(database);
    // The demo prospect directory (≈ 20,000 people), unless the directory holds data already (an operator's own).
    if (process.env.PROSPECT_DEMO_DIRECTORY !== 'false') await seedDemoDirectoryIfEmpty(database);
  }
  if (role !== 'worker') {
    for (const notice of describeInstallation(config, { hasUsers: await hasAnyUser(database) })) logger[notice.level](notice.message);
  }

  // Every job kind is declared in createRuntime: `worker` and `all` run the same set.
  const runtime = createRuntime({ config, database, logger });
  const closers: (() => Promise<void>)[] = [];
  // Every process reads the mail hosts an operator paused and publishes its view of them (the operator console).
  const hostSync = startMailHostSync({ database, verifier: runtime.verifier, role, onError: (err) => logger.warn({ err: err.message }, 'mail host sync failed') });
  closers.push(() => hostSync.stop());
  if (role === 'worker' || role === 'all') {
    await runtime.queue.start();
    // Bounded: running jobs get config.jobs.shutdownTimeoutMs, then are left to another worker.
    closers.push(() => runtime.queue.stop());
    logger.info('job worker started');
  }
  if (role === 'api' || role === 'all') {
    const app = await buildApp(runtime);
    await app.listen({ port: config.port, host: config.host });
    closers.unshift(() => app.close());
    const shown = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
    // The port bound (PORT=0 lets the system choose one).
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    console.log(`Verilead is running at http://${shown}:${port}  (API: http://${shown}:${port}/api/v1/openapi.json)${config.demo ? '  [demo]' : ''}`);
    const noPublicUrl = describeMissingPublicUrl(config);
    if (noPublicUrl) logger.warn(noPublicUrl);
  }

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    // The whole stop is bounded too: running jobs get their shutdown time, the rest (HTTP connections, the mail
    // world, the database) a little more; past that the process exits anyway, as a crash would (PostgreSQL and
    // PGlite recover from their write-ahead log, unfinished jobs are retried by another worker).
    setTimeout(() => {
      logger.error({ signal }, 'shutdown took too long: exiting');
      process.exit(1);
    }, config.jobs.shutdownTimeoutMs + STOP_GRACE_MS).unref();
    for (const close of closers) await close().catch(() => undefined);
    runtime.closeMail();
    await demoWorld?.stop().catch(() => undefined);
    await demoIdp?.stop().catch(() => undefined);
    await database.close().catch(() => undefined);
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
