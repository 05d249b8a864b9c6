import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMailWorld, type TMailWorld } from '@verilead/mailworld';
import { VerifierEngine } from '../engine/engine';
import type { TDial, TVerifyOptions } from '../types';

// slowpoke.test waits 700 ms before every reply (greeting included), in every preset.
const EMAILS = ['sam@slowpoke.test', 'nobody.one@slowpoke.test', 'nobody.two@slowpoke.test', 'postmaster@slowpoke.test', 'nobody.three@slowpoke.test'];

let worlds: TMailWorld[] = [];
beforeAll(async () => {
  worlds = await Promise.all([startMailWorld(), startMailWorld()]);
});
afterAll(async () => {
  await Promise.all(worlds.map((w) => w.stop()));
});

/** A dial that counts the client's writes: each is one flight of commands, i.e. one round trip. */
function countingDial(): { dial: TDial; writes: () => number } {
  let writes = 0;
  const dial: TDial = ({ host, port }) => {
    const socket = net.connect({ host, port });
    const write = socket.write.bind(socket) as (...args: unknown[]) => boolean;
    (socket as unknown as { write: (...args: unknown[]) => boolean }).write = (...args: unknown[]) => {
      writes++;
      return write(...args);
    };
    return socket;
  };
  return { dial, writes: () => writes };
}

/** The world's engine: one session per host, fastest turnaround, its writes counted. */
function engineOn(world: TMailWorld, more: Partial<TVerifyOptions> = {}) {
  const counter = countingDial();
  const engine = new VerifierEngine({
    dnsServers: world.dnsServers,
    smtpPort: world.smtpPort,
    heloName: 'verifier.verilead.test',
    mailFrom: 'probe@verifier.verilead.test',
    mode: 'fastest_turnaround',
    timeouts: { dnsMs: 1_000, connectMs: 1_000, replyMs: 3_000, totalMs: 60_000 },
    perHostConcurrency: 1,
    // batching measured alone: a session here never retires for its budget of refusals (session-budget.ts)
    sessionBudget: { errors: 100, nonMail: 100 },
    dial: counter.dial,
    ...more,
  });
  return { engine, counter };
}

async function run(world: TMailWorld, maxRecipientsPerTransaction: number) {
  const { engine, counter } = engineOn(world, { maxRecipientsPerTransaction });
  const verdicts = new Map<string, string>();
  try {
    for await (const r of engine.verifyMany(EMAILS, { concurrency: 10 })) verdicts.set(r.email, `${r.status}/${r.reason.code}`);
  } finally {
    await engine.close();
  }
  const stats = { verdicts, writes: counter.writes(), commands: world.hostStats('mx.slowpoke.test').commands };
  console.log(`slowpoke.test, ${maxRecipientsPerTransaction} recipient(s) per transaction: ${stats.commands} commands, ${stats.writes} round trips`);
  return stats;
}

describe('several RCPT TO per transaction', () => {
  it('on a 700 ms-per-reply host, asks the waiting recipients together: far fewer commands and round trips, the same verdicts', async () => {
    const [alone, batched] = await Promise.all([run(worlds[0] as TMailWorld, 1), run(worlds[1] as TMailWorld, 20)]);
    for (const email of EMAILS) expect(batched.verdicts.get(email), email).toBe(/^(sam|postmaster)@/.test(email) ? 'valid/valid_mailbox' : 'invalid/mailbox_not_found');
    expect(batched.verdicts).toEqual(alone.verdicts);
    // one address per transaction: RSET (from the second on), MAIL and RCPT (+ the random probe once) each, pipelined
    // in one write; batched: one MAIL and every RCPT in one write, the transaction left open (no RSET)
    expect(batched.commands).toBeLessThanOrEqual(EMAILS.length + 5);
    expect(alone.commands).toBeGreaterThanOrEqual(EMAILS.length * 3);
    expect(alone.writes).toBeGreaterThanOrEqual(EMAILS.length);
    expect(batched.writes * 2).toBeLessThanOrEqual(alone.writes);
  }, 40_000);
});

describe('the transcript of a shared transaction', () => {
  it("shows each address its own RCPT TO and reply, the transaction's own lines and its domain's probe, never another address of the batch", async () => {
    const world = worlds[0] as TMailWorld;
    const { engine } = engineOn(world);
    const commandsBefore = world.hostStats('mx.slowpoke.test').commands;
    try {
      // one session (700 ms a reply): the first call opens it, and the others wait and are asked in its transaction
      const results = await Promise.all(EMAILS.map((email) => engine.verify(email)));
      for (const result of results) {
        const lines = result.transcript.map((t) => `${t.direction} ${t.line}`);
        const rcpts = lines.filter((l) => l.startsWith('C RCPT TO:'));
        const others = EMAILS.filter((e) => e !== result.email);
        expect(rcpts, result.email).toContain(`C RCPT TO:<${result.email}>`);
        for (const other of others) expect(lines.join('\n'), result.email).not.toContain(other);
        expect(lines.some((l) => l.startsWith('C MAIL FROM:')), result.email).toBe(true);
        // every command it shows has its reply after it: as many server replies as commands after the greeting
        const afterHello = lines.slice(lines.findIndex((l) => l.startsWith('C MAIL FROM:')));
        expect(afterHello.filter((l) => l.startsWith('C ')).length, result.email).toBe(afterHello.filter((l) => /^S \d{3} /.test(l)).length);
      }
      // they did share transactions: fewer MAIL FROM than addresses
      expect(world.hostStats('mx.slowpoke.test').commands - commandsBefore).toBeLessThan(EMAILS.length * 3);
    } finally {
      await engine.close();
    }
  }, 40_000);
});
