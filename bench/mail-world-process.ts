// The mail world in a process of its own, so a bench's load generator and the world's SMTP and DNS servers do not
// share one event loop (a mail host elsewhere on the network does not slow the client down, nor the client it).
// The parent sends the world's options (corpus included) as JSON on stdin; the child answers its DNS servers and
// SMTP port as one JSON line on stdout and runs until its stdin closes or it gets SIGTERM.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startMailWorld, type TStartMailWorldOptions } from '@verilead/mailworld';

export type TMailWorldProcess = { dnsServers: string[]; smtpPort: number; pid: number; stop(): Promise<void> };

/** Starts the world in a child process (Node with tsx, as the benches run) and waits until it serves. */
export async function startMailWorldProcess(options: TStartMailWorldOptions): Promise<TMailWorldProcess> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--child'], { stdio: ['pipe', 'pipe', 'inherit'] });
  child.stdin!.end(JSON.stringify(options));
  const address = await new Promise<{ dnsServers: string[]; smtpPort: number }>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line && out.includes('\n')) resolve(JSON.parse(line) as { dnsServers: string[]; smtpPort: number });
    });
    child.once('exit', (code) => reject(new Error(`the mail world process exited (${code})`)));
  });
  child.removeAllListeners('exit');
  return {
    ...address,
    pid: child.pid!,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

async function runChild() {
  let input = '';
  for await (const chunk of process.stdin) input += String(chunk);
  const world = await startMailWorld(JSON.parse(input) as TStartMailWorldOptions);
  process.stdout.write(`${JSON.stringify({ dnsServers: world.dnsServers, smtpPort: world.smtpPort })}\n`);
  process.once('SIGTERM', () => void world.stop().finally(() => process.exit(0)));
}

if (process.argv.includes('--child') && process.argv[1] === fileURLToPath(import.meta.url)) void runChild();
