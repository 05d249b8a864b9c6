/** Minimal raw DNS and SMTP clients used by the tests to talk to the world on the wire, with no resolver library. */
import dgram from 'node:dgram';
import net from 'node:net';
import tls from 'node:tls';
import dnsPacket, { type DecodedPacket, type RecordType } from 'dns-packet';

/** dns-packet decodes the rcode too; its type definitions leave it out. */
export type TDnsReply = DecodedPacket & { rcode: string };

function splitServer(server: string): { host: string; port: number } {
  const [host, port] = server.split(':');
  return { host: host ?? '127.0.0.1', port: Number(port ?? 53) };
}

let nextId = 1;

export function queryDnsUdp(server: string, name: string, type: RecordType): Promise<TDnsReply> {
  const { host, port } = splitServer(server);
  const id = nextId++ & 0xffff;
  const query = dnsPacket.encode({ type: 'query', id, flags: dnsPacket.RECURSION_DESIRED, questions: [{ type, name }] });
  return new Promise((resolve, reject) => {
    const socket = dgram.createSocket('udp4');
    const timer = setTimeout(() => {
      socket.close();
      reject(new Error(`DNS UDP timeout for ${name} ${type}`));
    }, 3000);
    socket.on('message', (message) => {
      const response = dnsPacket.decode(message);
      if (response.id !== id) return;
      clearTimeout(timer);
      socket.close();
      resolve(response as TDnsReply);
    });
    socket.send(query, port, host);
  });
}

export function queryDnsTcp(server: string, name: string, type: RecordType): Promise<TDnsReply> {
  const { host, port } = splitServer(server);
  const id = nextId++ & 0xffff;
  const query = dnsPacket.streamEncode({ type: 'query', id, flags: dnsPacket.RECURSION_DESIRED, questions: [{ type, name }] });
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, host);
    let received = Buffer.alloc(0);
    socket.setTimeout(3000, () => {
      socket.destroy();
      reject(new Error(`DNS TCP timeout for ${name} ${type}`));
    });
    socket.on('error', reject);
    socket.on('connect', () => socket.write(query));
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      if (received.length >= 2 && received.length >= 2 + received.readUInt16BE(0)) {
        socket.end();
        resolve(dnsPacket.streamDecode(received) as TDnsReply);
      }
    });
  });
}

export type TSmtpReply = { code: number; lines: string[]; text: string };

/** A line-oriented SMTP client over a raw socket that can upgrade with STARTTLS. */
export class RawSmtpClient {
  private socket: net.Socket | tls.TLSSocket;
  private buffer = '';
  private waiters: (() => void)[] = [];
  private closed = false;

  private constructor(socket: net.Socket) {
    this.socket = socket;
    this.attach(socket);
  }

  private attach(socket: net.Socket | tls.TLSSocket): void {
    socket.on('data', (chunk: Buffer) => {
      this.buffer += chunk.toString('latin1');
      this.wake();
    });
    socket.on('close', () => {
      this.closed = true;
      this.wake();
    });
    socket.on('error', () => undefined);
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const waiter of waiters) waiter();
  }

  static connect(host: string, port: number): Promise<RawSmtpClient> {
    return new Promise((resolve, reject) => {
      const socket = net.connect({ host, port });
      socket.once('error', reject);
      socket.once('connect', () => {
        socket.off('error', reject);
        resolve(new RawSmtpClient(socket));
      });
    });
  }

  get received(): string {
    return this.buffer;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Resolves when the buffer changes or the socket closes, or after ms. */
  private waitForChange(ms: number): Promise<boolean> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== onChange);
        resolve(false);
      }, ms);
      const onChange = () => {
        clearTimeout(timer);
        resolve(true);
      };
      this.waiters.push(onChange);
    });
  }

  /** Read one (possibly multi-line) reply. */
  async readReply(timeoutMs = 5000): Promise<TSmtpReply> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const lines: string[] = [];
      let consumed = 0;
      let complete = false;
      for (const rawLine of this.buffer.split('\r\n').slice(0, -1)) {
        consumed += rawLine.length + 2;
        lines.push(rawLine);
        if (/^\d{3}( |$)/.test(rawLine)) {
          complete = true;
          break;
        }
      }
      if (complete) {
        this.buffer = this.buffer.slice(consumed);
        const code = Number(lines[0]?.slice(0, 3));
        return { code, lines, text: lines.map((l) => l.slice(4)).join('\n') };
      }
      if (this.closed) throw new Error(`connection closed while waiting for a reply; got ${JSON.stringify(this.buffer)}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no SMTP reply within ${timeoutMs} ms; got ${JSON.stringify(this.buffer)}`);
      await this.waitForChange(left);
    }
  }

  /** True when nothing at all arrives within ms. */
  async staysSilent(ms: number): Promise<boolean> {
    if (this.buffer.length > 0) return false;
    await this.waitForChange(ms);
    return this.buffer.length === 0;
  }

  /** Write without waiting for a reply (pipelining). */
  writeRaw(text: string): void {
    this.socket.write(text);
  }

  async send(command: string, timeoutMs?: number): Promise<TSmtpReply> {
    this.socket.write(`${command}\r\n`);
    return this.readReply(timeoutMs);
  }

  /** STARTTLS then the TLS handshake (self-signed certificates accepted). */
  async startTls(): Promise<TSmtpReply> {
    const reply = await this.send('STARTTLS');
    if (reply.code !== 220) return reply;
    const plain = this.socket as net.Socket;
    plain.removeAllListeners('data');
    plain.removeAllListeners('close');
    const secure = tls.connect({ socket: plain, rejectUnauthorized: false, servername: 'mx.mailworld.test' });
    await new Promise<void>((resolve, reject) => {
      secure.once('secureConnect', () => resolve());
      secure.once('error', reject);
    });
    this.socket = secure;
    this.attach(secure);
    return reply;
  }

  get encrypted(): boolean {
    return this.socket instanceof tls.TLSSocket && this.socket.encrypted;
  }

  close(): void {
    this.socket.destroy();
  }
}

/** Resolve a domain's best mail host address through the world's DNS (MX by preference, else A). */
export async function resolveMailHost(server: string, domain: string, rank = 0): Promise<string> {
  const mx = await queryDnsUdp(server, domain, 'MX');
  const exchanges = (mx.answers ?? [])
    .flatMap((a) => (a.type === 'MX' ? [a.data] : []))
    .sort((x, y) => (x.preference ?? 0) - (y.preference ?? 0))
    .map((d) => d.exchange);
  const host = exchanges[rank] ?? domain;
  const a = await queryDnsUdp(server, host, 'A');
  const ip = (a.answers ?? []).flatMap((r) => (r.type === 'A' ? [r.data] : []))[0];
  if (!ip) throw new Error(`no A record for ${host}`);
  return ip;
}

/** Open a session: greeting, EHLO, optional STARTTLS, MAIL FROM. */
export async function openSession(host: string, port: number, options: { tls?: boolean; from?: string } = {}): Promise<RawSmtpClient> {
  const client = await RawSmtpClient.connect(host, port);
  const greeting = await client.readReply();
  if (greeting.code !== 220) throw new Error(`unexpected greeting ${greeting.lines.join(' | ')}`);
  await client.send('EHLO verifier.local');
  if (options.tls) {
    await client.startTls();
    await client.send('EHLO verifier.local');
  }
  const mail = await client.send(`MAIL FROM:<${options.from ?? 'probe@verifier.local'}>`);
  if (mail.code !== 250) throw new Error(`MAIL FROM refused: ${mail.lines.join(' | ')}`);
  return client;
}
