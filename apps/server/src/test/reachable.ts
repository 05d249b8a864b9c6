import { Socket } from 'node:net';

/** True when something accepts TCP connections at host:port within half a second. */
export function isReachable(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = new Socket();
    s.setTimeout(500);
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
    s.once('timeout', () => {
      s.destroy();
      resolve(false);
    });
    s.connect(port, host);
  });
}

/**
 * Whether the tests that need Redis at host:port run: true when it accepts connections. When it does not, they are
 * skipped (false) on a developer machine, but under CI (`CI` set, as .ci/run does after starting Redis) this throws,
 * so a Redis that is down fails the run instead of silently skipping the shared-cache and rate-limit tests.
 */
export async function isRedisUpForTests(host = '127.0.0.1', port = 6379, env: NodeJS.ProcessEnv = process.env): Promise<boolean> {
  if (await isReachable(host, port)) return true;
  if (env.CI) throw new Error(`Redis is not reachable at ${host}:${port}, and CI is set: the tests that need Redis must run in CI (.ci/run starts it).`);
  return false;
}
