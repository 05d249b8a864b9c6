import { parseArgs } from 'node:util';
import { loadConfig, type TConfig } from './config';
import { openDatabase, type TDatabase } from './platform/db/database';
import { clearAnnouncement, setAnnouncement } from './features/announcements';
import { runDirectoryCommand } from './features/prospects';
import { issueOnetoolToken } from './features/sso';
import { readFileSync } from 'node:fs';
import { applyPriceConfig, ZPriceConfig } from './features/billing';
import { createOwnerAccount, type TCreatedOwner } from './features/auth';
import { createOperatorLink, OPS_COMMAND_ACTOR, setOperatorStatus } from './features/ops-console';
import type { TOperator, TOperatorLink } from '@verilead/contracts';

const USAGE = `usage:
  npm run ops -- announce --message '<b>html</b>' [--dismissable]
  npm run ops -- announce --clear
  npm run ops -- import-directory --file <people-and-companies.csv|.ndjson>
  npm run ops -- seed-directory [--people 20000] [--companies 1500] [--seed 2026]
  npm run ops -- onetool-token --email user@company.com
  npm run ops -- create-owner --email owner@company.com --org 'Company' [--name 'Jane Doe']
  npm run ops -- create-operator --email operator@your-company.com [--name 'Jane Doe']
  npm run ops -- disable-operator operator@your-company.com   (signs them out everywhere, voids their links)
  npm run ops -- enable-operator operator@your-company.com
  npm run ops -- pricing --file prices.json   (stop the server first when it runs on the embedded database)`;

type TAnnounceInput = { message?: string; dismissable: boolean; clear: boolean };

/**
 * Runs an ops command through the running server's `/api/v1/ops/<path>` (PGlite allows one process at a time, and the
 * server's caches see the change), or, when no server listens, straight in the database, migrated first.
 */
async function throughServerOrDatabase<T>(config: TConfig, path: string, input: unknown, direct: (database: TDatabase) => Promise<T>): Promise<T> {
  try {
    const res = await fetch(`http://127.0.0.1:${config.port}/api/v1/ops/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-ops-secret': config.appSecret },
      body: JSON.stringify(input),
      signal: AbortSignal.timeout(5000),
    });
    const body = (await res.json()) as { data?: T; error?: { message: string } };
    if (!res.ok || !body.data) throw new Error(body.error?.message ?? `server answered ${res.status}`);
    return body.data;
  } catch (err) {
    if ((err as { cause?: { code?: string } }).cause?.code !== 'ECONNREFUSED') throw err;
  }
  const database = await openDatabase({ databaseUrl: config.databaseUrl, pgliteDir: config.pgliteDir });
  try {
    await database.migrate();
    return await direct(database);
  } finally {
    await database.close();
  }
}

/** A single-use one-tool login link for a user. */
async function printOnetoolLink(config: TConfig, email: string) {
  const { url } = await throughServerOrDatabase(config, 'onetool_token', { email }, (database) => issueOnetoolToken({ database, config }, email));
  console.log(`One-tool login link (single use, 15 minutes): ${url}`);
}

/**
 * A production installation's first owner (or another organisation's): the organisation and its owner, and a one-time
 * link that sets the password.
 */
async function printCreatedOwner(config: TConfig, input: { email: string; org: string; name?: string }) {
  const created: TCreatedOwner = await throughServerOrDatabase(config, 'create_owner', input, (database) => createOwnerAccount({ database, config }, input));
  console.log(`Created the organisation "${input.org}" with its owner ${created.email}.`);
  console.log(`Set the owner's password with this link (single use, expires ${created.expiresAt}):`);
  console.log(created.url);
}

/**
 * An operator of the operator console (/ops), or a new link for one who never set a password: prints the one-time
 * link that sets the password.
 */
async function printOperatorLink(config: TConfig, input: { email: string; name?: string }) {
  const link: TOperatorLink = await throughServerOrDatabase(config, 'create_operator', input, (database) =>
    createOperatorLink({ database, config }, { email: input.email.trim().toLowerCase(), ...(input.name ? { name: input.name } : {}), invitedBy: null }),
  );
  console.log(`Operator ${link.operator.email}: set the password with this link (single use, expires ${link.expires_at}):`);
  console.log(link.url);
}

/**
 * Disables (every session and pending link revoked, no sign-in) or enables an operator; the last enabled operator
 * cannot be disabled.
 */
async function changeOperatorStatus(config: TConfig, email: string, disabled: boolean) {
  const done: { operator: TOperator; message: string } = await throughServerOrDatabase(config, 'operator_status', { email, disabled }, (database) =>
    setOperatorStatus({ database }, OPS_COMMAND_ACTOR, { email }, disabled),
  );
  console.log(done.message);
}

/** Operator commands. */
async function main() {
  const { values, positionals } = parseArgs({
    options: {
      message: { type: 'string' },
      dismissable: { type: 'boolean', default: false },
      clear: { type: 'boolean', default: false },
      file: { type: 'string' },
      people: { type: 'string' },
      companies: { type: 'string' },
      seed: { type: 'string' },
      email: { type: 'string' },
      org: { type: 'string' },
      name: { type: 'string' },
    },
    allowPositionals: true,
  });
  const [command] = positionals;
  if (command === 'import-directory' || command === 'seed-directory') {
    process.exitCode = await runDirectoryCommand(loadConfig(), command, values, USAGE);
    return;
  }
  if (command === 'onetool-token' && values.email) return printOnetoolLink(loadConfig(), values.email);
  if (command === 'create-owner' && values.email && values.org) {
    return printCreatedOwner(loadConfig(), { email: values.email, org: values.org, ...(values.name ? { name: values.name } : {}) });
  }
  if (command === 'create-operator' && values.email) {
    return printOperatorLink(loadConfig(), { email: values.email, ...(values.name ? { name: values.name } : {}) });
  }
  if ((command === 'disable-operator' || command === 'enable-operator') && (positionals[1] ?? values.email)) {
    return changeOperatorStatus(loadConfig(), (positionals[1] ?? values.email)!.trim().toLowerCase(), command === 'disable-operator');
  }
  if (command === 'pricing' && values.file) {
    const input = ZPriceConfig.parse(JSON.parse(readFileSync(values.file, 'utf8')));
    const config = loadConfig();
    const database = await openDatabase({ databaseUrl: config.databaseUrl, pgliteDir: config.pgliteDir });
    try {
      await database.migrate();
      console.log(`Prices applied: ${JSON.stringify(await applyPriceConfig(database, input))}`);
    } finally {
      await database.close();
    }
    return;
  }
  if (command !== 'announce' || (!values.clear && !values.message)) {
    console.error(USAGE);
    process.exit(2);
  }
  const input: TAnnounceInput = { message: values.message, dismissable: values.dismissable ?? false, clear: values.clear ?? false };
  const config = loadConfig();
  const result: { timestamp: number } = await throughServerOrDatabase(config, 'announcement', input, (database) =>
    input.clear ? clearAnnouncement(database.db) : setAnnouncement(database.db, { message: input.message ?? '', dismissable: input.dismissable }),
  );
  console.log(input.clear ? 'Announcement cleared.' : `Announcement set (timestamp ${result.timestamp}).`);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
