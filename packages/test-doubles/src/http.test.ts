import { createServer } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { closeServer, listenOnLoopback } from './http';

const server = createServer((_req, res) => res.end('ok'));
afterEach(() => closeServer(server));

// CI's billing.spec failed with ECONNRESET: the fake Stripe closed a kept-alive connection after Node's default 5 s
// idle, just as the test sent its next request on it.
it('keeps an idle kept-alive connection open past Node’s 5 s default', async () => {
  await listenOnLoopback(server);
  const socket = connect((server.address() as AddressInfo).port, '127.0.0.1');
  const first = await new Promise<string>((resolve) => {
    socket.once('data', (chunk) => resolve(chunk.toString()));
    socket.write('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n');
  });
  expect(first).toMatch(/^HTTP\/1\.1 200 OK/);
  // Either the server ends the idle connection (the old 5 s), or 6 s pass with it open.
  const ended = await new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), 6_000);
    const closed = () => {
      clearTimeout(timer);
      resolve(true);
    };
    socket.once('end', closed);
    socket.once('close', closed);
  });
  expect(ended).toBe(false);
  const second = await new Promise<string>((resolve) => {
    socket.once('data', (chunk) => resolve(chunk.toString()));
    socket.once('close', () => resolve('(closed by the server)'));
    socket.once('error', (err) => resolve(`(${err.message})`));
    socket.write('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
  });
  expect(second).toMatch(/^HTTP\/1\.1 200 OK/);
  socket.destroy();
}, 15_000);
