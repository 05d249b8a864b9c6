// Test helper: a scripted DNS server on loopback (UDP and TCP on one port) for the DNS client's unit tests.
import dgram from 'node:dgram';
import net from 'node:net';
import dnsPacket from 'dns-packet';

export type TFakeAnswer = {
  rcode?: 'NOERROR' | 'NXDOMAIN' | 'SERVFAIL' | 'REFUSED';
  answers?: dnsPacket.Answer[];
  /** Answer over UDP with the TC flag and no records, forcing TCP. */
  truncateUdp?: boolean;
  /** Never answer (timeout). */
  drop?: boolean;
};
export type TFakeDns = {
  server: string;
  queries: Array<{ name: string; type: string; transport: 'udp' | 'tcp' }>;
  stop(): Promise<void>;
};

const RCODES = { NOERROR: 0, SERVFAIL: 2, NXDOMAIN: 3, REFUSED: 5 } as const;

function respond(query: dnsPacket.DecodedPacket, answer: TFakeAnswer, transport: 'udp' | 'tcp'): Buffer {
  const truncated = transport === 'udp' && answer.truncateUdp === true;
  return dnsPacket.encode({
    type: 'response',
    id: query.id,
    flags: dnsPacket.RECURSION_DESIRED | dnsPacket.RECURSION_AVAILABLE | (truncated ? dnsPacket.TRUNCATED_RESPONSE : 0) | RCODES[answer.rcode ?? 'NOERROR'],
    questions: query.questions,
    answers: truncated ? [] : (answer.answers ?? []),
  });
}

export async function startFakeDns(handler: (name: string, type: string) => TFakeAnswer): Promise<TFakeDns> {
  const queries: TFakeDns['queries'] = [];
  for (let attempt = 0; attempt < 20; attempt++) {
    try {
      return await startOnce(handler, queries);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    }
  }
  throw new Error('fake DNS: no free port for UDP and TCP');
}

/** Bind UDP on a random port, then TCP on the same port (EADDRINUSE when another process holds it). */
async function startOnce(handler: (name: string, type: string) => TFakeAnswer, queries: TFakeDns['queries']): Promise<TFakeDns> {
  const udp = dgram.createSocket('udp4');
  await new Promise<void>((resolve) => udp.bind(0, '127.0.0.1', resolve));
  const port = udp.address().port;
  udp.on('message', (message, rinfo) => {
    const query = dnsPacket.decode(message);
    const question = query.questions?.[0];
    if (!question) return;
    queries.push({ name: question.name, type: question.type, transport: 'udp' });
    const answer = handler(question.name, question.type);
    if (answer.drop) return;
    udp.send(respond(query, answer, 'udp'), rinfo.port, rinfo.address);
  });
  const tcp = net.createServer((socket) => {
    let buffer = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      if (buffer.length < 2 || buffer.length < 2 + buffer.readUInt16BE(0)) return;
      const query = dnsPacket.decode(buffer.subarray(2, 2 + buffer.readUInt16BE(0)));
      const question = query.questions?.[0];
      if (!question) return;
      queries.push({ name: question.name, type: question.type, transport: 'tcp' });
      const answer = handler(question.name, question.type);
      if (answer.drop) return;
      const body = respond(query, answer, 'tcp');
      const length = Buffer.alloc(2);
      length.writeUInt16BE(body.length);
      socket.end(Buffer.concat([length, body]));
    });
    socket.on('error', () => socket.destroy());
  });
  try {
    await new Promise<void>((resolve, reject) => {
      tcp.once('error', reject);
      tcp.listen(port, '127.0.0.1', resolve);
    });
  } catch (error) {
    await new Promise<void>((resolve) => udp.close(() => resolve()));
    throw error;
  }
  return {
    server: `127.0.0.1:${port}`,
    queries,
    stop: async () => {
      await new Promise<void>((resolve) => udp.close(() => resolve()));
      await new Promise<void>((resolve) => tcp.close(() => resolve()));
    },
  };
}

export function mx(name: string, preference: number, exchange: string, ttl = 300): dnsPacket.Answer {
  return { name, type: 'MX', ttl, class: 'IN', data: { preference, exchange } };
}
export function a(name: string, address: string, ttl = 300): dnsPacket.Answer {
  return { name, type: 'A', ttl, class: 'IN', data: address };
}

/** A DNS server that knows one domain: its MX `mx.<domain>` at 127.0.0.1 (every other name: NXDOMAIN). */
export function startOneDomainDns(domain: string): Promise<TFakeDns> {
  return startFakeDns((name, type) => {
    if (name === domain && type === 'MX') return { answers: [mx(domain, 10, `mx.${domain}`)] };
    if (name === `mx.${domain}` && type === 'A') return { answers: [a(`mx.${domain}`, '127.0.0.1')] };
    return { rcode: 'NXDOMAIN' };
  });
}
