// Stock Exim (Debian's exim4-daemon-light binary, unpacked beside Postfix: the two packages conflict) run the way
// inetd runs it: each connection to our listener on a loopback address is handed, as its stdin and stdout, to
// `exim4 -bs -C <config>`, so Exim reads the real TCP socket and applies its own SMTP limits (smtp_accept_max_nonmail
// = 10, its default, among them). Its log is the evidence a test reads.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, chown, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { startDnsServer, type TDnsName, type TDnsServer } from '../dns-server';

/** Where .ci/run unpacks the packages (`apt-get download exim4-daemon-light exim4-base exim4-config libidn12`, `dpkg -x`). */
export const EXIM_ROOT = process.env.EXIM_ROOT ?? '/opt/exim4-stock';
const EXIM = path.join(EXIM_ROOT, 'usr/sbin/exim4');
const LIBS = path.join(EXIM_ROOT, 'usr/lib/x86_64-linux-gnu');

/**
 * `main`: more main-section settings (e.g. `smtp_accept_max_nonmail = 4`); Exim's defaults otherwise. `rcptAcl`: more
 * conditions at the head of the RCPT ACL (e.g. `require verify = sender`).
 */
export type TEximHostSpec = { name: string; domain: string; mailboxes?: string[]; main?: string[]; rcptAcl?: string[] };
export type TEximHost = { name: string; domain: string; address: string; readLog(): Promise<string> };
export type TEximWorld = { dnsServers: string[]; smtpPort: number; hosts: Map<string, TEximHost>; stop(): Promise<void> };

/** Whether stock Exim can be run here (unpacked at EXIM_ROOT, its Debian-exim user exists, and we are root). */
export function isEximAvailable(): boolean {
  return existsSync(EXIM) && process.getuid?.() === 0;
}

function eximConf(dir: string, spec: TEximHostSpec): string {
  const locals = [...new Set(['postmaster', ...(spec.mailboxes ?? [])])].join(' : ');
  // Exim's defaults stay as they are (smtp_accept_max_nonmail = 10 and the rest); TLS is not offered (no certificate here)
  return `exim_user = Debian-exim
exim_group = Debian-exim
keep_environment = LD_LIBRARY_PATH
primary_hostname = mx.${spec.domain}
domainlist local_domains = ${spec.domain}
spool_directory = ${dir}/spool
log_file_path = ${dir}/log/%slog
tls_advertise_hosts =
rfc1413_hosts =
host_lookup =
acl_smtp_rcpt = acl_check_rcpt
${(spec.main ?? []).join('\n')}
begin acl
acl_check_rcpt:
${(spec.rcptAcl ?? []).map((l) => `  ${l}`).join('\n')}
  require verify = recipient
  accept domains = +local_domains
  deny message = relay not permitted
begin routers
mailboxes:
  driver = accept
  domains = +local_domains
  local_parts = ${locals}
  transport = devnull
begin transports
devnull:
  driver = appendfile
  file = /dev/null
`;
}

/** Start one inetd-style Exim listener per spec on 127.<octet>.8.<n>:25, and a DNS server giving each domain its MX. */
export async function startEximWorld(specs: TEximHostSpec[]): Promise<TEximWorld> {
  if (!isEximAvailable()) throw new Error(`Stock Exim is not unpacked at ${EXIM_ROOT} (see .ci/run), or this is not root`);
  const root = await mkdtemp(path.join(os.tmpdir(), 'exim-world-'));
  await chmod(root, 0o755); // Exim gives up root for its own user, which must reach its spool and log
  const hosts = new Map<string, TEximHost>();
  const servers: net.Server[] = [];
  const children = new Set<ChildProcess>();
  let dns: TDnsServer | null = null;
  const stop = async (): Promise<void> => {
    for (const child of children) child.kill();
    await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
    await dns?.stop();
    await rm(root, { recursive: true, force: true });
  };
  try {
    const octet = 20 + Math.floor(Math.random() * 200);
    for (const [i, spec] of specs.entries()) {
      const dir = path.join(root, spec.name);
      await mkdir(`${dir}/spool`, { recursive: true });
      await mkdir(`${dir}/log`, { recursive: true });
      await chmod(dir, 0o755);
      const passwd = await readFile('/etc/passwd', 'utf8');
      const ids = passwd.split('\n').find((l) => l.startsWith('Debian-exim:'))?.split(':');
      if (!ids) throw new Error('no Debian-exim user (see .ci/run)');
      await chown(`${dir}/spool`, Number(ids[2]), Number(ids[3]));
      await chown(`${dir}/log`, Number(ids[2]), Number(ids[3]));
      await writeFile(`${dir}/exim.conf`, eximConf(dir, spec));
      const address = `127.${octet}.8.${i + 1}`;
      const server = net.createServer({ pauseOnConnect: true }, (socket) => {
        // the socket itself is Exim's stdin and stdout: it sees the real peer, as under inetd
        const child = spawn(EXIM, ['-C', `${dir}/exim.conf`, '-bs'], { stdio: [socket, socket, 'ignore'], env: { LD_LIBRARY_PATH: LIBS } });
        children.add(child);
        child.on('exit', () => {
          children.delete(child);
          socket.destroy();
        });
      });
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(25, address, () => resolve());
      });
      servers.push(server);
      const readLog = async (): Promise<string> => {
        const files = await readdir(`${dir}/log`).catch(() => [] as string[]);
        const main = files.includes('mainlog') ? await readFile(`${dir}/log/mainlog`, 'utf8') : '';
        return main;
      };
      hosts.set(spec.name, { name: spec.name, domain: spec.domain, address, readLog });
    }
    const names = new Map<string, TDnsName>();
    for (const host of hosts.values()) {
      names.set(host.domain, { mx: [{ preference: 10, exchange: `mx.${host.domain}` }] });
      names.set(`mx.${host.domain}`, { a: [host.address] });
    }
    dns = await startDnsServer({ names, apexes: new Set([...hosts.values()].map((h) => h.domain)), rcodeZones: new Map() });
    return { dnsServers: [`127.0.0.1:${dns.port}`], smtpPort: 25, hosts, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
