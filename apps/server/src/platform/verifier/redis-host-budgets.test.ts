import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMailWorld, type TMailWorld } from '@verilead/mailworld';
import { isRedisUpForTests } from '../../test/reachable';
import { RedisHostBudgets } from './redis-host-budgets';

const redisUp = await isRedisUpForTests();
const REDIS_URL = 'redis://127.0.0.1:6379';
const WORKER = fileURLToPath(new URL('../../test/verifier-worker.ts', import.meta.url));
const WORKERS = 4;

type TVerdict = { email: string; status: string; reason: string };
type TWorkerRun = { verdicts: TVerdict[]; hosts: string[] };

/**
 * Starts one worker process (src/test/verifier-worker.ts): `ready` once it has started (its modules loaded, its engine
 * built), `go()` lets it verify, `done` gives its verdicts and the mail hosts it met ("ip:port").
 */
function startWorker(settings: { dnsServers: string[]; smtpPort: number; addresses: string[]; redisUrl?: string; namespace: string }) {
  const child = spawn(process.execPath, ['--import', 'tsx', WORKER, JSON.stringify(settings)], { stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  let markReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  child.stdout.on('data', (c: Buffer) => {
    out += c.toString();
    if (out.includes('{"ready":true}')) markReady();
  });
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  const done = (async (): Promise<TWorkerRun> => {
    const [code] = (await once(child, 'exit')) as [number | null];
    markReady();
    expect(code, err).toBe(0);
    const lines = out.split('\n').filter((line) => line.startsWith('{'));
    const verdicts = lines.filter((line) => line.startsWith('{"email"')).map((line) => JSON.parse(line) as TVerdict);
    const hosts = lines.filter((line) => line.startsWith('{"hosts"')).flatMap((line) => (JSON.parse(line) as { hosts: Array<{ host: string }> }).hosts.map((h) => h.host));
    return { verdicts, hosts };
  })();
  return { ready, go: () => child.stdin.end('go\n'), done };
}

/** The busy host's list for one worker: its real mailboxes and unknown ones (a strict directory: invalid). */
function busyList(worker: number): { addresses: string[]; expected: Map<string, string> } {
  const expected = new Map<string, string>();
  for (const local of ['bea', 'bea.busy', 'postmaster']) expected.set(`${local}@busy.test`, 'valid');
  for (let i = 0; i < 45; i++) expected.set(`nobody.${worker}.${i}@busy.test`, 'invalid');
  return { addresses: [...expected.keys()], expected };
}

/**
 * Four worker processes verifying lists at one host together (the realistic world's mx.busy.test answers 421 to a 4th
 * connection open at once from one address; all of them connect from 127.0.0.1). Each 421 it counts
 * (refusedTooMany) is a moment the four held a 4th connection there together.
 */
async function runFour(world: TMailWorld, shared: { namespace: string } | null): Promise<{ refused: number; peak: number; hosts: string[] }> {
  const before = world.hostStats('mx.busy.test');
  const lists = Array.from({ length: WORKERS }, (_, i) => busyList(i));
  const workers = lists.map(({ addresses }) =>
    startWorker({ dnsServers: world.dnsServers, smtpPort: world.smtpPort, addresses, namespace: shared?.namespace ?? 'none', ...(shared ? { redisUrl: REDIS_URL } : {}) }),
  );
  // The four start verifying together: on a loaded machine their starts (seconds of module loading each) once came far
  // enough apart that each verified alone (a peak of 1 connection; CI, beside the browser suite).
  await Promise.all(workers.map((w) => w.ready));
  for (const w of workers) w.go();
  const runs = await Promise.all(workers.map((w) => w.done));
  // every verdict right, in every process
  for (const [i, list] of lists.entries()) expect(new Map(runs[i]!.verdicts.map((v) => [v.email, v.status]))).toEqual(list.expected);
  const after = world.hostStats('mx.busy.test');
  return { refused: after.refusedTooMany - before.refusedTooMany, peak: after.peakConcurrentPerClient, hosts: [...new Set(runs.flatMap((r) => r.hosts))] };
}

describe.skipIf(!redisUp)('mail hosts shared by verifier processes through Redis', () => {
  let world: TMailWorld;
  const clients: Redis[] = [];
  beforeAll(async () => {
    world = await startMailWorld({ preset: 'realistic', greetingDelayMs: [150, 150], commandLatencyMs: [10, 10] });
  });
  afterAll(async () => {
    for (const client of clients) client.disconnect();
    await world?.stop();
  });

  it('4 worker processes never give a host that takes 3 connections a 4th together: at most one 421 teaches it, none once it is known', { timeout: 240_000 }, async () => {
    const namespace = `test-${randomUUID()}`;
    const first = await runFour(world, { namespace });
    // from a host never met: together the processes open one connection above what it has greeted at once (shared
    // slow start), one such probe at a time; so the only 4th connection ever tried is the one whose 421 teaches its limit
    expect(first.refused).toBeLessThanOrEqual(1);
    // never a 4th accepted connection at once; how many of the 3 the processes overlap on depends on their timing
    expect(first.peak).toBeLessThanOrEqual(3);
    expect(first.peak).toBeGreaterThanOrEqual(2);
    expect(first.hosts).toHaveLength(1);
    // the limit known to the store (learned above, or taught here when no probe came to a 4th): not one 421
    const client = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
    clients.push(client);
    const store = new RedisHostBudgets(client, namespace);
    store.learn(first.hosts[0]!, { ceiling: { value: 3, forMs: 600_000 } });
    await expect.poll(() => store.lessons(first.hosts[0]!)?.ceiling?.value).toBe(3);
    const second = await runFour(world, { namespace });
    expect(second.refused).toBe(0);
    expect(second.peak).toBeLessThanOrEqual(3);
    expect(second.peak).toBeGreaterThanOrEqual(2);
  });

  it('each process alone (no shared store): the four together give the host 4th connections', { timeout: 120_000 }, async () => {
    const alone = await runFour(world, null);
    expect(alone.refused).toBeGreaterThan(1);
  });

  it('a lease of a process that died lapses; Redis down: the process counts alone and verifies on', async () => {
    const client = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
    clients.push(client);
    const namespace = `test-${randomUUID()}`;
    const store = new RedisHostBudgets(client, namespace);
    const host = '127.0.0.9:25';
    const lease = await store.lease(host, 1_000);
    expect(lease).not.toBeNull();
    // the host has greeted none at once yet: one connection at a time (the slow start)
    expect(await store.lease(host, 100)).toBeNull();
    lease!.established();
    const second = await store.lease(host, 1_000);
    expect(second).not.toBeNull();
    // a 421 on the second: the first is the host's ceiling, known to every process at once
    expect(await second!.refused()).toBe(1);
    second!.release();
    await expect.poll(() => store.lessons(host)?.ceiling?.value).toBe(1);
    expect(await store.lease(host, 100)).toBeNull();
    lease!.release();
    // the ceiling of 1 holds: one lease at a time; a process that dies holding it (never renewed, never released)
    const dying = new RedisHostBudgets(client, namespace, { leaseMs: 300 });
    await expect.poll(async () => (await dying.lease(host, 100)) !== null).toBe(true);
    dying.close();
    expect(await store.lease(host, 50)).toBeNull();
    // …frees its slot once its lease lapses
    expect(await store.lease(host, 2_000)).not.toBeNull();
    store.close();

    const down = new Redis('redis://127.0.0.1:1', { maxRetriesPerRequest: 0, lazyConnect: true, retryStrategy: () => null });
    down.on('error', () => undefined);
    clients.push(down);
    const warnings: string[] = [];
    const alone = new RedisHostBudgets(down, 'down', { warn: (m) => warnings.push(m) });
    const leases = await Promise.all([alone.lease(host, 1_000), alone.lease(host, 1_000), alone.lease(host, 1_000)]);
    expect(leases.every((l) => l !== null)).toBe(true);
    expect(alone.lessons(host)).toBeUndefined();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/Redis did not answer/);
  });
});
