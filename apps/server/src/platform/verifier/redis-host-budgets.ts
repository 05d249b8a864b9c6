import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { CEILING_TTL_MS, type THostBudgetStore, type THostLease, type THostLessons } from '@verilead/verifier';

const PREFIX = 'vl-hosts:';
/** A connection's lease lapses this long after its last renewal: a process that dies frees its slots by then. */
const LEASE_MS = 30_000;
/** What a host taught is kept this long after it was last touched (the engine's learned ceiling holds 30 min). */
const LESSONS_MS = 30 * 60_000;
/** A host's lessons are read again at most this often (and only while the host is in use). */
const REFRESH_MS = 2_000;
/** How often a process waiting for a connection slot asks again (with up to as much again at random). */
const POLL_MS = 40;
/** After Redis fails to answer, this process counts alone for this long before asking again. */
const PAUSE_MS = 5_000;
/** Hosts whose lessons are kept read in the process (the least recently read are forgotten first). */
const MAX_READ_HOSTS = 10_000;

// Every script reads the time from Redis, so the processes' own clocks never matter.
const NOW = `local t = redis.call('TIME') local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;

/**
 * A lease for one more connection (KEYS: leases, greeted, lessons, waiting; ARGV: lease id, owner, lease ms). The host
 * takes one more than every process has seen it greet at once (shared slow start), within its learned ceiling; a lease
 * above that peak (a probe of the host's limit) only while no other probe waits for its greeting, so two connections
 * never probe at once. A process that was not waiting lets the waiting ones go first (a waiter is forgotten a second
 * after its last ask).
 */
const ACQUIRE = `${NOW}
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
redis.call('ZREMRANGEBYSCORE', KEYS[4], '-inf', now - 1000)
local held = redis.call('ZCARD', KEYS[1])
local l = redis.call('HMGET', KEYS[3], 'ceiling', 'ceilingUntil', 'peak')
local peak = tonumber(l[3]) or 0
local limit = peak + 1
local ceiling = tonumber(l[1])
if ceiling and (tonumber(l[2]) or 0) > now and ceiling < limit then limit = ceiling end
local probe = held + 1 > peak
local last = probe and redis.call('HGET', KEYS[3], 'probe')
local probing = last and redis.call('ZSCORE', KEYS[1], last) and not redis.call('ZSCORE', KEYS[2], last)
local waiting = redis.call('ZSCORE', KEYS[4], ARGV[2])
local others = redis.call('ZCARD', KEYS[4]) - (waiting and 1 or 0)
if held >= limit or probing or (others > 0 and not waiting) then
  redis.call('ZADD', KEYS[4], now, ARGV[2])
  redis.call('PEXPIRE', KEYS[4], 5000)
  return {0, held}
end
redis.call('ZREM', KEYS[4], ARGV[2])
if probe then redis.call('HSET', KEYS[3], 'probe', ARGV[1]) end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[3]), ARGV[1])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[3]))
return {1, held + 1}`;

/**
 * The host greeted a leased connection (KEYS: leases, greeted, lessons; ARGV: lease id, lessons ms, lease ms): the most
 * it has greeted at once (its peak) may grow.
 */
const GREETED = `${NOW}
local expires = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not expires then return 0 end
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
redis.call('ZADD', KEYS[2], expires, ARGV[1])
redis.call('PEXPIRE', KEYS[2], tonumber(ARGV[3]))
local n = redis.call('ZCARD', KEYS[2])
if n > (tonumber(redis.call('HGET', KEYS[3], 'peak')) or 0) then redis.call('HSET', KEYS[3], 'peak', n) end
redis.call('PEXPIRE', KEYS[3], tonumber(ARGV[2]))
return n`;

// The lower ceiling while the known one holds (h: lessons key, v: the ceiling, ms: how long it holds).
const MERGE_CEILING = `local function mergeCeiling(h, v, ms)
  local c = tonumber(redis.call('HGET', h, 'ceiling'))
  local u = tonumber(redis.call('HGET', h, 'ceilingUntil')) or 0
  if c and u > now and c < v then v = c end
  redis.call('HSET', h, 'ceiling', v, 'ceilingUntil', math.max(u, now + ms))
end`;

/**
 * The host refused a leased connection with a 4xx greeting (KEYS: leases, lessons; ARGV: lease id, ceiling ms, lessons
 * ms): the connections every other lease holds there are its ceiling, kept before the lease is released (so no other
 * process tries the same one too many meanwhile). Returns that count.
 */
const REFUSED = `${NOW}
${MERGE_CEILING}
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local n = redis.call('ZCARD', KEYS[1]) - (redis.call('ZSCORE', KEYS[1], ARGV[1]) and 1 or 0)
if n >= 1 then
  mergeCeiling(KEYS[2], n, tonumber(ARGV[2]))
  redis.call('PEXPIRE', KEYS[2], tonumber(ARGV[3]))
end
return n`;

/** Renew this process's live leases at a host (KEYS: leases, greeted; ARGV: lease ms, ids...). */
const RENEW = `${NOW}
local expires = now + tonumber(ARGV[1])
for i = 2, #ARGV do
  redis.call('ZADD', KEYS[1], 'XX', expires, ARGV[i])
  redis.call('ZADD', KEYS[2], 'XX', expires, ARGV[i])
end
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[1]))
if redis.call('EXISTS', KEYS[2]) == 1 then redis.call('PEXPIRE', KEYS[2], tonumber(ARGV[1])) end
return 1`;

/**
 * Fold a lesson into the host's (KEYS: lessons; ARGV: ceiling, its ms, errors, non-mail, pause ms, pause reason, lessons
 * ms; '' for none): the lower ceiling while the known one holds, the lower budgets, the longer pause.
 */
const LEARN = `${NOW}
${MERGE_CEILING}
local h = KEYS[1]
if ARGV[1] ~= '' then mergeCeiling(h, tonumber(ARGV[1]), tonumber(ARGV[2])) end
if ARGV[3] ~= '' then
  local e = tonumber(redis.call('HGET', h, 'errors'))
  local m = tonumber(redis.call('HGET', h, 'nonMail'))
  if not e or tonumber(ARGV[3]) < e then redis.call('HSET', h, 'errors', ARGV[3]) end
  if not m or tonumber(ARGV[4]) < m then redis.call('HSET', h, 'nonMail', ARGV[4]) end
end
if ARGV[5] ~= '' and now + tonumber(ARGV[5]) > (tonumber(redis.call('HGET', h, 'downUntil')) or 0) then
  redis.call('HSET', h, 'downUntil', now + tonumber(ARGV[5]), 'downReason', ARGV[6])
end
redis.call('PEXPIRE', h, tonumber(ARGV[7]))
return 1`;

/** A host's lessons as ms left from now (KEYS: lessons, leases): ceiling, its ms, errors, non-mail, pause ms, reason, leases. */
const READ = `${NOW}
local l = redis.call('HMGET', KEYS[1], 'ceiling', 'ceilingUntil', 'errors', 'nonMail', 'downUntil', 'downReason')
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
local left = function(u) return math.max(0, (tonumber(u) or 0) - now) end
return {l[1] or '', left(l[2]), l[3] or '', l[4] or '', left(l[5]), l[6] or '', redis.call('ZCARD', KEYS[2])}`;

type TScripts = {
  vlAcquire(leases: string, greeted: string, lessons: string, waiting: string, id: string, owner: string, ms: number): Promise<[number, number]>;
  vlGreeted(leases: string, greeted: string, lessons: string, id: string, lessonsMs: number, leaseMs: number): Promise<number>;
  vlRefused(leases: string, lessons: string, id: string, ceilingMs: number, lessonsMs: number): Promise<number>;
  vlRenew(leases: string, greeted: string, ms: number, ...ids: string[]): Promise<number>;
  vlLearn(lessons: string, ...args: Array<string | number>): Promise<number>;
  vlRead(lessons: string, leases: string): Promise<[string, number, string, string, number, string, number]>;
};

type TDownReason = NonNullable<THostLessons['down']>['reason'];

/** The lease of a process that counts alone for now (Redis did not answer): the engine's own gate limits it. */
const ALONE: THostLease = { refused: () => Promise.resolve(null), established: () => undefined, release: () => undefined };

/**
 * Each mail host's budgets shared through Redis by every verifier process of one egress address (REDIS_URL): what a
 * host taught one process (its connection limit, its session budget, a pause) reaches the others within REFRESH_MS, and
 * its connections are counted across them by a semaphore per host, a sorted set of leases scored by expiry (taken
 * atomically by a Lua script, renewed while the connection lives, dropped when it ends, lapsing if its process dies).
 *
 * Redis is asked only when a connection opens or ends, when a host teaches something, and to refresh a host's lessons
 * every REFRESH_MS while it is in use. When Redis does not answer, the process counts alone (its own limits) for
 * PAUSE_MS, says so once, and never fails a verification for it.
 */
export class RedisHostBudgets implements THostBudgetStore {
  private readonly prefix: string;
  private readonly owner = randomUUID();
  private readonly scripts: TScripts;
  private readonly read = new Map<string, { lessons: THostLessons | undefined; at: number; leases: number }>();
  private readonly reading = new Set<string>();
  /** This process's live leases per host, renewed together; with what to do when another process waits there. */
  private readonly live = new Map<string, Map<string, Array<() => void>>>();
  /** The connection that hears which hosts other processes wait for (opened with the first lease). */
  private listener: Redis | null = null;
  private renewal: NodeJS.Timeout | null = null;
  private aloneUntil = 0;
  private warned = false;
  private closed = false;
  private serial = 0;
  private readonly warn: (message: string) => void;
  private readonly leaseMs: number;

  /**
   * `namespace`: the processes that share an egress address (and see the same mail hosts). `warn` says once that Redis
   * did not answer; `leaseMs` is how long a lease outlives its last renewal (renewed every third of it).
   */
  constructor(
    private readonly redis: Redis,
    namespace: string,
    opts: { warn?: (message: string) => void; leaseMs?: number } = {},
  ) {
    this.prefix = `${PREFIX}${namespace}:`;
    this.warn = opts.warn ?? ((message) => process.emitWarning(message));
    this.leaseMs = opts.leaseMs ?? LEASE_MS;
    for (const [name, numberOfKeys, lua] of [
      ['vlAcquire', 4, ACQUIRE],
      ['vlGreeted', 3, GREETED],
      ['vlRefused', 2, REFUSED],
      ['vlRenew', 2, RENEW],
      ['vlLearn', 1, LEARN],
      ['vlRead', 2, READ],
    ] as const) {
      redis.defineCommand(name, { numberOfKeys, lua });
    }
    this.scripts = redis as unknown as TScripts;
  }

  private keys(host: string) {
    const at = `${this.prefix}${host}:`;
    return { leases: `${at}leases`, greeted: `${at}greeted`, lessons: `${at}lessons`, waiting: `${at}waiting` };
  }

  /**
   * Runs a Redis call unless this process counts alone for now or the store is closed (a release still goes out); a
   * failure makes it count alone (said once).
   */
  private async call<T>(work: () => Promise<T>, evenClosed = false): Promise<T | undefined> {
    if (Date.now() < this.aloneUntil || (this.closed && !evenClosed)) return undefined;
    try {
      return await work();
    } catch (error) {
      if (this.closed) return undefined;
      this.aloneUntil = Date.now() + PAUSE_MS;
      if (!this.warned) {
        this.warned = true;
        this.warn(`Redis did not answer (${(error as Error).message}): each verifier process counts the mail hosts' connections alone until it does`);
      }
      return undefined;
    }
  }

  lessons(host: string): THostLessons | undefined {
    const known = this.read.get(host);
    if (!known || Date.now() - known.at >= REFRESH_MS) this.refresh(host);
    return known?.lessons;
  }

  /** Connections every process holds at each host, as last read (for /metrics). */
  sharedConnections(): Map<string, number> {
    return new Map([...this.read].map(([host, { leases }]) => [host, leases]));
  }

  private refresh(host: string): void {
    if (this.reading.has(host)) return;
    this.reading.add(host);
    const { lessons, leases } = this.keys(host);
    void this.call(() => this.scripts.vlRead(lessons, leases))
      .then((row) => {
        const known = this.read.get(host);
        this.read.delete(host); // set again last: the map's first hosts are the least recently read
        if (row) this.read.set(host, { lessons: parseLessons(row), at: Date.now(), leases: row[6] });
        else this.read.set(host, known ?? { lessons: undefined, at: Date.now(), leases: 0 });
        for (const oldest of this.read.keys()) {
          if (this.read.size <= MAX_READ_HOSTS) break;
          this.read.delete(oldest);
        }
      })
      .finally(() => this.reading.delete(host));
  }

  learn(host: string, lessons: THostLessons): void {
    const { ceiling, budget, down } = lessons;
    const args = [ceiling?.value ?? '', ceiling ? Math.ceil(ceiling.forMs) : '', budget?.errors ?? '', budget?.nonMail ?? '', down ? Math.ceil(down.forMs) : '', down?.reason ?? '', LESSONS_MS];
    void this.call(() => this.scripts.vlLearn(this.keys(host).lessons, ...args)).then(() => {
      this.read.delete(host); // read again at the next use
    });
  }

  async lease(host: string, waitMs: number, signal?: AbortSignal): Promise<THostLease | null> {
    const keys = this.keys(host);
    const id = `${this.owner}|${++this.serial}`;
    const until = Date.now() + waitMs;
    let announced = false;
    for (;;) {
      if (signal?.aborted || this.closed) return null;
      const answer = await this.call(() => this.scripts.vlAcquire(keys.leases, keys.greeted, keys.lessons, keys.waiting, id, this.owner, this.leaseMs));
      if (!answer) return ALONE;
      const [granted, held] = answer;
      const known = this.read.get(host);
      if (known) known.leases = held;
      if (granted === 1) return this.hold(host, id);
      // the first refusal tells the processes holding connections there: their idle sessions give their slots up
      if (!announced) {
        announced = true;
        await this.call(() => this.redis.publish(this.wantedChannel, `${this.owner} ${host}`));
      }
      if (Date.now() >= until) return null;
      await waitOrAbort(POLL_MS + Math.random() * POLL_MS, signal);
    }
  }

  /** A lease granted: renewed with the others of this process until released. */
  private hold(host: string, id: string): THostLease {
    const keys = this.keys(host);
    let live = this.live.get(host);
    if (!live) this.live.set(host, (live = new Map()));
    const listeners: Array<() => void> = [];
    live.set(id, listeners);
    this.startRenewal();
    this.listen();
    let released = false;
    return {
      onWanted: (listener) => listeners.push(listener),
      refused: async () => {
        const others = await this.call(() => this.scripts.vlRefused(keys.leases, keys.lessons, id, CEILING_TTL_MS, LESSONS_MS));
        this.read.delete(host); // the ceiling is read again at the next use
        return others ?? null;
      },
      established: () => void this.call(() => this.scripts.vlGreeted(keys.leases, keys.greeted, keys.lessons, id, LESSONS_MS, this.leaseMs)),
      release: () => {
        if (released) return;
        released = true;
        live.delete(id);
        if (live.size === 0) this.live.delete(host);
        void this.call(() => this.redis.multi().zrem(keys.leases, id).zrem(keys.greeted, id).exec(), true);
      },
    };
  }

  private startRenewal(): void {
    if (this.renewal) return;
    this.renewal = setInterval(() => {
      if (this.live.size === 0) {
        this.stopRenewal();
        return;
      }
      for (const [host, ids] of this.live) {
        const keys = this.keys(host);
        void this.call(() => this.scripts.vlRenew(keys.leases, keys.greeted, this.leaseMs, ...ids.keys()));
      }
    }, this.leaseMs / 3);
    this.renewal.unref();
  }

  private get wantedChannel(): string {
    return `${this.prefix}wanted`;
  }

  /** Hears which hosts other processes wait for, and tells this process's leases there (their idle sessions close). */
  private listen(): void {
    if (this.listener) return;
    const listener = this.redis.duplicate();
    this.listener = listener;
    listener.on('error', () => undefined);
    listener.on('message', (_channel: string, message: string) => {
      const [owner, host = ''] = message.split(' ');
      if (owner === this.owner) return;
      for (const listeners of this.live.get(host)?.values() ?? []) for (const wanted of listeners) wanted();
    });
    listener.subscribe(this.wantedChannel).catch(() => undefined);
  }

  private stopRenewal(): void {
    if (this.renewal) clearInterval(this.renewal);
    this.renewal = null;
  }

  /** Stop: no more leases, no more renewals (the leases of sessions still open lapse within `leaseMs`). */
  close(): void {
    this.closed = true;
    this.stopRenewal();
    this.listener?.disconnect();
    this.listener = null;
  }
}

function parseLessons([ceiling, ceilingMs, errors, nonMail, downMs, reason]: [string, number, string, string, number, string, number]): THostLessons {
  const lessons: THostLessons = {};
  if (ceiling !== '' && ceilingMs > 0) lessons.ceiling = { value: Number(ceiling), forMs: ceilingMs };
  if (errors !== '' && nonMail !== '') lessons.budget = { errors: Number(errors), nonMail: Number(nonMail) };
  if (downMs > 0 && reason !== '') lessons.down = { forMs: downMs, reason: reason as TDownReason };
  return lessons;
}

function waitOrAbort(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
