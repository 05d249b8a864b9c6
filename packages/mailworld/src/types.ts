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
  stop(): Promise<void>;
}

export type TStartMailWorldOptions = {
  corpus?: TCorpusEntry[];
  greylistDelayMs?: number;
  tarpitDelayMs?: number;
  preferPort25?: boolean;
};

/** How a mailbox exists on a host that checks recipients. */
export type TMailboxState = 'active' | 'full' | 'disabled';
