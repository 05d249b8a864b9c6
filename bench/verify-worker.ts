/**
 * One verifier over one list, in a child process of its own (so its throughput and peak RSS are its own): the
 * Verilead engine (one `VerifierEngine`, `verifyMany`) or an open-source peer from npm. The parent sends the job over
 * IPC and gets every answer back, mapped to our statuses (valid, invalid, catch_all, unknown).
 *
 * Network hygiene: before anything runs, the child points Node's resolver at the job's DNS server (a local mail
 * world on loopback) and replaces `dns.lookup`, so a host name can only resolve there and only to 127.0.0.0/8. The
 * peers dial port 25 of whatever the MX resolves to, so the world must bind port 25 (it does when we are root).
 */
import { fork, type ChildProcess } from 'node:child_process';
import dns from 'node:dns';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

export const PEERS = ['deep-email-validator', 'email-deep-validator', 'email-existence'] as const;
export type TVerifierName = 'verilead' | (typeof PEERS)[number];
export type TVerifyJob = {
  verifier: TVerifierName;
  dnsServers: string[];
  smtpPort: number;
  emails: string[];
  /** VerifierEngine options beyond the DNS servers, port, HELO name and sender (verilead only) */
  engineOptions?: Record<string, unknown>;
  /** addresses in flight at once (verilead: `verifyMany` concurrency; a peer: that many lanes) */
  concurrency: number;
};
export type TRow = { email: string; status: string; reason: string; ms: number; /** ms from the start of the run to this answer */ at: number; greylisted: boolean };
export type TWorkerResult = { kind: 'result'; rows: TRow[]; wallMs: number; maxRssBytes: number } | { kind: 'skipped'; why: string };
type TAnswer = { status: string; reason: string };

export const HELO_NAME = 'bench.verilead.test';
export const MAIL_FROM = 'bounce@verilead.test';
const PEER_TIMEOUT_MS = 10_000;

/** Resolve host names only through the mail world's DNS (A records on loopback), never the system resolver. */
export function confineResolver(dnsServers: string[]): void {
  dns.setServers(dnsServers);
  const resolver = new dns.Resolver();
  resolver.setServers(dnsServers);
  type TLookupCallback = (error: NodeJS.ErrnoException | null, address?: string | dns.LookupAddress[], family?: number) => void;
  const confinedLookup = (hostname: string, options: unknown, callback?: TLookupCallback): void => {
    const cb = (typeof options === 'function' ? options : callback) as TLookupCallback;
    const all = typeof options === 'object' && options !== null && (options as { all?: boolean }).all === true;
    if (/^\d+\.\d+\.\d+\.\d+$/.test(hostname)) {
      process.nextTick(() => (all ? cb(null, [{ address: hostname, family: 4 }]) : cb(null, hostname, 4)));
      return;
    }
    resolver.resolve4(hostname, (error, addresses) => {
      const first = addresses?.[0];
      if (error || !first || !first.startsWith('127.')) {
        const failure: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
        failure.code = 'ENOTFOUND';
        cb(failure);
        return;
      }
      if (all) cb(null, [{ address: first, family: 4 }]);
      else cb(null, first, 4);
    });
  };
  (dns as unknown as { lookup: unknown }).lookup = confinedLookup;
}

async function runEngine(job: TVerifyJob): Promise<TWorkerResult> {
  let verifier: Record<string, unknown>;
  try {
    verifier = (await import(process.env.BENCH_ENGINE ?? '@verilead/verifier')) as Record<string, unknown>;
  } catch (error) {
    return { kind: 'skipped', why: `@verilead/verifier did not load: ${(error as Error).message}` };
  }
  const Engine = verifier.VerifierEngine as
    | (new (options: Record<string, unknown>) => {
        verifyMany(addresses: Iterable<string>, options: Record<string, unknown>): AsyncIterable<Record<string, unknown>>;
        close(): Promise<void>;
      })
    | undefined;
  if (typeof Engine !== 'function') return { kind: 'skipped', why: '@verilead/verifier exports no VerifierEngine' };
  const rows: TRow[] = [];
  const started = performance.now();
  // one engine for the whole process, as the server builds it
  const engine = new Engine({ dnsServers: job.dnsServers, smtpPort: job.smtpPort, heloName: HELO_NAME, mailFrom: MAIL_FROM, ...job.engineOptions });
  try {
    for await (const result of engine.verifyMany(job.emails, { concurrency: job.concurrency })) {
      const reason = result.reason as { code?: string } | string | undefined;
      rows.push({
        email: String(result.email),
        status: String(result.status),
        reason: typeof reason === 'string' ? reason : String(reason?.code ?? ''),
        ms: Number(result.time_taken ?? 0),
        at: performance.now() - started,
        greylisted: Number(result.greylist_count ?? 0) > 0,
      });
    }
  } finally {
    await engine.close();
  }
  return { kind: 'result', rows, wallMs: performance.now() - started, maxRssBytes: process.resourceUsage().maxRSS * 1024 };
}

/** deep-email-validator's answer: valid -> valid; SMTP timeouts, 4xx and dropped connections -> unknown; other failures -> invalid. */
export function mapDeepEmailValidator(output: { valid: boolean; reason?: string; validators: Record<string, { reason?: string } | undefined> }): TAnswer {
  if (output.valid) return { status: 'valid', reason: 'valid_mailbox' };
  const level = output.reason ?? 'unknown';
  const detail = output.validators[level]?.reason ?? '';
  if (level === 'smtp' && /Timeout|closed|ECONN|ETIMEDOUT|try again|busy|shut down|storage/i.test(detail)) return { status: 'unknown', reason: `smtp: ${detail}` };
  return { status: 'invalid', reason: `${level}: ${detail}` };
}

const require = createRequire(import.meta.url);

/** Each peer's check of one address, its answer mapped to our statuses (none of them knows catch-all). */
async function makePeerCheck(name: TVerifierName): Promise<(email: string) => Promise<TAnswer>> {
  if (name === 'deep-email-validator') {
    const { validate } = await import('deep-email-validator');
    return async (email) => mapDeepEmailValidator((await validate({ email, sender: MAIL_FROM, additionalTopLevelDomains: ['test'] })) as Parameters<typeof mapDeepEmailValidator>[0]);
  }
  if (name === 'email-deep-validator') {
    // { wellFormed, validDomain, validMailbox }: validMailbox true / false / null (could not tell)
    const EmailValidator = require('email-deep-validator') as new (o: object) => { verify(a: string): Promise<{ wellFormed: boolean; validDomain: boolean | null; validMailbox: boolean | null }> };
    const validator = new EmailValidator({ timeout: PEER_TIMEOUT_MS, logger: { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} } });
    return async (email) => {
      const r = await validator.verify(email);
      if (!r.wellFormed || r.validDomain === false) return { status: 'invalid', reason: r.wellFormed ? 'no MX' : 'malformed' };
      if (r.validMailbox === true) return { status: 'valid', reason: 'mailbox' };
      return r.validMailbox === false ? { status: 'invalid', reason: 'mailbox' } : { status: 'unknown', reason: 'could not tell' };
    };
  }
  // email-existence: callback(err, exists, undetermined)
  const check = require('email-existence') as (email: string, cb: (err: unknown, res: boolean, undetermined?: boolean) => void, timeout?: number, from?: string) => void;
  return (email) =>
    new Promise((resolve) =>
      check(email, (err, res, undetermined) => {
        if (res) resolve({ status: 'valid', reason: 'exists' });
        else if (undetermined) resolve({ status: 'unknown', reason: 'undetermined' });
        else resolve({ status: 'invalid', reason: err ? `error: ${(err as Error).message ?? String(err)}` : 'does not exist' });
      }, PEER_TIMEOUT_MS, MAIL_FROM),
    );
}

async function runPeer(job: TVerifyJob): Promise<TWorkerResult> {
  if (job.smtpPort !== 25) return { kind: 'skipped', why: `${job.verifier} only dials port 25; the world is on ${job.smtpPort}` };
  const check = await makePeerCheck(job.verifier);
  const rows: TRow[] = [];
  const started = performance.now();
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < job.emails.length) {
      const email = job.emails[next++] as string;
      const t0 = performance.now();
      let answer: TAnswer;
      try {
        answer = await check(email);
      } catch (error) {
        answer = { status: 'unknown', reason: `threw: ${(error as Error).message}` };
      }
      rows.push({ email, ...answer, ms: performance.now() - t0, at: performance.now() - started, greylisted: false });
    }
  };
  await Promise.all(Array.from({ length: job.concurrency }, lane));
  return { kind: 'result', rows, wallMs: performance.now() - started, maxRssBytes: process.resourceUsage().maxRSS * 1024 };
}

/** Runs `job` in a child process; a child that takes longer than `limitMs` is killed and reported skipped. */
export function runVerifierChild(job: TVerifyJob, limitMs: number): Promise<TWorkerResult> {
  return new Promise((resolve) => {
    const child: ChildProcess = fork(fileURLToPath(import.meta.url), ['--verify-worker'], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    let settled = false;
    const finish = (result: TWorkerResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(limit);
      resolve(result);
    };
    const limit = setTimeout(() => {
      child.kill('SIGKILL');
      finish({ kind: 'skipped', why: `${job.verifier} did not finish within ${limitMs / 60_000} min` });
    }, limitMs);
    child.on('message', (message) => finish(message as TWorkerResult));
    child.on('exit', (code, signal) => finish({ kind: 'skipped', why: `${job.verifier} exited (${code ?? signal}) without a result` }));
    child.send(job);
  });
}

if (process.argv[2] === '--verify-worker') {
  process.once('message', (job: TVerifyJob) => {
    confineResolver(job.dnsServers);
    void (job.verifier === 'verilead' ? runEngine(job) : runPeer(job)).then((result) => process.send?.(result, () => process.exit(0)));
  });
}
