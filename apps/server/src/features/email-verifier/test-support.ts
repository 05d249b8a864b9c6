import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { ZDownloadResponse } from '@verilead/contracts';
import { makeCorpus, startMailWorld, type TCorpusEntry, type TMailWorld, type TStartMailWorldOptions } from '@verilead/mailworld';
import type { TConfig } from '../../config';
import { createTestApp, type TTestApp } from '../../test/test-app';

/** A multipart/form-data body with a `file` part (fields first). */
export function buildMultipart(fileName: string, content: Buffer | string, fields: Record<string, string> = {}) {
  const boundary = `----vl${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  }
  parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: application/octet-stream\r\n\r\n`));
  parts.push(typeof content === 'string' ? Buffer.from(content) : content);
  parts.push(Buffer.from(`\r\n--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

export type TWorldApp = { t: TTestApp; world: TMailWorld; storageDir: string; close(): Promise<void> };

/** A test app whose verifier talks only to a local mail world (never real DNS), with files in a temp directory. */
export async function createWorldApp(
  corpus: TCorpusEntry[] = makeCorpus(120, 3),
  overrides: Partial<TConfig> = {},
  opts: Parameters<typeof createTestApp>[1] = {},
  worldOptions: Partial<TStartMailWorldOptions> = {},
): Promise<TWorldApp> {
  // the tarpit stays silent beyond 4 × the 1 s reply timeout, the most a busy machine stretches a wait (lag-aware timeouts)
  const world = await startMailWorld({ corpus, greylistDelayMs: 150, tarpitDelayMs: 5_000, ...worldOptions });
  const storageDir = await mkdtemp(join(tmpdir(), 'vl-ev-'));
  const t = await createTestApp({
    dnsServers: world.dnsServers,
    verifierSmtpPort: world.smtpPort,
    verifierConnectTimeoutMs: 1_000,
    verifierReplyTimeoutMs: 1_000,
    verifierGreylistScheduleMs: [300],
    storageDir,
    ...overrides,
  }, opts);
  return {
    t,
    world,
    storageDir,
    close: async () => {
      await t.close();
      await world.stop();
      await rm(storageDir, { recursive: true, force: true });
    },
  };
}

/** Requests an export of a list, runs the job and fetches the prepared file (each step must succeed). */
export async function fetchListExport(w: TWorldApp, token: string, listId: string, body: Record<string, unknown>) {
  const ex = await w.t.call({ method: 'POST', url: '/api/v1/email_verify/list/export', token, payload: { list_id: listId, ...body } });
  expect(ex.status, JSON.stringify(ex.body)).toBe(200);
  await w.t.deps.queue.runUntilIdle();
  const st = await w.t.call({ method: 'GET', url: `/api/v1/download/result/status?queue_id=${ex.body.data.queue_id}`, token });
  const d = ZDownloadResponse.parse(st.body).data;
  expect(d.state, d.error ?? '').toBe('success');
  const file = await w.t.app.inject({ method: 'GET', url: d.download_url! });
  expect(file.statusCode).toBe(200);
  return { d, file };
}

const SERVER_MAIN = join(import.meta.dirname, '../../main.ts');

/**
 * A `--role worker` OS process on the world app's PostgreSQL database, storage and mail world, as production runs
 * it (PostgreSQL only: PGlite is one process's database); `env` adds to or overrides the defaults (one job at a time
 * per queue is the caller's to set; a dead worker's job is given up after 3 s without a heartbeat). Resolves once its
 * queues run; the caller kills it.
 */
export async function startWorkerProcess(w: TWorldApp, dataDir: string, env: Record<string, string>): Promise<ChildProcess> {
  const url = new URL(process.env.DATABASE_URL!);
  url.pathname = `/${w.t.db.name}`;
  const child = spawn(process.execPath, ['--import', 'tsx', SERVER_MAIN, '--role', 'worker'], {
    env: {
      ...process.env,
      DATABASE_URL: url.toString(),
      REDIS_URL: '',
      APP_SECRET: 'test-secret',
      DATA_DIR: dataDir,
      STORAGE_DIR: w.storageDir,
      DNS_SERVERS: w.world.dnsServers.join(','),
      VERIFIER_SMTP_PORT: String(w.world.smtpPort),
      JOB_EXPIRE_SECONDS: '3',
      JOB_SUPERVISE_INTERVAL_SECONDS: '1',
      JOB_POLL_INTERVAL_MS: '100',
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('job worker started')) resolve();
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`worker exited (${code}) before starting:\n${output}`)));
  });
  return child;
}
