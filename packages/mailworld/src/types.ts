export type TExpectedStatus = 'valid' | 'invalid' | 'catch_all' | 'unknown';
export type TExpected = { status: TExpectedStatus; reason: string };
export type TCorpusEntry = { email: string; expected: TExpected; tags: string[] };

export interface TMailWorld {
  /** e.g. ['127.0.0.1:40053'] — UDP and TCP on the same port */
  dnsServers: string[];
  /** 25 when every mail host got its own 127.x.y.z:25, else the one high port all hosts listen on */
  smtpPort: number;
  /** lower-cased address -> expected verdict, for every address the world knows */
  truth: Map<string, TExpected>;
  /** scenario name -> a few example addresses of that scenario */
  examples: Record<string, string[]>;
  /** how long a greylisting host keeps answering 451 for a (client, sender, recipient) triplet */
  greylistDelayMs: number;
  /** 'fast' (hosts answer at once) or 'realistic' (greeting delays and per-command latency, see README) */
  preset: TMailWorldPreset;
  /** What a host has seen from its clients (connections, the most open at once from one IP, 421s for too many and when each was closed, commands received). */
  hostStats(hostName: string): THostStats;
  stop(): Promise<void>;
}

export type TMailWorldPreset = 'fast' | 'realistic';
export type THostStats = {
  connections: number;
  peakConcurrentPerClient: number;
  refusedTooMany: number;
  commands: number;
  /**
   * Each connection turned away for too many, in order: its number among the host's connections (from 1) and how many
   * connections the host had taken when the client closed it (it had read the 421 then); null while it is open.
   */
  refusals: Array<{ connection: number; closedAfter: number | null }>;
};

export type TStartMailWorldOptions = {
  corpus?: TCorpusEntry[];
  greylistDelayMs?: number;
  tarpitDelayMs?: number;
  preferPort25?: boolean;
  /**
   * 'fast' (default, for unit tests): every host greets and answers at once.
   * 'realistic': each host waits 100–500 ms before its greeting and 10–50 ms before each reply (fixed per host,
   * derived from its name), and a postscreen host's first-connection pause is `postscreenPauseMs`.
   */
  preset?: TMailWorldPreset;
  /** realistic preset: [min, max] greeting delay per host (default [100, 500]) */
  greetingDelayMs?: [number, number];
  /** realistic preset: [min, max] per-reply latency per host (default [10, 50]) */
  commandLatencyMs?: [number, number];
  /** how long a postscreen host keeps a new client waiting for its greeting (fast: 0, realistic: 2000) */
  postscreenPauseMs?: number;
  /** the world's clock for greylisting (tests that fake time pass one; default Date.now) */
  now?: () => number;
};

/** How a mailbox exists on a host that checks recipients. */
export type TMailboxState = 'active' | 'full' | 'disabled';
