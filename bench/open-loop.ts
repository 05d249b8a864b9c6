// An open-loop load generator: calls are sent at a steady rate whatever the server's answers, over a fixed number of
// keep-alive connections, and each call's latency is counted from the moment it was due (a call that waited for a
// free connection counts its wait). autocannon measures a closed loop (each connection sends its next call when the
// last one answers), and its rate option sends a second's budget of calls back to back at the start of each second,
// so neither tells how a server answers calls arriving at a given rate, as a sign-up form's calls do.
import { Agent, request } from 'node:http';

export type TOpenLoopResult = {
  sent: number;
  answered: number;
  errors: number;
  /** Answers per second over the run. */
  rps: number;
  latency: { p50: number; p90: number; p99: number; max: number };
};

export type TOpenLoopOptions = {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: () => string;
  /** Calls per second. */
  rate: number;
  seconds: number;
  connections: number;
  onResponse?: (status: number, text: string) => void;
};

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** Sends `rate` calls a second for `seconds`, then waits for the last answers; latencies in whole milliseconds. */
export async function openLoop(opts: TOpenLoopOptions): Promise<TOpenLoopResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: opts.connections });
  const url = new URL(opts.url);
  const latencies: number[] = [];
  let errors = 0;
  let sent = 0;
  const total = Math.round(opts.rate * opts.seconds);
  const pending = new Set<Promise<void>>();
  const started = performance.now();

  const send = (due: number) => {
    const body = opts.body();
    const done = new Promise<void>((resolve) => {
      const req = request(
        { agent, host: url.hostname, port: url.port, path: url.pathname + url.search, method: opts.method, headers: { ...opts.headers, 'content-length': Buffer.byteLength(body) } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            latencies.push(performance.now() - due);
            opts.onResponse?.(res.statusCode ?? 0, Buffer.concat(chunks).toString());
            resolve();
          });
          res.on('error', () => {
            errors += 1;
            resolve();
          });
        },
      );
      req.on('error', () => {
        errors += 1;
        resolve();
      });
      req.end(body);
    });
    pending.add(done);
    void done.then(() => pending.delete(done));
  };

  // Every millisecond or so, send the calls that are due by now (each with its own due time).
  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = performance.now();
      while (sent < total && started + (sent * 1000) / opts.rate <= now) {
        send(started + (sent * 1000) / opts.rate);
        sent += 1;
      }
      if (sent < total) setTimeout(tick, 1);
      else resolve();
    };
    tick();
  });
  await Promise.all(pending);
  const wall = (performance.now() - started) / 1000;
  agent.destroy();
  const sorted = latencies.sort((a, b) => a - b);
  const ms = (v: number) => Math.round(v);
  return {
    sent,
    answered: latencies.length,
    errors,
    rps: latencies.length / wall,
    latency: { p50: ms(percentile(sorted, 50)), p90: ms(percentile(sorted, 90)), p99: ms(percentile(sorted, 99)), max: ms(sorted[sorted.length - 1] ?? NaN) },
  };
}
