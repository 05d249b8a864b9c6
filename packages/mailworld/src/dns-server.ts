import dgram from 'node:dgram';
import net from 'node:net';
import dnsPacket, { type Answer, type Packet, type Question } from 'dns-packet';

export type TDnsName = {
  a?: string[];
  mx?: { preference: number; exchange: string }[];
  txt?: string[];
};

export type TDnsZoneData = {
  /** lower-cased name -> records */
  names: Map<string, TDnsName>;
  /** zone apexes whose every name answers this rcode */
  rcodeZones: Map<string, 'NXDOMAIN' | 'SERVFAIL'>;
  /** zone apexes the server is authoritative for (used for SOA answers and negative responses) */
  apexes: Set<string>;
};

export type TDnsServer = { port: number; stop(): Promise<void> };

const RCODES = { NOERROR: 0, SERVFAIL: 2, NXDOMAIN: 3, NOTIMP: 4, REFUSED: 5 } as const;
const TTL = 60;

function findApex(name: string, zone: TDnsZoneData): string | undefined {
  const labels = name.split('.');
  for (let i = 0; i < labels.length; i++) {
    const candidate = labels.slice(i).join('.');
    if (zone.apexes.has(candidate) || zone.rcodeZones.has(candidate)) return candidate;
  }
  return undefined;
}

function makeSoa(apex: string): Answer {
  return {
    type: 'SOA', name: apex, ttl: TTL,
    data: { mname: `ns1.${apex}`, rname: `hostmaster.${apex}`, serial: 2026112201, refresh: 3600, retry: 600, expire: 604800, minimum: TTL },
  };
}

/** Answer one question from the zone data: returns rcode, answers and authority records. */
export function answerQuestion(question: Question, zone: TDnsZoneData): { rcode: number; answers: Answer[]; authorities: Answer[] } {
  const name = question.name.toLowerCase().replace(/\.$/, '');
  const apex = findApex(name, zone);
  const negative = apex ? [makeSoa(apex)] : [];
  const zoneRcode = apex ? zone.rcodeZones.get(apex) : undefined;
  if (zoneRcode === 'SERVFAIL') return { rcode: RCODES.SERVFAIL, answers: [], authorities: [] };
  if (zoneRcode === 'NXDOMAIN') return { rcode: RCODES.NXDOMAIN, answers: [], authorities: negative };
  const record = zone.names.get(name);
  if (!record && name !== apex) return { rcode: RCODES.NXDOMAIN, answers: [], authorities: negative };
  const answers: Answer[] = [];
  const wants = (type: string) => question.type === type || (question.type as string) === 'ANY';
  if (wants('A')) for (const ip of record?.a ?? []) answers.push({ type: 'A', name: question.name, ttl: TTL, data: ip });
  if (wants('MX')) for (const mx of record?.mx ?? []) answers.push({ type: 'MX', name: question.name, ttl: TTL, data: mx });
  if (wants('TXT')) for (const txt of record?.txt ?? []) answers.push({ type: 'TXT', name: question.name, ttl: TTL, data: txt });
  if (wants('SOA') && name === apex) answers.push(makeSoa(apex));
  if (wants('NS') && name === apex) answers.push({ type: 'NS', name: question.name, ttl: TTL, data: `ns1.${apex}` });
  return { rcode: RCODES.NOERROR, answers, authorities: answers.length === 0 ? negative : [] };
}

/** Build the response packet for a query buffer; null when the buffer is not a DNS query. */
export function respondToQuery(buffer: Buffer, zone: TDnsZoneData): Buffer | null {
  let query: Packet;
  try {
    query = dnsPacket.decode(buffer);
  } catch {
    return null;
  }
  if (query.type !== 'query') return null;
  const question = query.questions?.[0];
  const recursionDesired = (query.flags ?? 0) & dnsPacket.RECURSION_DESIRED;
  const base = dnsPacket.AUTHORITATIVE_ANSWER | dnsPacket.RECURSION_AVAILABLE | recursionDesired;
  if (!question || query.questions?.length !== 1) {
    return dnsPacket.encode({ type: 'response', id: query.id ?? 0, flags: base | RCODES.REFUSED, questions: query.questions ?? [] });
  }
  const { rcode, answers, authorities } = answerQuestion(question, zone);
  return dnsPacket.encode({
    type: 'response', id: query.id ?? 0, flags: base | rcode, questions: [question], answers, authorities,
  });
}

function listenUdp(socket: dgram.Socket, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(port, '127.0.0.1', () => {
      socket.off('error', reject);
      resolve(socket.address().port);
    });
  });
}

function listenTcp(server: net.Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port, host, exclusive: true }, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** Start an authoritative DNS server on 127.0.0.1, UDP and TCP on the same (random) port. */
export async function startDnsServer(zone: TDnsZoneData): Promise<TDnsServer> {
  for (let attempt = 0; ; attempt++) {
    const udp = dgram.createSocket('udp4');
    const tcpSockets = new Set<net.Socket>();
    const tcp = net.createServer((socket) => {
      tcpSockets.add(socket);
      socket.on('close', () => tcpSockets.delete(socket));
      socket.on('error', () => socket.destroy());
      let pending = Buffer.alloc(0);
      socket.on('data', (chunk: Buffer) => {
        pending = Buffer.concat([pending, chunk]);
        while (pending.length >= 2) {
          const length = pending.readUInt16BE(0);
          if (pending.length < 2 + length) break;
          const message = pending.subarray(2, 2 + length);
          pending = pending.subarray(2 + length);
          const response = respondToQuery(message, zone);
          if (!response) {
            socket.destroy();
            return;
          }
          const framed = Buffer.alloc(2 + response.length);
          framed.writeUInt16BE(response.length, 0);
          response.copy(framed, 2);
          socket.write(framed);
        }
      });
    });
    udp.on('message', (message, remote) => {
      const response = respondToQuery(message, zone);
      if (response) udp.send(response, remote.port, remote.address);
    });
    const port = await listenUdp(udp, 0);
    try {
      await listenTcp(tcp, port, '127.0.0.1');
    } catch (error) {
      udp.close();
      if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE' && attempt < 20) continue;
      throw error;
    }
    udp.on('error', () => undefined);
    return {
      port,
      stop: async () => {
        for (const socket of tcpSockets) socket.destroy();
        await Promise.all([
          new Promise<void>((resolve) => udp.close(() => resolve())),
          new Promise<void>((resolve) => tcp.close(() => resolve())),
        ]);
      },
    };
  }
}
