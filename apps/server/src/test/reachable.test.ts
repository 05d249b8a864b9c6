import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { isRedisUpForTests } from './reachable';

/** A loopback port where nothing listens. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('isRedisUpForTests', () => {
  it('answers true when the server accepts connections', async () => {
    const server = net.createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as net.AddressInfo;
      expect(await isRedisUpForTests('127.0.0.1', port, { CI: 'true' })).toBe(true);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('lets the Redis tests skip when Redis is down on a developer machine', async () => {
    expect(await isRedisUpForTests('127.0.0.1', await closedPort(), {})).toBe(false);
  });

  it('fails instead when Redis is down under CI', async () => {
    const port = await closedPort();
    await expect(isRedisUpForTests('127.0.0.1', port, { CI: 'true' })).rejects.toThrow(`Redis is not reachable at 127.0.0.1:${port}, and CI is set`);
  });
});
