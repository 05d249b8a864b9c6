import { parseArgs } from 'node:util';
import { loadConfig, type TConfig } from './config';
import { openDatabase } from './platform/db/database';
import { clearAnnouncement, setAnnouncement } from './features/announcements';
import { runDirectoryCommand } from './features/prospects';
import { issueOnetoolToken } from './features/sso';
import { readFileSync } from 'node:fs';
import { applyPriceConfig, ZPriceConfig } from './features/billing';
import { createOwnerAccount, type TCreatedOwner } from './features/auth';

const USAGE = `usage:
  npm run ops -- announce --message '<b>html</b>' [--dismissable]
  npm run ops -- announce --clear
  npm run ops -- import-directory --file <people-and-companies.csv|.ndjson>
  npm run ops -- seed-directory [--people 20000] [--companies 1500] [--seed 2026]
  npm run ops -- onetool-token --email user@company.com
  npm run ops -- create-owner --email owner@company.com --org 'Company' [--name 'Jane Doe']
  npm run ops -- pricing --file prices.json   (stop the server first when it runs on the embedded database)`;

type TAnnounceInput = { message?: string; dismissable: boolean; clear: boolean };

/** Asks the running server (PGlite allows one process at a time); null when no server answers. */
async function announceThroughServer(config: TConfig, input: TAnnounceInput): Promise<{ timestamp: number } | null> {
  try {
    const res = await fetch(`http://127.0.0.1:${config.port}/api/v1/ops/announcement`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-ops-secret': config.appSecret },
      body: JSON.stringify(input),
      signal: AbortSignal.timeout(5000),
    });
    const body = (await res.json()) as { status: string; data?: { timestamp: number }; error?: { message: string } };
    if (!res.ok || !body.data) throw new Error(body.error?.message ?? `server answered ${res.status}`);
    return body.data;
  } catch (err) {
    const code = (err as { cause?: { code?: string } }).cause?.code;
    if (code === 'ECONNREFUSED') return null;
    throw err;
  }
}

/** A single-use one-tool login link for a user: through the running server, else straight in the database. */
async function printOnetoolLink(config: TConfig, email: string) {
  let url: string | null = null;
  try {
    const res = await fetch(`http://127.0.0.1:${config.port}/api/v1/ops/onetool_token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-ops-secret': config.appSecret },
      body: JSON.stringify({ email }),
      signal: AbortSignal.timeout(5000),
    });
    const body = (await res.json()) as { data?: { url: string }; error?: { message: string } };
    if (!body.data) throw new Error(body.error?.message ?? `server answered ${res.status}`);
    url = body.data.url;
  } catch (err) {
    if ((err as { cause?: { code?: string } }).cause?.code !== 'ECONNREFUSED') throw err;
  }
  if (!url) {
    const database = await openDatabase({ databaseUrl: config.databaseUrl, pgliteDir: config.pgliteDir });
    try {
      await database.migrate();
      url = (await issueOnetoolToken({ database, config }, email)).url;
    } finally {
      await database.close();
    }
  }
  console.log(`One-tool login link (single use, 15 minutes): ${url}`);
}

/**
 * A production installation's first owner (or another organisation's): the organisation and its owner, and a one-time
 * link that sets the password. Through the running server (PGlite allows one process), else straight in the database.
 */
async function printCreatedOwner(config: TConfig, input: { email: string; org: string; name?: string }) {
  let created: TCreatedOwner | null = null;
  try {
    const res = await fetch(`http://127.0.0.1:${config.port}/api/v1/ops/create_owner`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-ops-secret': config.appSecret },
      body: JSON.stringify(input),
      signal: AbortSignal.timeout(5000),
    });
    const body = (await res.json()) as { data?: TCreatedOwner; error?: { message: string } };
    if (!body.data) throw new Error(body.error?.message ?? `server answered ${res.status}`);
    created = body.data;
  } catch (err) {
    if ((err as { cause?: { code?: string } }).cause?.code !== 'ECONNREFUSED') throw err;
  }
  if (!created) {
    const database = await openDatabase({ databaseUrl: config.databaseUrl, pgliteDir: config.pgliteDir });
    try {
      await database.migrate();
      created = await createOwnerAccount({ database, config }, input);
    } finally {
      await database.close();
    }
  }
  console.log(`Created the organisation "${input.org}" with its owner ${created.email}.`);
  console.log(`Set the owner's password with this link (single use, expires ${created.expiresAt}):`);
  console.log(created.url);
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
  let result = await announceThroughServer(config, input);
  if (!result) {
    const database = await openDatabase({ databaseUrl: config.databaseUrl, pgliteDir: config.pgliteDir });
    try {
      await database.migrate();
      result = input.clear ? await clearAnnouncement(database.db) : await setAnnouncement(database.db, { message: input.message ?? '', dismissable: input.dismissable });
    } finally {
      await database.close();
    }
  }
  console.log(input.clear ? 'Announcement cleared.' : `Announcement set (timestamp ${result.timestamp}).`);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
