/**
 * A verifier worker process for the scale-out tests (redis-host-budgets.test.ts): one engine, as the server builds it,
 * verifying a list and printing each verdict as a JSON line, then the hosts as it saw them. Its settings come as one
 * JSON argument: { dnsServers, smtpPort, addresses, redisUrl?, namespace } (without redisUrl it counts alone). It prints
 * {"ready":true} once started and verifies when a line comes on stdin.
 *
 *   node --import tsx src/test/verifier-worker.ts '{"dnsServers":["127.0.0.1:40053"],...}'
 */
import { VerifierEngine, type TVerifyOptions } from '@verilead/verifier';
import { createRedisClient } from '../platform/cache/redis';
import { RedisHostBudgets } from '../platform/verifier/redis-host-budgets';

type TWorkerSettings = { dnsServers: string[]; smtpPort: number; addresses: string[]; redisUrl?: string; namespace: string };

const settings = JSON.parse(process.argv[2] ?? '{}') as TWorkerSettings;
const redis = settings.redisUrl ? createRedisClient(settings.redisUrl, { connectTimeout: 1000, maxRetriesPerRequest: 1 }) : null;
redis?.on('error', () => undefined);
const hostBudgets = redis ? new RedisHostBudgets(redis, settings.namespace, { warn: (message) => process.stderr.write(`${message}\n`) }) : undefined;
const options: TVerifyOptions = {
  dnsServers: settings.dnsServers,
  smtpPort: settings.smtpPort,
  heloName: 'verifier.verilead.test',
  mailFrom: 'probe@verifier.verilead.test',
  // a refused session is tried again after a second, not a greylist step
  greylistSchedule: [1_000, 1_000, 1_000],
  timeouts: { dnsMs: 2_000, connectMs: 2_000, replyMs: 5_000, totalMs: 60_000 },
  ...(hostBudgets ? { hostBudgets } : {}),
};
const engine = new VerifierEngine(options);
// Started: wait for the test's word (a line on stdin), so that every worker of a test verifies at the same time.
process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
await new Promise((resolve) => process.stdin.once('data', resolve));
process.stdin.destroy();
for await (const result of engine.verifyMany(settings.addresses)) {
  process.stdout.write(`${JSON.stringify({ email: result.email, status: result.status, reason: result.reason.code })}\n`);
}
process.stdout.write(`${JSON.stringify({ hosts: engine.listHosts() })}\n`);
await engine.close();
hostBudgets?.close();
await redis?.quit();
