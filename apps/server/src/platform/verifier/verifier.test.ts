import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMailWorld, type TMailWorld } from '@verilead/mailworld';
import type { TConfig } from '../../config';
import { createVerifier, describeUnsharedHostBudgets, type TVerifier } from './verifier';

let world: TMailWorld;
let config: TConfig;
// The process's one verifier, as the composition root builds it.
let verifier: TVerifier;

beforeAll(async () => {
  world = await startMailWorld({ preset: 'realistic', greetingDelayMs: [100, 150], commandLatencyMs: [5, 10] });
  config = {
    dnsServers: world.dnsServers,
    verifierSmtpPort: world.smtpPort,
    verifierHeloName: 'verifier.verilead.test',
    verifierMailFrom: 'probe@verifier.verilead.test',
  } as TConfig;
  verifier = createVerifier(config);
});
afterAll(async () => {
  await verifier.engine.close();
  await world?.stop();
});

describe('the process verifier', () => {
  it('is one engine for the process; the user settings go with each call', async () => {
    const allowed = await verifier.verify('nobody.here@strict.test', { mode: 'fastest_turnaround', wbList: { allow: ['nobody.here@strict.test'], block: [] } });
    expect(allowed.reason.code).toBe('allowed_by_user_list');
    const checked = await verifier.verify('nobody.here@strict.test', { mode: 'fastest_turnaround' });
    expect(`${checked.status}/${checked.reason.code}`).toBe('invalid/mailbox_not_found');
  });

  it('instant checks and a bulk stream share the per-mail-host session limit', async () => {
    const bulk = Array.from({ length: 40 }, (_, i) => `bulk.${i}@strict.test`);
    const instant = Array.from({ length: 12 }, (_, i) => `instant.${i}@strict.test`);
    const streamed = (async () => {
      const out = [];
      for await (const result of verifier.verifyMany(bulk, { concurrency: 40, mode: 'fastest_turnaround' })) out.push(result);
      return out;
    })();
    const single = await Promise.all(instant.map((email) => verifier.verify(email, { mode: 'fastest_turnaround' })));
    const results = [...(await streamed), ...single];
    expect(results.every((r) => r.status === 'invalid' && r.reason.code === 'mailbox_not_found')).toBe(true);
    expect(world.hostStats('mx.strict.test').peakConcurrentPerClient).toBeLessThanOrEqual(3);
  });
});

describe('the start-up warning of a worker without REDIS_URL', () => {
  it('is given to a worker process without Redis only', () => {
    expect(describeUnsharedHostBudgets('worker', { redisUrl: undefined })).toContain('Set REDIS_URL (the same Redis for every worker and API process)');
    expect(describeUnsharedHostBudgets('worker', { redisUrl: 'redis://127.0.0.1:6379' })).toBeNull();
    expect(describeUnsharedHostBudgets('all', { redisUrl: undefined })).toBeNull();
    expect(describeUnsharedHostBudgets('api', { redisUrl: undefined })).toBeNull();
  });
});
