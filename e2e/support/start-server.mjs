#!/usr/bin/env node
// Starts a server of the browser suite: scripts/start.mjs with the same arguments. When e2e/run.mjs prepared a data
// directory (E2E_DATA_TEMPLATE: migrated and seeded once), an empty DATA_DIR is first filled with a copy of it, so the
// server skips the migrations and the demo seeding (about 18 s of each start on the 2-core machine). A server on
// PostgreSQL (DATABASE_URL), or one whose DATA_DIR holds data already (a restart), starts as it is.
import { cpSync, existsSync, readdirSync } from 'node:fs';

const template = process.env.E2E_DATA_TEMPLATE;
const dataDir = process.env.DATA_DIR;
const empty = (dir) => !existsSync(dir) || readdirSync(dir).length === 0;
if (template && dataDir && !process.env.DATABASE_URL && existsSync(template) && empty(dataDir)) cpSync(template, dataDir, { recursive: true });
await import('../../scripts/start.mjs');
