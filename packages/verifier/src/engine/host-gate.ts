import type { SmtpSession } from '../smtp/smtp-session';
import type { TSleep } from '../types';

const BACKOFF_BASE_MS = 50;
const BACKOFF_MAX_MS = 1_000;
const SUCCESSES_PER_STEP = 5;
const FAILURES_TO_TRIP = 2;
const DOWN_MS = 60_000;
const IDLE_CLOSE_MS = 5_000;

/**
 * Per mail host (address:port): an adaptive concurrency limit with back-off (AIMD: halve the limit and double the
 * delay on 421/451/452, grow back on success), a pool of idle sessions for reuse, and a circuit breaker that
 * marks a host down for a while after consecutive connection failures so a dead host cannot stall the others.
 */
export class HostGate {
  limit: number;
  active = 0;
  delayMs = 0;
  private successes = 0;
  private failures = 0;
  downUntil = 0;
  downReason: 'smtp_timeout' | 'connection_failed' | 'service_unavailable' = 'connection_failed';
  /** Recipients per session after which this host answered 452 (learned). */
  maxRecipients = Number.POSITIVE_INFINITY;
  /** Recipients per transaction after which this host answered 452 (learned). */
  maxBatch = Number.POSITIVE_INFINITY;
  private readonly waiters: Array<() => void> = [];
  private readonly idle: Array<{ session: SmtpSession; timer: NodeJS.Timeout }> = [];

  constructor(
    private readonly maxLimit: number,
    private readonly sleep: TSleep,
  ) {
    this.limit = maxLimit;
  }

  /** Sessions being closed (QUIT sent, not yet answered): the host still counts them, so they hold a slot. */
  closing = 0;

  /** Wait for a slot (a cancelled signal stops waiting and throws its reason), then the back-off delay if any. */
  async acquire(signal?: AbortSignal): Promise<void> {
    while (this.active + this.closing >= this.limit) {
      if (signal?.aborted) throw signal.reason;
      await new Promise<void>((resolve) => {
        const wake = (): void => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        };
        const onAbort = (): void => {
          const index = this.waiters.indexOf(wake);
          if (index >= 0) this.waiters.splice(index, 1);
          resolve();
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        this.waiters.push(wake);
      });
    }
    if (signal?.aborted) {
      this.wakeOne();
      throw signal.reason;
    }
    this.active++;
    if (this.delayMs > 0) {
      try {
        await this.sleep(this.delayMs);
      } catch (error) {
        this.release();
        throw error;
      }
    }
  }

  release(): void {
    this.active--;
    this.wakeOne();
  }

  private wakeOne(): void {
    while (this.waiters.length > 0 && this.active + this.closing < this.limit) {
      const next = this.waiters.shift();
      if (!next) break;
      next();
      // each woken waiter re-checks; wake only as many as there are free slots
      break;
    }
  }

  /** Back off: on 421/451/452-style load deferrals and refused connections. */
  penalize(): void {
    this.successes = 0;
    this.limit = Math.max(1, Math.floor(this.limit / 2));
    this.delayMs = Math.min(BACKOFF_MAX_MS, Math.max(BACKOFF_BASE_MS, this.delayMs * 2));
  }

  reward(): void {
    this.failures = 0;
    this.delayMs = this.delayMs / 2 < BACKOFF_BASE_MS ? 0 : this.delayMs / 2;
    if (++this.successes >= SUCCESSES_PER_STEP && this.limit < this.maxLimit) {
      this.successes = 0;
      this.limit++;
      this.wakeOne();
    }
  }

  /** Record a failure to connect or greet; after a few in a row the host is considered down for a while. */
  recordConnectFailure(reason: HostGate['downReason'], now: number): void {
    if (++this.failures >= FAILURES_TO_TRIP) {
      this.downUntil = now + DOWN_MS;
      this.downReason = reason;
    }
  }

  isDown(now: number): boolean {
    return this.downUntil > now;
  }

  takeIdle(): SmtpSession | null {
    while (this.idle.length > 0) {
      const entry = this.idle.pop();
      if (!entry) break;
      clearTimeout(entry.timer);
      if (!entry.session.closed) return entry.session;
    }
    return null;
  }

  putIdle(session: SmtpSession): void {
    const entry = {
      session,
      timer: setTimeout(() => {
        const index = this.idle.indexOf(entry);
        if (index >= 0) this.idle.splice(index, 1);
        this.closing++;
        void session.quit().finally(() => {
          this.closing--;
          this.wakeOne();
        });
      }, IDLE_CLOSE_MS),
    };
    entry.timer.unref?.();
    this.idle.push(entry);
  }

  async closeAll(): Promise<void> {
    const entries = this.idle.splice(0);
    await Promise.all(
      entries.map(async ({ session, timer }) => {
        clearTimeout(timer);
        await session.quit();
      }),
    );
  }
}
