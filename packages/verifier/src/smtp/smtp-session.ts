import tls from 'node:tls';
import net from 'node:net';
import type { Duplex } from 'node:stream';
import { parseEnhancedCode, type TSmtpReply } from './classify-reply';
import { eventLoopClock } from '../clock';
import type { TClock, TDial } from '../types';
import { measuredLagMs, startLagAwareTimeout } from '../lag-aware-timer';

export type TSmtpFailureKind = 'timeout' | 'refused' | 'connection_lost' | 'protocol';

/** A transport-level failure: no reply could be had (timeout, refused or lost connection, garbage). */
export class SmtpFailure extends Error {
  constructor(
    readonly kind: TSmtpFailureKind,
    message: string,
    /** True when a timeout was cut short by the verification's total deadline (not the host's fault). */
    readonly clipped = false,
  ) {
    super(message);
    this.name = 'SmtpFailure';
  }
}

export type TTranscriptSink = (direction: 'C' | 'S', line: string) => void;

export type TSessionOptions = {
  /** IP address (or host name) to connect to. */
  address: string;
  port: number;
  /** MX host name, used as TLS server name. */
  serverName: string;
  heloName: string;
  dial: TDial;
  connectMs: number;
  replyMs: number;
  /**
   * Time left (ms) to the deadline of the verification that opens the session: reply timeouts never run past it (each
   * verification that uses the session sets its own, `setBudget`). A duration, not a time: the engine's deadlines are
   * on its own (injectable) clock, the socket's timers on real time, and only durations cross from one to the other.
   */
  budgetMs: number;
  /** The time the socket timers run on (default: the event loop's, clock.ts); the budget is spent on it. */
  timerClock?: TClock;
  sink?: TTranscriptSink;
};

const MAX_LINE = 4096;
/** The longest wait for the reply to QUIT (the reply timeout when that is shorter). */
export const QUIT_REPLY_MS = 200;

const NONMAIL = /^(EHLO|HELO|STARTTLS|RSET|NOOP|VRFY|EXPN|HELP|ETRN)\b/i;

/** Whether a command counts as non-mail for the servers' per-session counters (the engine's session-budget.ts). */
export function isNonMailCommand(line: string): boolean {
  return NONMAIL.test(line);
}

/** The time on the clock the session's socket timers run on. */
const timerNow = (options: Pick<TSessionOptions, 'timerClock'>): number => (options.timerClock ?? eventLoopClock).now();

/** Default dial: a plain TCP connection. */
// noDelay: commands go out as written (pipelined ones too), never held back by Nagle's algorithm until the host's delayed
// acknowledgement (about 40 ms on Linux) comes back.
export const dialTcp: TDial = ({ host, port }) => net.connect({ host, port, noDelay: true });

/** A client SMTP session written for verification: EHLO/HELO, STARTTLS, MAIL, RCPT, RSET, QUIT. */
export class SmtpSession {
  private socket: Duplex;
  private buffer = '';
  private pendingLines: string[] = [];
  private readonly replies: TSmtpReply[] = [];
  private waiter: { resolve: (r: TSmtpReply) => void; reject: (e: Error) => void } | null = null;
  private failure: SmtpFailure | null = null;
  extensions = new Set<string>();
  tls = false;
  /** Number of RCPT commands sent on this session. */
  recipients = 0;
  /** Number of verifications this session has served. */
  uses = 0;
  /** 4xx/5xx replies received in this session (servers count them across the session: session-budget.ts). */
  errors = 0;
  /** Non-mail commands sent in this session (EHLO, STARTTLS, RSET…: Exim counts them). */
  nonMail = 0;
  /** How long (ms) the host took to answer EHLO: the session's round trip before any error (null before EHLO). */
  helloMs: number | null = null;
  /** How long (ms) the host took to answer the last command group sent by `pipeline`, first write to last reply. */
  lastGroupMs = 0;
  /**
   * The mail transaction left open after its last batch (MAIL FROM accepted, no RSET sent): the next batch adds its
   * recipients to it (`opening`: its MAIL FROM and the reply, shown in the transcript of each batch that joins it). Null
   * when none is open (a new session, or MAIL FROM refused).
   */
  transaction: { smtputf8: boolean; recipients: number; opening: Array<['C' | 'S', string]> } | null = null;
  /** Due to retire: the engine QUITs it instead of reusing it (the host refused service, or a budget is spent). */
  retiring = false;
  /** Ended by a QUIT sent in its last transaction (a last call, session-budget.ts) and answered by the host. */
  saidGoodbye = false;
  /** Its successor has been opened beside it (once, halfway to its retirement). */
  prewarmed = false;
  sink: TTranscriptSink | undefined;

  private constructor(
    socket: Duplex,
    private readonly options: TSessionOptions,
    /** when the budget runs out, on the timer clock */
    private endsAt: number,
  ) {
    this.socket = socket;
    this.sink = options.sink;
    this.attach(socket);
  }

  /** The verification now using the session: the time left to its deadline (ms) clips reply timeouts. */
  setBudget(ms: number): void {
    this.endsAt = timerNow(this.options) + ms;
  }

  get closed(): boolean {
    return this.failure !== null;
  }

  private attach(socket: Duplex): void {
    socket.setEncoding?.('utf8');
    socket.on('data', this.onData);
    socket.on('error', this.onError);
    socket.on('close', this.onClose);
  }

  private detach(socket: Duplex): void {
    socket.off('data', this.onData);
    socket.off('error', this.onError);
    socket.off('close', this.onClose);
  }

  private readonly onData = (chunk: string | Buffer): void => {
    this.buffer += typeof chunk === 'string' ? chunk : chunk.toString('utf8');
    let index: number;
    while ((index = this.buffer.indexOf('\n')) >= 0) {
      const line = this.buffer.slice(0, index).replace(/\r$/, '');
      this.buffer = this.buffer.slice(index + 1);
      this.onLine(line);
    }
    if (this.buffer.length > MAX_LINE) this.fail(new SmtpFailure('protocol', 'server sent an over-long line'));
  };

  private readonly onError = (error: Error): void => {
    const code = (error as NodeJS.ErrnoException).code;
    this.fail(new SmtpFailure(code === 'ECONNREFUSED' ? 'refused' : 'connection_lost', `connection error: ${code ?? error.message}`));
  };

  private readonly onClose = (): void => {
    this.fail(new SmtpFailure('connection_lost', 'server closed the connection'));
  };

  private onLine(line: string): void {
    this.sink?.('S', line);
    const match = /^(\d{3})([ -]?)(.*)$/.exec(line);
    if (!match) {
      this.fail(new SmtpFailure('protocol', `unparseable reply line: ${line.slice(0, 100)}`));
      return;
    }
    this.pendingLines.push(line);
    if (match[2] === '-') return;
    const lines = this.pendingLines;
    this.pendingLines = [];
    const texts = lines.map((l) => l.slice(4));
    if (Number(match[1]) >= 400) this.errors++;
    const reply: TSmtpReply = {
      code: Number(match[1]),
      enhanced: parseEnhancedCode(texts[texts.length - 1] ?? '') ?? parseEnhancedCode(texts[0] ?? ''),
      text: texts.join(' ').trim(),
      lines,
    };
    if (this.waiter) {
      const w = this.waiter;
      this.waiter = null;
      w.resolve(reply);
    } else this.replies.push(reply);
  }

  private readonly endListeners: Array<() => void> = [];

  /** Calls `listener` once when the session ends (closed by either side or failed); at once if it has ended. */
  onEnd(listener: () => void): void {
    if (this.failure) listener();
    else this.endListeners.push(listener);
  }

  private fail(failure: SmtpFailure): void {
    if (this.failure) return;
    this.failure = failure;
    for (const listener of this.endListeners.splice(0)) listener();
    if (this.waiter) {
      const w = this.waiter;
      this.waiter = null;
      w.reject(failure);
    }
    this.socket.destroy();
  }

  /** The next reply, within the reply timeout (or `limitMs` when shorter) and the deadline; a timeout fails the session. */
  private readReply(limitMs = Number.POSITIVE_INFINITY): Promise<TSmtpReply> {
    const queued = this.replies.shift();
    if (queued) return Promise.resolve(queued);
    if (this.failure) return Promise.reject(this.failure);
    const remaining = this.endsAt - timerNow(this.options);
    const timeoutMs = Math.max(1, Math.min(this.options.replyMs, limitMs, remaining));
    return new Promise<TSmtpReply>((resolve, reject) => {
      // our own event-loop lag does not count as the host's silence (see lag-aware-timer.ts)
      const cancel = startLagAwareTimeout(timeoutMs, () => {
        this.waiter = null;
        const failure = new SmtpFailure('timeout', `no reply within ${timeoutMs} ms`, remaining < this.options.replyMs);
        this.fail(failure);
        reject(failure);
      });
      this.waiter = {
        resolve: (r) => {
          cancel();
          resolve(r);
        },
        reject: (e) => {
          cancel();
          reject(e);
        },
      };
    });
  }

  /** Send one command line and read its reply. */
  async command(line: string): Promise<TSmtpReply> {
    if (this.failure) throw this.failure;
    this.sink?.('C', line);
    if (isNonMailCommand(line)) this.nonMail++;
    this.socket.write(`${line}\r\n`);
    return this.readReply();
  }

  /**
   * Send several commands in one write and read their replies in order (RFC 2920 PIPELINING; only when the server
   * offers it). Without PIPELINING, one command at a time. Stops at the first transport failure, returned beside
   * the replies read before it. Without PIPELINING, a reply for which `stopAt` answers true stops the commands not
   * yet sent (their replies are missing from the result).
   */
  async pipeline(lines: string[], stopAt?: (reply: TSmtpReply) => boolean): Promise<{ replies: TSmtpReply[]; failure: SmtpFailure | null }> {
    const replies: TSmtpReply[] = [];
    const started = timerNow(this.options);
    const lagBefore = measuredLagMs();
    // the host's time: the wait less our own event-loop lag meanwhile (on the real clock; an injected one has none)
    const took = (): number => Math.max(0, timerNow(this.options) - started - (this.options.timerClock ? 0 : measuredLagMs() - lagBefore));
    try {
      if (!this.extensions.has('PIPELINING')) {
        // one at a time: a reply that ends the session's service (`stopAt`) stops the commands still to send
        for (const line of lines) {
          const reply = await this.command(line);
          replies.push(reply);
          if (stopAt?.(reply)) break;
        }
        this.lastGroupMs = took();
        return { replies, failure: null };
      }
      if (this.failure) throw this.failure;
      for (const line of lines) {
        this.sink?.('C', line);
        if (isNonMailCommand(line)) this.nonMail++;
      }
      this.socket.write(lines.map((line) => `${line}\r\n`).join(''));
      for (let i = 0; i < lines.length; i++) replies.push(await this.readReply());
      this.lastGroupMs = took();
      return { replies, failure: null };
    } catch (error) {
      if (error instanceof SmtpFailure) return { replies, failure: error };
      throw error;
    }
  }

  /** Connect, read the greeting and greet back (EHLO, or HELO when EHLO is refused); STARTTLS when offered. */
  static async open(options: TSessionOptions): Promise<{ session: SmtpSession; greeting: TSmtpReply }> {
    const endsAt = timerNow(options) + options.budgetMs;
    const socket = options.dial({ host: options.address, port: options.port });
    await new Promise<void>((resolve, reject) => {
      const connecting = (socket as Partial<net.Socket>).connecting;
      if (connecting === false) return resolve();
      const remaining = endsAt - timerNow(options);
      const timeoutMs = Math.max(1, Math.min(options.connectMs, remaining));
      const cancel = startLagAwareTimeout(timeoutMs, () => {
        cleanup();
        socket.destroy();
        reject(new SmtpFailure('timeout', `connect to ${options.address}:${options.port} timed out after ${timeoutMs} ms`, remaining < options.connectMs));
      });
      const onConnect = (): void => {
        cleanup();
        resolve();
      };
      const onError = (error: Error): void => {
        cleanup();
        socket.destroy();
        const code = (error as NodeJS.ErrnoException).code;
        reject(new SmtpFailure(code === 'ECONNREFUSED' ? 'refused' : 'connection_lost', `connect to ${options.address}:${options.port} failed: ${code ?? error.message}`));
      };
      const cleanup = (): void => {
        cancel();
        socket.off('connect', onConnect);
        socket.off('error', onError);
      };
      socket.once('connect', onConnect);
      socket.once('error', onError);
    });
    const session = new SmtpSession(socket, options, endsAt);
    const greeting = await session.readReply();
    return { session, greeting };
  }

  /** EHLO (HELO on a 5xx), recording the advertised extensions. */
  async greet(): Promise<TSmtpReply> {
    const asked = timerNow(this.options);
    let reply = await this.command(`EHLO ${this.options.heloName}`);
    this.helloMs = timerNow(this.options) - asked;
    this.extensions = new Set();
    if (reply.code >= 500 && reply.code < 600) {
      reply = await this.command(`HELO ${this.options.heloName}`);
      return reply;
    }
    if (reply.code === 250) {
      for (const line of reply.lines.slice(1)) this.extensions.add((line.slice(4).split(' ')[0] ?? '').toUpperCase());
    }
    return reply;
  }

  /** Upgrade to TLS (self-signed certificates accepted: this is a probe, not a message transfer). */
  async startTls(): Promise<TSmtpReply> {
    const reply = await this.command('STARTTLS');
    if (reply.code !== 220) return reply;
    const plain = this.socket;
    this.detach(plain);
    const secure = await new Promise<tls.TLSSocket>((resolve, reject) => {
      const servername = net.isIP(this.options.serverName) ? undefined : this.options.serverName;
      const socket = tls.connect({ socket: plain, rejectUnauthorized: false, servername });
      const timeoutMs = Math.max(1, Math.min(this.options.connectMs, this.endsAt - timerNow(this.options)));
      const cancel = startLagAwareTimeout(timeoutMs, () => {
        socket.destroy();
        reject(new SmtpFailure('timeout', `TLS handshake timed out after ${timeoutMs} ms`));
      });
      socket.once('secureConnect', () => {
        cancel();
        resolve(socket);
      });
      socket.once('error', (error) => {
        cancel();
        reject(new SmtpFailure('connection_lost', `TLS handshake failed: ${error.message}`));
      });
    }).catch((error: SmtpFailure) => {
      this.fail(error); // destroys the plain socket (still this.socket)
      throw error;
    });
    this.socket = secure;
    this.tls = true;
    this.attach(secure);
    this.sink?.('S', `[TLS established: ${secure.getProtocol() ?? 'tls'}]`);
    return reply;
  }

  /**
   * QUIT politely and close, once the host has answered (or after QUIT_REPLY_MS of its silence). The wait is a socket
   * deadline like every reply wait (lag-aware, real time): what it waits for is the host's answer on a real socket.
   */
  async quit(): Promise<void> {
    if (this.failure) return;
    try {
      this.sink?.('C', 'QUIT');
      this.socket.write('QUIT\r\n');
      // no verification uses the session any more: its deadline does not clip this wait
      this.setBudget(Number.POSITIVE_INFINITY);
      await this.readReply(QUIT_REPLY_MS);
    } catch {
      // the server may just close, or stay silent
    }
    this.close();
  }

  close(): void {
    this.fail(new SmtpFailure('connection_lost', 'session closed by the client'));
  }
}
