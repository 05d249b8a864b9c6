/**
 * Named crash points: places inside a job where a test may make its worker process die on the spot, so that "a
 * worker killed mid-chunk" is a fixed moment rather than a race between a test's poll and a running process.
 *
 * Only a process started with `VERILEAD_CRASH_AT=<point>:<count>` (a worker the test spawns) ever crashes: it ends
 * with SIGKILL (no shutdown, no finally blocks, no pg-boss completion, exactly like `kill -9`) once the job code has
 * passed `<point>` with a running total of at least `<count>` (e.g. rows stored). Without the variable, passing a
 * point is a comparison against null.
 */
export type TCrashPoint = 'verify_chunk.stored';

type TCrashSpec = { point: string; count: number };

function parseCrashSpec(value: string | undefined): TCrashSpec | null {
  const m = /^([\w.]+):(\d+)$/.exec(value ?? '');
  return m ? { point: m[1]!, count: Number(m[2]) } : null;
}

// Read once at load: the variable belongs to the process (set by the test that spawned it), not to a request.
const spec = parseCrashSpec(process.env.VERILEAD_CRASH_AT);
let passed = 0;

/** Marks that the job passed `point` with `amount` more of its unit (rows stored…); the process dies once the total reaches the spec's count. */
export function passCrashPoint(point: TCrashPoint, amount: number): void {
  if (!spec || spec.point !== point) return;
  passed += amount;
  if (passed >= spec.count) process.kill(process.pid, 'SIGKILL');
}
