// The verification engine alone (no server, no database): single calls for different mailboxes of one mail host,
// arriving at a steady rate, as the instant API's calls reach the process's shared engine. The host greets after
// 100 ms and answers each command after 1 ms (as in instant.bench.ts), in its own process. Before the measured run,
// `BENCH_WARM_SECONDS` at concurrency 50 (a closed loop) bring the host's sessions to where a busy server has them,
// several retirements included. Prints p50/p90/p99/max of each call's latency, counted from the moment it was due,
// Used to see what the engine adds to the instant path's
// tail (session openings, retirements, queueing for a slot) without the HTTP server and the charge.
// Run: npx tsx bench/engine-arrivals.ts   (BENCH_RATE=1000, BENCH_SECONDS=10, BENCH_WARM_SECONDS=10,
//      BENCH_MODE=highest_accuracy|fastest_turnaround)
import { VerifierEngine } from '@verilead/verifier';
import type { TVerificationMode } from '@verilead/contracts';
import { startMailWorldProcess } from './mail-world-process';

const RATE = Number(process.env.BENCH_RATE ?? 1_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARM_SECONDS = Number(process.env.BENCH_WARM_SECONDS ?? 10);
const MODE = (process.env.BENCH_MODE ?? 'highest_accuracy') as TVerificationMode;
const MAILBOXES = 20_000;
const mailbox = (i: number) => `bench.person${i % MAILBOXES}@strict.test`;

function percentile(sorted: number[], q: number): string {
  return sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)]!.toFixed(1);
}

async function main() {
  const corpus = Array.from({ length: MAILBOXES }, (_, i) => ({ email: mailbox(i), expected: { status: 'valid' as const, reason: 'valid_mailbox' as const }, tags: [] }));
  const world = await startMailWorldProcess({ preset: 'realistic', greetingDelayMs: [100, 100], commandLatencyMs: [1, 1], preferPort25: false, corpus });
  const engine = new VerifierEngine({ dnsServers: world.dnsServers, smtpPort: world.smtpPort, mode: MODE, timeouts: { connectMs: 2_000, replyMs: 2_000 } });
  try {
    let n = 0;
    const warmUntil = performance.now() + WARM_SECONDS * 1_000;
    await Promise.all(
      Array.from({ length: 50 }, async () => {
        while (performance.now() < warmUntil) await engine.verify(mailbox(n++));
      }),
    );
    const latencies: number[] = [];
    const calls: Promise<void>[] = [];
    const total = RATE * SECONDS;
    const t0 = performance.now();
    let sent = 0;
    await new Promise<void>((resolve) => {
      const tick = () => {
        const due = Math.min(total, Math.floor(((performance.now() - t0) / 1_000) * RATE));
        for (; sent < due; sent++) {
          const dueAt = t0 + (sent * 1_000) / RATE;
          calls.push(engine.verify(mailbox(n++)).then(() => void latencies.push(performance.now() - dueAt)));
        }
        if (sent >= total) resolve();
        else setTimeout(tick, 1);
      };
      tick();
    });
    await Promise.all(calls);
    latencies.sort((a, b) => a - b);
    console.log(
      `engine alone, ${MODE}, one host greeting after 100 ms: ${total} calls arriving at ${RATE}/s after ${WARM_SECONDS} s at concurrency 50 (${n - total} calls): ` +
        `p50 ${percentile(latencies, 0.5)} ms, p90 ${percentile(latencies, 0.9)} ms, p99 ${percentile(latencies, 0.99)} ms, max ${percentile(latencies, 1)} ms`,
    );
  } finally {
    await engine.close();
    await world.stop();
  }
}

void main();
