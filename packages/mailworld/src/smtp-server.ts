import net from 'node:net';
import tls from 'node:tls';
import { makeSessionId, PERSONAS, type TPersonaReplies } from './personas';
import type { THostSpec } from './scenarios';
import type { THostStats, TMailboxState } from './types';

/** State shared by every SMTP host of one world. */
export type TSmtpWorldState = {
  mailboxes: ReadonlyMap<string, TMailboxState>;
  /** (client IP, MAIL FROM, RCPT TO) -> when the triplet was first seen (ms) */
  greylist: Map<string, number>;
  greylistDelayMs: number;
  tarpitDelayMs: number;
  secureContext: tls.SecureContext;
  sockets: Set<net.Socket>;
  timers: Set<NodeJS.Timeout>;
  now(): number;
  /** ms before a host's greeting (realistic preset), on top of any postscreen pause */
  greetingDelayMs(host: THostSpec): number;
  /** ms between a command's arrival and its reply (realistic preset; pipelined commands share it) */
  latencyMs(host: THostSpec): number;
  postscreenPauseMs: number;
  /** `${host}|${clientIp}` that passed a postscreen host's first-connection test */
  postscreenPassed: Set<string>;
  /** `${host}|${clientIp}` -> connections open now */
  openByClient: Map<string, number>;
  stats: Map<string, THostStats>;
};

export function getHostStats(state: TSmtpWorldState, hostName: string): THostStats {
  let stats = state.stats.get(hostName);
  if (!stats) {
    stats = { connections: 0, peakConcurrentPerClient: 0, refusedTooMany: 0, commands: 0, refusals: [] };
    state.stats.set(hostName, stats);
  }
  return stats;
}

const MAX_LINE = 4096;
const IDLE_TIMEOUT_MS = 300_000;

function sleep(ms: number, state: TSmtpWorldState): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      state.timers.delete(timer);
      resolve();
    }, ms);
    state.timers.add(timer);
  });
}

function parsePath(argument: string, keyword: 'FROM' | 'TO'): string | null {
  const match = new RegExp(`^${keyword}:\\s*(?:<([^<>]*)>|([^\\s<>]+))(?:\\s+.*)?$`, 'i').exec(argument.trim());
  if (!match) return null;
  return (match[1] ?? match[2] ?? '').trim();
}

class SmtpSession {
  private io: net.Socket;
  private buffer = '';
  private queue: Promise<void> = Promise.resolve();
  private generation = 0;
  private closed = false;
  private helo: string | null = null;
  private secure = false;
  private sender: string | null = null;
  private recipients = 0;
  private rcptCommands = 0;
  /** a postscreen host's first connection from this client: 450 4.3.2 to RCPT */
  private postscreenTest = false;
  private readonly id: string;
  private readonly persona: TPersonaReplies;
  private readonly clientIp: string;
  private readonly onData = (chunk: Buffer) => this.receive(chunk);

  constructor(
    private readonly raw: net.Socket,
    private readonly host: THostSpec,
    private readonly domains: ReadonlySet<string>,
    private readonly state: TSmtpWorldState,
  ) {
    this.io = raw;
    this.id = makeSessionId(host.persona);
    this.persona = PERSONAS[host.persona];
    this.clientIp = (raw.remoteAddress ?? '127.0.0.1').replace(/^::ffff:/, '');
    raw.on('close', () => {
      this.closed = true;
    });
    raw.setTimeout(IDLE_TIMEOUT_MS, () => {
      this.write(`421 4.4.2 ${host.name} Error: timeout exceeded`);
      this.io.end();
    });
  }

  start(): void {
    const clientKey = `${this.host.name}|${this.clientIp}`;
    const openByClient = this.state.openByClient;
    openByClient.set(clientKey, (openByClient.get(clientKey) ?? 0) + 1);
    let counted = true;
    const uncount = () => {
      if (!counted) return;
      counted = false;
      openByClient.set(clientKey, (openByClient.get(clientKey) ?? 1) - 1);
    };
    // a client's QUIT or close frees its slot at once (the FIN may still be in flight when it connects again)
    this.raw.on('end', uncount);
    this.raw.on('close', uncount);
    this.uncount = uncount;
    const stats = getHostStats(this.state, this.host.name);
    const connection = ++stats.connections;
    this.postscreenTest = Boolean(this.host.postscreen) && !this.state.postscreenPassed.has(clientKey);
    this.io.on('data', this.onData);
    const pause = this.state.greetingDelayMs(this.host) + (this.postscreenTest ? this.state.postscreenPauseMs : 0);
    this.enqueue(async () => {
      if (pause > 0) await sleep(pause, this.state);
      else await new Promise((resolve) => setImmediate(resolve));
      // counted when the greeting is due, so connections the client has already closed are not counted
      const open = openByClient.get(clientKey) ?? 0;
      const limit = this.host.maxConnsPerClient;
      if (limit !== undefined && open > limit) {
        stats.refusedTooMany++;
        const refusal: THostStats['refusals'][number] = { connection, closedAfter: null };
        stats.refusals.push(refusal);
        const closed = () => (refusal.closedAfter ??= stats.connections);
        if (this.raw.readableEnded || this.raw.destroyed) closed();
        this.raw.on('end', closed);
        this.raw.on('close', closed);
        this.write(`421 4.7.0 ${this.host.name} Error: too many connections from ${this.clientIp}`);
        this.io.end();
        this.closed = true;
        return null;
      }
      stats.peakConcurrentPerClient = Math.max(stats.peakConcurrentPerClient, open);
      return this.persona.banner(this.host.name, this.id);
    });
  }

  private uncount: () => void = () => {};

  private receive(chunk: Buffer): void {
    this.buffer += chunk.toString('utf8');
    let newline = this.buffer.indexOf('\n');
    while (newline >= 0) {
      const line = this.buffer.slice(0, newline).replace(/\r$/, '');
      this.buffer = this.buffer.slice(newline + 1);
      this.enqueueCommand(line);
      newline = this.buffer.indexOf('\n');
    }
    if (this.buffer.length > MAX_LINE) {
      this.buffer = '';
      this.enqueue(() => '500 5.5.0 Error: line too long');
    }
  }

  private enqueueCommand(line: string): void {
    getHostStats(this.state, this.host.name).commands++;
    const generation = this.generation;
    const arrived = Date.now();
    this.enqueue(async () => {
      // network latency: a reply leaves `latency` after its command arrived (pipelined commands share the wait)
      const wait = arrived + this.state.latencyMs(this.host) - Date.now();
      if (wait > 0) await sleep(wait, this.state);
      return generation === this.generation ? this.handle(line) : null;
    });
  }

  /** Replies go out in order; a tarpit or slow host waits before each one. */
  private enqueue(makeReply: () => string | null | Promise<string | null>): void {
    this.queue = this.queue.then(async () => {
      if (this.closed) return;
      if (this.host.tarpit) await sleep(this.state.tarpitDelayMs, this.state);
      if (this.host.commandDelayMs) await sleep(this.host.commandDelayMs, this.state);
      if (this.closed) return;
      const reply = await makeReply();
      if (reply !== null) this.write(reply);
    });
  }

  private write(reply: string): void {
    if (!this.closed && this.io.writable) this.io.write(`${reply}\r\n`);
  }

  private resetTransaction(): void {
    this.sender = null;
    this.recipients = 0;
  }

  private handle(line: string): string | null {
    const match = /^([A-Za-z]+)(?:\s+(.*))?$/.exec(line);
    if (!match) return '500 5.5.2 Error: bad syntax';
    const verb = (match[1] ?? '').toUpperCase();
    const argument = (match[2] ?? '').trim();
    switch (verb) {
      case 'EHLO':
      case 'HELO':
        return this.handleHello(verb, argument);
      case 'STARTTLS':
        return this.handleStartTls();
      case 'MAIL':
        return this.handleMail(argument);
      case 'RCPT':
        return this.handleRcpt(argument);
      case 'DATA':
        if (this.recipients === 0) return '503 5.5.1 Error: need RCPT command';
        return '554 5.7.0 Error: this mail world verifies recipients and does not accept messages';
      case 'RSET':
        this.resetTransaction();
        return '250 2.0.0 Ok';
      case 'NOOP':
        return '250 2.0.0 Ok';
      case 'VRFY':
        return '252 2.0.0 Cannot VRFY user; try RCPT to attempt delivery';
      case 'HELP':
        return '214 2.0.0 Commands: EHLO HELO STARTTLS MAIL RCPT DATA RSET NOOP VRFY QUIT';
      case 'QUIT': {
        const reply = this.persona.quit(this.host.name, this.id);
        this.write(reply);
        this.uncount();
        this.io.end();
        this.closed = true;
        return null;
      }
      default:
        return '502 5.5.2 Error: command not recognized';
    }
  }

  private handleHello(verb: 'EHLO' | 'HELO', argument: string): string {
    if (!argument) return `501 5.5.4 Syntax: ${verb} hostname`;
    this.helo = argument;
    this.resetTransaction();
    if (verb === 'HELO') return this.persona.helo(this.host.name, argument, this.clientIp);
    const lines = this.persona.ehlo(this.host.name, argument, this.clientIp, Boolean(this.host.offerTls) && !this.secure);
    return lines.map((text, i) => `250${i === lines.length - 1 ? ' ' : '-'}${text}`).join('\r\n');
  }

  private handleStartTls(): string | null {
    if (!this.host.offerTls) return '502 5.5.1 Error: command not implemented';
    if (this.secure) return '554 5.5.1 Error: TLS already active';
    if (!this.helo) return '503 5.5.1 Error: send EHLO first';
    this.write('220 2.0.0 Ready to start TLS');
    // anything the client pipelined after STARTTLS is discarded (RFC 3207 §4.2)
    this.generation++;
    this.buffer = '';
    this.raw.off('data', this.onData);
    const secureSocket = new tls.TLSSocket(this.raw, { isServer: true, secureContext: this.state.secureContext });
    secureSocket.on('error', () => this.raw.destroy());
    secureSocket.on('data', this.onData);
    this.io = secureSocket;
    this.secure = true;
    this.helo = null;
    this.resetTransaction();
    return null;
  }

  private handleMail(argument: string): string {
    if (!this.helo) return '503 5.5.1 Error: send HELO/EHLO first';
    if (this.host.requireTls && !this.secure) return '530 5.7.0 Must issue a STARTTLS command first';
    if (this.sender !== null) return '503 5.5.1 Error: nested MAIL command';
    const sender = parsePath(argument, 'FROM');
    if (sender === null) return '501 5.5.4 Syntax: MAIL FROM:<address>';
    if (this.host.senderBlocked) {
      return `550 5.7.606 Access denied, banned sending IP [${this.clientIp}]. To request removal from this list please visit https://sender.office.com/ and follow the directions. AS(1430) [${this.host.name.replace('.mail.protection.outlook.com', '')}.prod.protection.outlook.com]`;
    }
    this.sender = sender;
    return this.persona.mailOk(sender, this.id);
  }

  private handleRcpt(argument: string): string {
    if (this.sender === null) return '503 5.5.1 Error: need MAIL command';
    if (this.host.requireTls && !this.secure) return '530 5.7.0 Must issue a STARTTLS command first';
    const recipient = parsePath(argument, 'TO');
    if (!recipient) return '501 5.5.4 Syntax: RCPT TO:<address>';
    this.rcptCommands++;
    if (this.host.rcptLimit !== undefined && this.rcptCommands > this.host.rcptLimit) {
      return '452 4.5.3 Error: too many recipients';
    }
    if (this.host.policyBlock) {
      return `550 5.7.1 Service unavailable; Client host [${this.clientIp}] blocked using zen.spamhaus.org`;
    }
    const address = recipient.toLowerCase();
    const at = address.lastIndexOf('@');
    if (at < 0 && address !== 'postmaster') return `501 5.1.3 Bad recipient address syntax`;
    const domain = address.slice(at + 1);
    if (at >= 0 && !this.domains.has(domain)) return `554 5.7.1 <${recipient}>: Relay access denied`;
    if (this.postscreenTest) {
      // postscreen's after-220 tests: this connection is turned away, the client passes on its next one
      this.state.postscreenPassed.add(`${this.host.name}|${this.clientIp}`);
      return '450 4.3.2 Service currently unavailable';
    }
    if (this.host.greylist && this.isGreylisted(address)) {
      const wait = Math.ceil(this.greylistDelayMs() / 1000);
      return `451 4.7.1 <${recipient}>: Recipient address rejected: Greylisted, try again in ${wait} seconds`;
    }
    const mailbox = this.state.mailboxes.get(address);
    if (this.host.accessDenied === 'unknown' && mailbox !== 'active') {
      return `550 5.4.1 Recipient address rejected: Access denied. For more information see https://aka.ms/EXOSmtpErrors [${this.host.name.replace('.mail.protection.outlook.com', '')}.prod.protection.outlook.com]`;
    }
    if (this.host.acceptAll || address === 'postmaster') return this.accept(recipient);
    if (mailbox === 'active') return this.accept(recipient);
    if (mailbox === 'full') return this.persona.mailboxFull(recipient, this.id);
    if (mailbox === 'disabled') return this.persona.mailboxDisabled(recipient, this.id);
    return this.persona.userUnknown(recipient, this.host.name, this.id);
  }

  private accept(recipient: string): string {
    this.recipients++;
    return this.persona.rcptOk(recipient, this.id);
  }

  private isGreylisted(recipient: string): boolean {
    const key = `${this.clientIp}|${(this.sender ?? '').toLowerCase()}|${recipient}`;
    const now = this.state.now();
    const firstSeen = this.state.greylist.get(key);
    if (firstSeen === undefined) {
      this.state.greylist.set(key, now);
      return true;
    }
    return now - firstSeen < this.greylistDelayMs();
  }

  private greylistDelayMs(): number {
    return Math.max(this.state.greylistDelayMs, this.host.greylistMinMs ?? 0);
  }
}

/** An SMTP server (not yet listening) with the host's scripted behaviour. */
export function createSmtpServer(host: THostSpec, domains: ReadonlySet<string>, state: TSmtpWorldState): net.Server {
  // noDelay: each reply leaves as it is written, as an MTA that flushes its replies sends them. Without it, the second of
  // two pipelined replies waited for the client's delayed acknowledgement (about 40 ms on Linux), a delay no real host adds.
  return net.createServer({ noDelay: true }, (socket) => {
    state.sockets.add(socket);
    socket.on('close', () => state.sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    if (host.silent) {
      socket.resume(); // read and ignore; never greet
      return;
    }
    new SmtpSession(socket, host, domains, state).start();
  });
}
