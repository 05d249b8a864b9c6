// Real mail servers for tests and benches: stock Postfix (the distribution's package) run as non-system instances,
// each on its own loopback address with its own config, queue, data directory and log file, and a DNS server of
// ours that points each test domain's MX at its instance. Nothing here is simulated: the replies, limits and
// delays are Postfix's own, and its log is the evidence a test reads.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, chown, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { startDnsServer, type TDnsName, type TDnsServer } from '../dns-server';

const run = promisify(execFile);
const POSTFIX = '/usr/sbin/postfix';

export type TPostfixHostSpec = {
  /** short name of the instance (its directory and `hosts` key) */
  name: string;
  /** the mail domain it serves (its MX points at this instance) */
  domain: string;
  /** local parts of the mailboxes that exist (postmaster always does) */
  mailboxes?: string[];
  /** accept every recipient of the domain */
  catchAll?: boolean;
  /** put postscreen in front of smtpd, with its after-greeting ("deep protocol") tests on */
  postscreen?: boolean;
  /** more main.cf settings (e.g. smtpd_client_recipient_rate_limit); the anti-harvesting limits stay at Postfix's defaults unless set here */
  main?: Record<string, string>;
};

export type TPostfixHost = {
  name: string;
  domain: string;
  /** loopback address its smtpd (or postscreen) listens on */
  address: string;
  dir: string;
  logFile: string;
  readLog(): Promise<string>;
};

export type TPostfixWorld = {
  dnsServers: string[];
  smtpPort: number;
  hosts: Map<string, TPostfixHost>;
  stop(): Promise<void>;
};

/** Whether stock Postfix can be run here (installed, and we are root: its master process needs it). */
export function isPostfixAvailable(): boolean {
  return existsSync(POSTFIX) && process.getuid?.() === 0;
}

const MASTER_COMMON = `cleanup   unix  n       -       n       -       0       cleanup
qmgr      unix  n       -       n       300     1       qmgr
rewrite   unix  -       -       n       -       -       trivial-rewrite
bounce    unix  -       -       n       -       0       bounce
defer     unix  -       -       n       -       0       bounce
trace     unix  -       -       n       -       0       bounce
verify    unix  -       -       n       -       1       verify
proxymap  unix  -       -       n       -       -       proxymap
error     unix  -       -       n       -       -       error
retry     unix  -       -       n       -       -       error
discard   unix  -       -       n       -       -       discard
anvil     unix  -       -       n       -       1       anvil
scache    unix  -       -       n       -       1       scache
postlog   unix-dgram n  -       n       -       1       postlogd
`;

function masterCf(listen: string, postscreen: boolean): string {
  const front = postscreen
    ? `${listen} inet  n       -       n       -       1       postscreen
smtpd     pass  -       -       n       -       -       smtpd
dnsblog   unix  -       -       n       -       0       dnsblog
tlsproxy  unix  -       -       n       -       0       tlsproxy
`
    : `${listen} inet  n       -       n       -       -       smtpd
`;
  return front + MASTER_COMMON;
}

function mainCf(dir: string, spec: TPostfixHostSpec): string {
  const settings: Record<string, string> = {
    compatibility_level: '3.6',
    queue_directory: `${dir}/queue`,
    data_directory: `${dir}/data`,
    // the listener's own address is in master.cf; Postfix only insists that inet_interfaces names a local interface
    inet_interfaces: '127.0.0.1',
    inet_protocols: 'ipv4',
    myhostname: `mx.${spec.domain}`,
    mydestination: '',
    // our verifier is never a trusted network
    mynetworks: '127.255.255.254/32',
    alias_maps: '',
    alias_database: '',
    virtual_mailbox_domains: spec.domain,
    virtual_mailbox_maps: `texthash:${dir}/etc/vmailbox`,
    virtual_transport: 'discard',
    maillog_file: `${dir}/maillog`,
    maillog_file_prefixes: dir,
    smtpd_banner: '$myhostname ESMTP Postfix',
    biff: 'no',
    ...(spec.postscreen
      ? {
          postscreen_pipelining_enable: 'yes',
          postscreen_non_smtp_command_enable: 'yes',
          postscreen_bare_newline_enable: 'yes',
          postscreen_greet_wait: '2s',
          postscreen_cache_map: `btree:${dir}/data/postscreen_cache`,
        }
      : {}),
    ...spec.main,
  };
  return Object.entries(settings)
    .map(([k, v]) => `${k} = ${v}`)
    .join('\n');
}

function vmailbox(spec: TPostfixHostSpec): string {
  const locals = new Set(['postmaster', ...(spec.mailboxes ?? [])]);
  const lines = [...locals].map((l) => `${l}@${spec.domain} ok`);
  if (spec.catchAll) lines.push(`@${spec.domain} ok`);
  return `${lines.join('\n')}\n`;
}

async function isFree(address: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen({ host: address, port, exclusive: true }, () => server.close(() => resolve(true)));
  });
}

/**
 * Start one Postfix instance per spec (each on 127.<octet>.9.<n>, port 25 as root), and a DNS server giving each
 * domain an MX on its instance. `stop()` stops every instance and removes its directories.
 */
export async function startPostfixWorld(specs: TPostfixHostSpec[], opts: { port?: number } = {}): Promise<TPostfixWorld> {
  if (!isPostfixAvailable()) throw new Error('Postfix is not installed here (apt-get install postfix), or we are not root');
  const port = opts.port ?? 25;
  const root = await mkdtemp(path.join(os.tmpdir(), 'postfix-world-'));
  await chmod(root, 0o755);
  const { uid, gid } = await postfixIds();
  // a random second octet, shared by this world's hosts; another if any address is taken
  let octet = 0;
  for (let attempt = 0; attempt < 30; attempt++) {
    const candidate = 20 + Math.floor(Math.random() * 200);
    const checks = await Promise.all(specs.map((_, i) => isFree(`127.${candidate}.9.${i + 1}`, port)));
    if (checks.every(Boolean)) {
      octet = candidate;
      break;
    }
  }
  if (!octet) throw new Error('postfix world: no free loopback addresses');
  const hosts = new Map<string, TPostfixHost>();
  const started: string[] = [];
  let dns: TDnsServer | null = null;
  const stop = async (): Promise<void> => {
    await Promise.all(started.map((dir) => run(POSTFIX, ['-c', `${dir}/etc`, 'stop']).catch(() => undefined)));
    await dns?.stop();
    await rm(root, { recursive: true, force: true });
  };
  try {
    for (const [i, spec] of specs.entries()) {
      const address = `127.${octet}.9.${i + 1}`;
      const dir = path.join(root, spec.name);
      await mkdir(`${dir}/etc`, { recursive: true });
      await mkdir(`${dir}/queue`, { recursive: true });
      await mkdir(`${dir}/data`, { recursive: true });
      await chmod(dir, 0o755);
      await chown(`${dir}/data`, uid, gid);
      await writeFile(`${dir}/etc/main.cf`, `${mainCf(dir, spec)}\n`);
      await writeFile(`${dir}/etc/master.cf`, masterCf(`${address}:${port}`, spec.postscreen === true));
      await writeFile(`${dir}/etc/vmailbox`, vmailbox(spec));
      await run(POSTFIX, ['-c', `${dir}/etc`, 'start']).catch((error: { stderr?: string; message: string }) => {
        throw new Error(`postfix ${spec.name} did not start: ${error.stderr ?? error.message}`);
      });
      started.push(dir);
      const logFile = `${dir}/maillog`;
      hosts.set(spec.name, { name: spec.name, domain: spec.domain, address, dir, logFile, readLog: () => readFile(logFile, 'utf8').catch(() => '') });
    }
    const names = new Map<string, TDnsName>();
    for (const host of hosts.values()) {
      names.set(host.domain, { mx: [{ preference: 10, exchange: `mx.${host.domain}` }] });
      names.set(`mx.${host.domain}`, { a: [host.address] });
    }
    dns = await startDnsServer({ names, apexes: new Set([...hosts.values()].map((h) => h.domain)), rcodeZones: new Map() });
    return { dnsServers: [`127.0.0.1:${dns.port}`], smtpPort: port, hosts, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function postfixIds(): Promise<{ uid: number; gid: number }> {
  const passwd = await readFile('/etc/passwd', 'utf8');
  const line = passwd.split('\n').find((l) => l.startsWith('postfix:'));
  const [, , uid, gid] = line?.split(':') ?? [];
  if (uid === undefined || gid === undefined) throw new Error('no postfix user');
  return { uid: Number(uid), gid: Number(gid) };
}
