import dgram from 'node:dgram';
import net from 'node:net';
import { randomInt } from 'node:crypto';
import dnsPacket from 'dns-packet';
import { startLagAwareTimeout } from '../lag-aware-timer';

export type TDnsRecordType = 'MX' | 'A' | 'AAAA';
export type TDnsRecord = { name: string; type: string; ttl: number; data: unknown };
export type TDnsAnswer = {
  /** NOERROR, NXDOMAIN, SERVFAIL, REFUSED… */
  rcode: string;
  answers: TDnsRecord[];
  authorities: TDnsRecord[];
  additionals: TDnsRecord[];
};
export type TDnsServer = { host: string; port: number };

export class DnsTimeoutError extends Error {
  constructor(name: string, type: string) {
    super(`DNS query ${type} ${name} timed out`);
    this.name = 'DnsTimeoutError';
  }
}

/** Parse 'host', 'host:port', '[v6]:port' or a bare IPv6 address into host and port (default 53). */
export function parseDnsServer(text: string): TDnsServer {
  const bracket = /^\[([^\]]+)\](?::(\d+))?$/.exec(text);
  if (bracket) return { host: bracket[1] as string, port: bracket[2] ? Number(bracket[2]) : 53 };
  if (net.isIPv6(text)) return { host: text, port: 53 };
  const colon = text.lastIndexOf(':');
  if (colon > 0 && /^\d+$/.test(text.slice(colon + 1))) return { host: text.slice(0, colon), port: Number(text.slice(colon + 1)) };
  return { host: text, port: 53 };
}

function toAnswer(packet: dnsPacket.DecodedPacket): TDnsAnswer {
  const map = (records: dnsPacket.Answer[] | undefined): TDnsRecord[] =>
    (records ?? []).map((r) => ({ name: r.name, type: r.type, ttl: 'ttl' in r && typeof r.ttl === 'number' ? r.ttl : 0, data: 'data' in r ? r.data : null }));
  const rcode = (packet as unknown as { rcode?: string }).rcode ?? 'NOERROR';
  return { rcode, answers: map(packet.answers), authorities: map(packet.authorities), additionals: map(packet.additionals) };
}

function buildQuery(name: string, type: TDnsRecordType): { id: number; packet: dnsPacket.Packet } {
  const id = randomInt(1, 65535);
  return { id, packet: { type: 'query', id, flags: dnsPacket.RECURSION_DESIRED, questions: [{ type, name, class: 'IN' }] } };
}

function queryUdp(server: TDnsServer, name: string, type: TDnsRecordType, timeoutMs: number): Promise<dnsPacket.DecodedPacket> {
  return new Promise((resolve, reject) => {
    const { id, packet } = buildQuery(name, type);
    const socket = dgram.createSocket(net.isIPv6(server.host) ? 'udp6' : 'udp4');
    let settled = false;
    const finish = (error: Error | null, value?: dnsPacket.DecodedPacket): void => {
      if (settled) return;
      settled = true;
      cancelTimer();
      socket.close();
      if (error) reject(error);
      else resolve(value as dnsPacket.DecodedPacket);
    };
    // our own event-loop lag is not the server's silence
    const cancelTimer = startLagAwareTimeout(timeoutMs, () => finish(new DnsTimeoutError(name, type)));
    socket.on('error', (error) => finish(error));
    socket.on('message', (message) => {
      try {
        const decoded = dnsPacket.decode(message);
        if (decoded.id !== id) return; // not ours: keep waiting
        finish(null, decoded);
      } catch {
        // malformed datagram: keep waiting until the timeout
      }
    });
    socket.send(dnsPacket.encode(packet), server.port, server.host, (error) => {
      if (error) finish(error);
    });
  });
}

function queryTcp(server: TDnsServer, name: string, type: TDnsRecordType, timeoutMs: number): Promise<dnsPacket.DecodedPacket> {
  return new Promise((resolve, reject) => {
    const { id, packet } = buildQuery(name, type);
    const socket = net.connect({ host: server.host, port: server.port });
    let buffer = Buffer.alloc(0);
    let settled = false;
    const finish = (error: Error | null, value?: dnsPacket.DecodedPacket): void => {
      if (settled) return;
      settled = true;
      cancelTimer();
      socket.destroy();
      if (error) reject(error);
      else resolve(value as dnsPacket.DecodedPacket);
    };
    // our own event-loop lag is not the server's silence
    const cancelTimer = startLagAwareTimeout(timeoutMs, () => finish(new DnsTimeoutError(name, type)));
    socket.on('error', (error) => finish(error));
    socket.on('connect', () => socket.write(dnsPacket.streamEncode(packet)));
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      if (buffer.length < 2) return;
      const length = buffer.readUInt16BE(0);
      if (buffer.length < 2 + length) return;
      try {
        const decoded = dnsPacket.decode(buffer.subarray(2, 2 + length));
        if (decoded.id !== id) finish(new Error('DNS over TCP answered another query id'));
        else finish(null, decoded);
      } catch (error) {
        finish(error as Error);
      }
    });
    socket.on('end', () => finish(new Error('DNS server closed the TCP connection early')));
  });
}

/**
 * Query the given DNS servers in order (UDP, asked twice on a timeout, then TCP when the answer is truncated). A server that times out,
 * errors or answers SERVFAIL/REFUSED is skipped in favour of the next; the last answer or error is returned.
 * Never falls back to the system resolver.
 */
export async function queryDns(servers: TDnsServer[], name: string, type: TDnsRecordType, timeoutMs: number): Promise<TDnsAnswer> {
  let lastAnswer: TDnsAnswer | null = null;
  let lastError: Error | null = null;
  for (const server of servers) {
    try {
      let packet: dnsPacket.DecodedPacket;
      try {
        packet = await queryUdp(server, name, type, timeoutMs);
      } catch (error) {
        // UDP is lossy (a burst of queries can overflow a receive buffer): ask once more before giving up
        if (!(error instanceof DnsTimeoutError)) throw error;
        packet = await queryUdp(server, name, type, timeoutMs);
      }
      if (packet.flag_tc) packet = await queryTcp(server, name, type, timeoutMs);
      const answer = toAnswer(packet);
      if (answer.rcode === 'NOERROR' || answer.rcode === 'NXDOMAIN') return answer;
      lastAnswer = answer;
    } catch (error) {
      lastError = error as Error;
    }
  }
  if (lastAnswer) return lastAnswer;
  throw lastError ?? new Error('no DNS servers configured');
}
