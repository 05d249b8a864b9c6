import type { SmtpSession } from '../smtp/smtp-session';
import { systemClock } from '../clock';
import type { TClock, TSleep } from '../types';
import { SessionBudget } from './session-budget';

const BACKOFF_BASE_MS = 50;
const BACKOFF_MAX_MS = 1_000;
const SUCCESSES_PER_STEP = 5;
const FAILURES_TO_TRIP = 2;
const DOWN_MS = 60_000;
/**
 * How long a host that refused the verifier's identity (its HELO name, sender domain or reverse DNS: isIdentityRefusal)
 * is not asked again: each recipient would get the same refusal, and each refusal counts as an error there. Fixing it
 * takes the operator's DNS or configuration (a restart), not seconds.
 */
export const IDENTITY_REFUSAL_MS = 10 * 60_000;
/** An idle session is closed after this long unused (waited through the engine's injected sleep). */
export const IDLE_CLOSE_MS = 5_000;
/** How long a host's connection limit, learned from its 421, holds before the engine may probe one session above it. */
export const CEILING_TTL_MS = 30 * 60_000;

/** An idle session: the clock time it was put back and the number of the sweep wait running then. */
type TIdleEntry = { session: SmtpSession; since: number; sweep: number };

/**
 * Per mail host (address:port): an adaptive concurrency limit with back-off (AIMD: halve the limit and double the
 * delay on 421/451/452, grow back on success), a pool of idle sessions for reuse, and a circuit breaker that
 * marks a host down for a while after consecutive connection failures so a dead host cannot stall the others.
 *
 * Sessions are opened in slow start: at most one more than the host has been seen to hold open at once (greeted and
 * not closed). So when a host refuses a session for too many connections (421 greeting), it refused exactly one over
 * the sessions it held: that number becomes the host's ceiling, which the slots never exceed again (for
 * CEILING_TTL_MS; then one session above it may be tried once more).
 */
export class HostGate {
  limit: number;
  active = 0;
  delayMs = 0;
  private successes = 0;
  private failures = 0;
  downUntil = 0;
  downReason: 'smtp_timeout' | 'connection_failed' | 'service_unavailable' = 'connection_failed';
  /** Until when (clock time) this host is taken to refuse the verifier's identity, and the reply that said so. */
  identityRefusedUntil = 0;
  identityRefusal = '';
  /** Recipients per session after which this host answered 452 (learned). */
  maxRecipients = Number.POSITIVE_INFINITY;
  /** Recipients per transaction after which this host answered 452 (learned). */
  maxBatch = Number.POSITIVE_INFINITY;
  /** Rate-limit replies this host has given us (each one slowed its recipients down: smaller batches, back-off). */
  rateLimited = 0;
  /** Sessions this host refused (a 4xx/5xx greeting or EHLO, or the connection refused), since the engine met it. */
  refusedSessions = 0;
  /** Refused replies and non-mail commands a session may spend here (lowered when the host cuts one). */
  readonly budget: SessionBudget;
  private readonly waiters: Array<() => void> = [];
  /** Idle sessions, last put back last. */
  private readonly idle: TIdleEntry[] = [];

  constructor(
    private readonly maxLimit: number,
    private readonly sleep: TSleep,
    private readonly clock: TClock = systemClock,
    budget: { errors?: number; nonMail?: number } = {},
  ) {
    this.limit = maxLimit;
    this.budget = new SessionBudget(budget);
  }

  /** Sessions being closed (QUIT sent, not yet answered): the host still counts them, so they hold a slot. */
  closing = 0;
  /** Sessions being opened (connecting or waiting for the greeting): the host counts those it has accepted. */
  opening = 0;
  /** Sessions the host greeted that are still open (in use or idle). */
  established = 0;
  /** The most sessions the host has held open at once (slow start: one more may be opened). */
  peakEstablished = 0;
  /** The most sessions the host takes at once, learned from its 421 (valid until `ceilingUntil`, clock time). */
  ceiling = Number.POSITIVE_INFINITY;
  ceilingUntil = 0;

  /** Slots that may be held at once now: the limit, within the learned ceiling and the slow start. */
  get capacity(): number {
    const ceiling = this.ceilingUntil > this.clock.now() ? this.ceiling : Number.POSITIVE_INFINITY;
    return Math.max(1, Math.min(this.limit, ceiling, this.peakEstablished + 1));
  }

  /** A session the host has greeted: counted open until it ends. */
  noteEstablished(session: Pick<SmtpSession, 'onEnd'>): void {
    this.established++;
    if (this.established > this.peakEstablished) {
      this.peakEstablished = this.established;
      this.wakeOne(); // slow start: room for one more
    }
    session.onEnd(() => this.established--);
  }

  /**
   * The host refused a new session with a 4xx greeting. When other sessions of ours were open there, it refused one
   * too many: they (established, being opened or closed) are its ceiling. Answers whether a ceiling was learned (else
   * the refusal came with no other session open: the host is busy, not full). `heldElsewhere`: the connections every
   * process sharing the host's budgets held there then (host-budgets.ts), when known. `ticket`: the refused session's
   * (`beginOpening`).
   */
  learnCeiling(heldElsewhere: number | null = null, ticket = Number.POSITIVE_INFINITY): boolean {
    const fresh = this.ceilingUntil > this.clock.now();
    // A session that was already being opened when the ceiling was learned was counted in it as held; the host may
    // refuse it too, while it still counts the session it refused first (until our close reaches it): that refusal
    // tells nothing new, and counting it would take one more session off a ceiling that was right.
    if (fresh && ticket <= this.ceilingTicket) return true;
    const held = Math.max(this.established + this.opening + this.closing, heldElsewhere ?? 0);
    if (held < 1) return false;
    this.ceiling = fresh ? Math.min(this.ceiling, held) : held;
    this.ceilingUntil = this.clock.now() + CEILING_TTL_MS;
    this.ceilingTicket = this.openings;
    return true;
  }

  /** Sessions whose opening has begun since the gate was made: each opening's number is its ticket. */
  private openings = 0;
  /** `openings` when the ceiling was last learned: sessions with this ticket or a lower one were on their way then. */
  private ceilingTicket = 0;

  /** A session starts opening (counted in `opening` until `endOpening`); answers its ticket for `learnCeiling`. */
  beginOpening(): number {
    this.opening++;
    return ++this.openings;
  }

  endOpening(): void {
    this.opening--;
  }

  /**
   * Wait for a slot, then the back-off delay if any. Either signal cancels the wait (it throws that signal's reason):
   * two are taken so a caller need not join them with AbortSignal.any (costly on every call of a busy host).
   */
  async acquire(signal?: AbortSignal, other?: AbortSignal): Promise<void> {
    const aborted = (): AbortSignal | undefined => (signal?.aborted ? signal : other?.aborted ? other : undefined);
    while (this.active + this.closing >= this.capacity) {
      const stopped = aborted();
      if (stopped) throw stopped.reason;
      await new Promise<void>((resolve) => {
        const wake = (): void => {
          signal?.removeEventListener('abort', onAbort);
          other?.removeEventListener('abort', onAbort);
          resolve();
        };
        const onAbort = (): void => {
          const index = this.waiters.indexOf(wake);
          if (index >= 0) this.waiters.splice(index, 1);
          wake();
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        other?.addEventListener('abort', onAbort, { once: true });
        this.waiters.push(wake);
      });
    }
    const stopped = aborted();
    if (stopped) {
      this.wakeOne();
      throw stopped.reason;
    }
    this.active++;
    if (this.delayMs > 0) {
      const either = signal && other ? AbortSignal.any([signal, other]) : (signal ?? other);
      try {
        await this.sleep(this.delayMs, either);
      } catch (error) {
        this.release();
        throw either?.aborted ? either.reason : error;
      }
      if (either?.aborted) {
        this.release();
        throw either.reason;
      }
    }
  }

  /**
   * Takes a slot for one more connection only if one is free now, the host holds fewer connections of ours than its
   * slots (idle ones count: a session opened ahead of time adds to them) and it is not being backed off from.
   */
  tryAcquire(): boolean {
    if (this.delayMs > 0 || this.active + this.closing >= this.capacity || this.established + this.opening + this.closing >= this.capacity) return false;
    this.active++;
    return true;
  }

  release(): void {
    this.active--;
    this.wakeOne();
  }

  private wakeOne(): void {
    while (this.waiters.length > 0 && this.active + this.closing < this.capacity) {
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

  /**
   * A group of `n` recipients (pipelined) got no reply in time: a host that takes seconds a recipient (a tarpit's
   * `sleep`, Exim's `delay`) answers a pipelined group only once it has worked through all of it (Postfix holds the
   * group's replies back until then), so a group of 9 waits 9 delays. Its groups are halved from now on; answers false
   * when a group of one timed out (the host itself is slow or gone).
   */
  shrinkBatchAfterTimeout(n: number): boolean {
    if (n <= 1) return false;
    this.maxBatch = Math.max(1, Math.min(this.maxBatch, Math.floor(n / 2)));
    return true;
  }

  /** The host refused the verifier's HELO name, sender or address (`reply`): its recipients are not asked for a while. */
  refuseIdentity(reply: string, now: number): void {
    this.identityRefusedUntil = now + IDENTITY_REFUSAL_MS;
    this.identityRefusal = reply;
  }

  refusesIdentity(now: number): boolean {
    return this.identityRefusedUntil > now;
  }

  isDown(now: number): boolean {
    return this.downUntil > now;
  }

  /** Greeted sessions waiting in the pool. */
  get idleCount(): number {
    return this.idle.length;
  }

  takeIdle(): SmtpSession | null {
    while (this.idle.length > 0) {
      const entry = this.idle.pop();
      if (entry && !entry.session.closed) return entry.session;
    }
    return null;
  }

  /**
   * Keep a session for reuse (a spare is taken only once the others are in use). A session left unused for
   * IDLE_CLOSE_MS is closed (QUIT) by the gate's sweep, which wakes every IDLE_CLOSE_MS while sessions are idle, through
   * the engine's injected sleep (so a test's fake clock drives it): one wait per host, not one per transaction, and
   * a session is closed after 5 to 10 s unused.
   */
  putIdle(session: SmtpSession, opts: { spare?: boolean } = {}): void {
    const entry = { session, since: this.clock.now(), sweep: this.sweeps };
    // Sessions are taken last in, first out; a spare (opened ahead of a retirement) waits under the others.
    if (opts.spare) this.idle.unshift(entry);
    else this.idle.push(entry);
    if (!this.sweep) this.startSweep();
  }

  /** The sweep's wait (cancelled when the gate closes), while one runs. */
  private sweep: AbortController | null = null;
  /** Sweep waits started so far: an idle session put back before the current wait began stayed idle through all of it. */
  private sweeps = 0;

  private startSweep(): void {
    const sweep = new AbortController();
    this.sweep = sweep;
    const next = (): void => {
      const started = ++this.sweeps;
      this.sleep(IDLE_CLOSE_MS, sweep.signal).then(
        () => {
          // an injected sleep may ignore the signal: a sweep cancelled meanwhile does nothing more
          if (sweep.signal.aborted) return;
          const now = this.clock.now();
          const unused = (e: TIdleEntry) => e.session.closed || e.sweep < started || now - e.since >= IDLE_CLOSE_MS;
          for (const entry of this.idle.filter(unused)) {
            this.idle.splice(this.idle.indexOf(entry), 1);
            if (!entry.session.closed) this.retire(entry.session);
          }
          if (this.idle.length > 0) next();
          else this.sweep = null;
        },
        () => {
          // cancelled: the gate closed
        },
      );
    };
    next();
  }

  /** Sessions being retired in the slot of the call that last used them (QUIT sent, not yet answered). */
  private quitting = 0;

  /** Whether a session of this host is being opened or closed now (one being replaced, or the load changing). */
  get renewing(): boolean {
    return this.opening + this.closing + this.quitting > 0;
  }

  /** QUIT a retiring session in the caller's slot (held until the host has answered: it still counts the session). */
  async quitInSlot(session: SmtpSession): Promise<void> {
    this.quitting++;
    try {
      await session.quit();
    } finally {
      this.quitting--;
    }
  }

  /** QUIT a session now if it waits idle (another process sharing the host's budgets needs its connection slot). */
  closeIdle(session: SmtpSession): void {
    const index = this.idle.findIndex((e) => e.session === session);
    if (index < 0) return;
    this.idle.splice(index, 1);
    if (!session.closed) this.retire(session);
  }

  /** QUIT a session whose slot is given up; it holds a slot until the host has answered (the host still counts it). */
  private retire(session: SmtpSession): void {
    this.closing++;
    void session.quit().finally(() => {
      this.closing--;
      this.wakeOne();
    });
  }

  async closeAll(): Promise<void> {
    this.sweep?.abort();
    this.sweep = null;
    await Promise.all(this.idle.splice(0).map(({ session }) => session.quit()));
  }
}
