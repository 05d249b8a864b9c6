// What every bench needs to run the real server as `npm start` runs it: a free loopback port, the server process
// (the esbuild bundle with its heap flags, see server-entry.ts) started and awaited, stopped again, its peak memory,
// and autocannon as a promise.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { serverEntry } from './server-entry';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const DEMO_OWNER = { email: 'owner@demo.verilead.test', password: 'Demo-Password-1' };

export function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

/**
 * Starts a server process on a free port (`--role=all` unless `args` names a role) and waits for "Verilead is
 * running". BENCH_NODE_ARGS (space-separated) adds Node flags after the server's own (so they win). `env` comes last, over the bench defaults (quiet logs, no web build, no login rate limit). Answers the
 * process and its origin (`http://127.0.0.1:port`).
 */
export async function startServer(
  env: Record<string, string>,
  opts: { args?: string[]; nodeArgs?: string[]; startTimeoutMs?: number } = {},
): Promise<{ child: ChildProcess; origin: string; port: number }> {
  const port = await findFreePort();
  const args = opts.args ?? [];
  const role = args.some((a) => a.startsWith('--role')) ? [] : ['--role=all'];
  const entry = await serverEntry(); // the server's Node flags, then the bundle
  const extra = process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  const child = spawn(process.execPath, [...(opts.nodeArgs ?? []), ...entry.slice(0, -1), ...extra, ...entry.slice(-1), ...role, ...args], {
    cwd: ROOT,
    // PUBLIC_URL set, as a deployment sets it (without it each request runs in a scope that knows its address).
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: `http://127.0.0.1:${port}`, LOG_LEVEL: 'warn', RATE_LIMIT_AUTH_MAX: '100000000', WEB_DIST_DIR: '/nonexistent', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), opts.startTimeoutMs ?? 180_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Verilead is running')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code}):\n${output}`));
    });
  });
  child.removeAllListeners('exit');
  return { child, origin: `http://127.0.0.1:${port}`, port };
}

/** SIGTERM, then SIGKILL if the process has not exited after `killAfterMs`. */
export async function stopServer(child: ChildProcess, killAfterMs = 15_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), killAfterMs).unref();
  });
}

/** Peak RSS (VmHWM) of a process, in MiB (Linux). */
export function readPeakRssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const m = /VmHWM:\s+(\d+) kB/.exec(status);
  return m ? Math.round(Number(m[1]) / 1024) : NaN;
}

export function runCannon(opts: autocannon.Options): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => autocannon(opts, (err, result) => (err ? reject(err) : resolve(result))));
}
