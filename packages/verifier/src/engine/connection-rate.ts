/**
 * The window a host's connection rate limit is taken to count over: Postfix's anvil_rate_time_unit (60 s by default),
 * the usual minute of other servers' rate limits. Pacing within a sliding window of it stays within any fixed one.
 */
export const CONNECTION_RATE_WINDOW_MS = 60_000;
/**
 * Refusals of a new connection that no connection limit explains (fewer of ours were open there than the host has
 * held before) it takes to learn a rate limit: one could be a race with a session the host has not yet counted closed.
 */
const UNEXPLAINED_REFUSALS_TO_LEARN_RATE = 2;
/** How long a learned rate holds (as long as a learned connection count: host-gate.ts's CEILING_TTL_MS). */
export const RATE_TTL_MS = 30 * 60_000;

/**
 * A host's connection rate limit (Postfix's smtpd_client_connection_rate_limit), learned from its refusals, and the
 * pacing of new connections to it. Postfix answers a rate limit with the same `421 … too many connections` as its
 * connection count limit: a refusal that comes while fewer of our sessions are open there than the host has held at
 * once is not a count; the second such refusal within the window makes the host's rate what it accepted in the last
 * window, and new connections wait until the window's attempts (refused ones too: the server counts every connect)
 * leave room. Kept for RATE_TTL_MS, like a learned connection count.
 */
export class ConnectionRate {
  private rate = Number.POSITIVE_INFINITY;
  private until = 0;
  /** Clock times of our connection attempts (refused ones too), of the 4xx refusals, and of those no count explains. */
  private attempts: number[] = [];
  private refusals: number[] = [];
  private unexplained: number[] = [];

  private prune(now: number): void {
    const since = now - CONNECTION_RATE_WINDOW_MS;
    const keep = (times: number[]) => (times.length > 0 && (times[0] as number) <= since ? times.filter((t) => t > since) : times);
    this.attempts = keep(this.attempts);
    this.refusals = keep(this.refusals);
    this.unexplained = keep(this.unexplained);
  }

  /** Connections a window, while a learned rate holds (Infinity otherwise). */
  perWindow(now: number): number {
    return this.until > now ? this.rate : Number.POSITIVE_INFINITY;
  }

  /** A connection to the host is about to be attempted. */
  noteAttempt(now: number): void {
    this.prune(now);
    this.attempts.push(now);
  }

  /** How long (ms) a new connection must wait to stay within the learned rate: 0 when none holds or the window has room. */
  openDelayMs(now: number): number {
    if (this.until <= now) return 0;
    this.prune(now);
    const rate = Math.max(1, this.rate);
    if (this.attempts.length < rate) return 0;
    return Math.max(1, (this.attempts[this.attempts.length - rate] as number) + CONNECTION_RATE_WINDOW_MS - now);
  }

  /**
   * The host refused a new connection with a 4xx greeting while `held` of our sessions were open there (established,
   * opening or closing), and it has held `peak` at once before. Answers whether a rate was learned now.
   */
  learn(now: number, held: number, peak: number): boolean {
    this.prune(now);
    this.refusals.push(now);
    if (held >= peak) return false;
    this.unexplained.push(now);
    if (this.unexplained.length < UNEXPLAINED_REFUSALS_TO_LEARN_RATE) return false;
    const accepted = Math.max(1, this.attempts.length - this.refusals.length);
    this.rate = this.until > now ? Math.min(this.rate, accepted) : accepted;
    this.until = now + RATE_TTL_MS;
    this.unexplained = [];
    return true;
  }
}
