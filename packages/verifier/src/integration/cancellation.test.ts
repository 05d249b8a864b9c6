import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMailWorld, type TMailWorld } from '@verilead/mailworld';
import { VerifierEngine } from '../engine/engine';
import type { TDial, TVerificationResult, TVerifyOptions } from '../types';

// Cancelling a verification in the middle of an SMTP exchange. slowpoke.test waits 700 ms before every reply
// (greeting included) and offers PIPELINING; strict.test offers STARTTLS.
//
// "At once" is checked by order of events, not by wall time: the cancelled call must have rejected before any
// further reply reached the client from the moment of the abort (a call that waits for the reply it was cancelled
// in, or for the rest of its transaction, settles only after that reply has arrived). The abort is made just after
// the command is written, so the reply is always still on its way.
//
// Then the session must be sound: the verifications sharing the transaction get their own verdicts, and later
// verifications on the same host get theirs (a session reused with a reply still unread would shift every answer
// by one).

let world: TMailWorld;
let base: TVerifyOptions;

beforeAll(async () => {
  world = await startMailWorld();
  base = {
    dnsServers: world.dnsServers,
    smtpPort: world.smtpPort,
    heloName: 'verifier.verilead.test',
    mailFrom: 'probe@verifier.verilead.test',
    mode: 'fastest_turnaround',
    timeouts: { dnsMs: 2_000, connectMs: 2_000, replyMs: 5_000, totalMs: 60_000 },
    // one session at a time to the host: every verification on it shares one warm session
    perHostConcurrency: 1,
  };
});
afterAll(async () => {
  await world?.stop();
});

/** The reason a /v2 call's timeout cancels with: a plain object, not an Error. */
const TIMEOUT = { timeout: 'Timeout Occurred' };

/** A dial that counts the replies (data events) the client receives and lets a test act on each connection and write. */
function tappingDial() {
  const tap = {
    received: 0,
    onDial: null as (() => void) | null,
    onWrite: null as ((text: string) => void) | null,
  };
  const dial: TDial = ({ host, port }) => {
    const socket = net.connect({ host, port });
    socket.on('data', () => tap.received++);
    const write = socket.write.bind(socket) as (chunk: unknown, ...rest: unknown[]) => boolean;
    (socket as unknown as { write: typeof write }).write = (chunk, ...rest) => {
      const written = write(chunk, ...rest);
      tap.onWrite?.(String(chunk));
      return written;
    };
    tap.onDial?.();
    return socket;
  };
  return { tap, dial };
}

type TSettled = { ok: true; result: TVerificationResult; receivedSinceAbort: number } | { ok: false; reason: unknown; receivedSinceAbort: number };

/** One verification with its own controller; records how it settled and how many replies arrived after its abort. */
function startVerification(engine: VerifierEngine, tap: { received: number }, email: string) {
  const controller = new AbortController();
  let receivedAtAbort = -1;
  const settled: Promise<TSettled> = engine.verify(email, { signal: controller.signal }).then(
    (result) => ({ ok: true as const, result, receivedSinceAbort: receivedAtAbort < 0 ? -1 : tap.received - receivedAtAbort }),
    (reason: unknown) => ({ ok: false as const, reason, receivedSinceAbort: receivedAtAbort < 0 ? -1 : tap.received - receivedAtAbort }),
  );
  const abort = (): void => {
    receivedAtAbort = tap.received;
    controller.abort(TIMEOUT);
  };
  return { email, settled, abort };
}

const verdict = (s: TSettled): string => (s.ok ? `${s.result.status}/${s.result.reason.code}` : `rejected: ${JSON.stringify(s.reason)}`);
const expected = (email: string): string => (/^(sam|postmaster|alice)@/.test(email) ? 'valid/valid_mailbox' : 'invalid/mailbox_not_found');
const rcptsIn = (text: string): string[] => [...text.matchAll(/RCPT TO:<([^>]+)>/g)].map((m) => m[1] ?? '');

/** Later verifications on the host, on the same engine, side by side (so they share a transaction too). */
async function checkLater(engine: VerifierEngine, emails: string[]): Promise<void> {
  const results = await Promise.all(emails.map((email) => engine.verify(email)));
  expect(results.map((r) => `${r.email}: ${r.status}/${r.reason.code}`)).toEqual(emails.map((email) => `${email}: ${expected(email)}`));
}

describe('a verification cancelled while its SMTP exchange is in flight', () => {
  // The cancelled call opens the session; two others wait for it (one session at a time to the host).
  const slowpoke = { host: 'slowpoke.test', mine: 'sam@slowpoke.test', others: ['nobody.one@slowpoke.test', 'postmaster@slowpoke.test'], later: ['sam@slowpoke.test', 'nobody.two@slowpoke.test'] };
  it.each([
    { stage: 'the greeting', at: 'dial', ...slowpoke },
    { stage: 'EHLO', at: 'EHLO ', ...slowpoke },
    { stage: 'its MAIL/RCPT batch', at: 'MAIL FROM', ...slowpoke },
    { stage: 'STARTTLS', at: 'STARTTLS', host: 'strict.test', mine: 'alice@strict.test', others: ['nobody.one@strict.test', 'postmaster@strict.test'], later: ['alice@strict.test', 'nobody.two@strict.test'] },
  ])('during $stage ($host): rejects at once with the signal’s reason; the calls waiting for the session get their verdicts', async ({ host, at, mine, others, later }) => {
    const mxHost = `mx.${host}`;
    const connectionsBefore = world.hostStats(mxHost).connections;
    const { tap, dial } = tappingDial();
    const engine = new VerifierEngine({ ...base, dial });
    const waiting: Array<ReturnType<typeof startVerification>> = [];
    try {
      let cancelled: ReturnType<typeof startVerification> | null = null;
      const trigger = (): void => {
        tap.onDial = null;
        tap.onWrite = null;
        // the others ask for the same host now: they wait for this call's session slot
        for (const email of others) waiting.push(startVerification(engine, tap, email));
        process.nextTick(() => cancelled?.abort());
      };
      if (at === 'dial') tap.onDial = trigger;
      else tap.onWrite = (text) => text.startsWith(at) && trigger();
      cancelled = startVerification(engine, tap, mine);
      const outcome = await cancelled.settled;
      expect(outcome.ok, verdict(outcome)).toBe(false);
      if (!outcome.ok) expect(outcome.reason).toBe(TIMEOUT);
      expect(outcome.receivedSinceAbort, 'replies that reached the client between the abort and the rejection').toBe(0);
      const rest = await Promise.all(waiting.map((w) => w.settled));
      expect(rest.map(verdict)).toEqual(others.map(expected));
      await checkLater(engine, later);
      // the session opened for the cancelled call was finished, kept and reused: one connection for all
      expect(world.hostStats(mxHost).connections - connectionsBefore).toBe(1);
    } finally {
      await engine.close();
    }
  });

  // Three calls share one transaction (MAIL FROM, their three RCPT TO, pipelined); one of them is cancelled while
  // the batch is in flight. The first RCPT is the call that leads the transaction (it holds the session slot).
  it.each([
    { which: 'the call leading the transaction', index: 0 },
    { which: 'a call taken into it', index: 1 },
    { which: 'the last call taken into it', index: 2 },
  ])('in a shared pipelined multi-RCPT transaction, cancelling $which: it rejects at once, the others get their verdicts', async ({ index }) => {
    const connectionsBefore = world.hostStats('mx.slowpoke.test').connections;
    const { tap, dial } = tappingDial();
    const engine = new VerifierEngine({ ...base, dial });
    const sharing = ['postmaster@slowpoke.test', 'nobody.two@slowpoke.test', 'sam@slowpoke.test'];
    const calls = new Map<string, ReturnType<typeof startVerification>>();
    try {
      // a first call holds the host's one session; the three calls arrive while its transaction runs and wait
      const blocker = startVerification(engine, tap, 'nobody.one@slowpoke.test');
      let target: string | null = null;
      // (the first batch opens the transaction with MAIL FROM; the next joins it, its write beginning with RCPT TO)
      tap.onWrite = (text) => {
        if (!text.startsWith('MAIL FROM') && !text.startsWith('RCPT TO')) return;
        if (calls.size === 0) {
          for (const email of sharing) calls.set(email, startVerification(engine, tap, email));
          return;
        }
        const rcpts = rcptsIn(text).filter((r) => sharing.includes(r));
        if (rcpts.length < sharing.length) return;
        tap.onWrite = null;
        target = rcpts[index] ?? null;
        process.nextTick(() => (target ? calls.get(target)?.abort() : undefined));
      };
      expect(verdict(await blocker.settled)).toBe('invalid/mailbox_not_found');
      const outcomes = new Map<string, TSettled>();
      for (const [email, call] of calls) outcomes.set(email, await call.settled);
      expect(target, 'the three calls were asked in one transaction').not.toBeNull();
      for (const email of sharing) {
        const outcome = outcomes.get(email) as TSettled;
        if (email === target) {
          expect(outcome.ok, verdict(outcome)).toBe(false);
          if (!outcome.ok) expect(outcome.reason).toBe(TIMEOUT);
          expect(outcome.receivedSinceAbort, 'replies that reached the client between the abort and the rejection').toBe(0);
        } else expect(verdict(outcome), email).toBe(expected(email));
      }
      await checkLater(engine, ['nobody.three@slowpoke.test', 'sam@slowpoke.test']);
      expect(world.hostStats('mx.slowpoke.test').connections - connectionsBefore).toBe(1);
    } finally {
      await engine.close();
    }
  });

  it('an aborted verifyMany ends at once, mid-transaction, and leaves the session sound for the next calls', async () => {
    const connectionsBefore = world.hostStats('mx.slowpoke.test').connections;
    const { tap, dial } = tappingDial();
    const engine = new VerifierEngine({ ...base, dial });
    const controller = new AbortController();
    const emails = ['sam@slowpoke.test', 'nobody.one@slowpoke.test', 'nobody.two@slowpoke.test', 'postmaster@slowpoke.test'];
    let receivedAtAbort = -1;
    tap.onWrite = (text) => {
      if (!text.startsWith('MAIL FROM')) return;
      tap.onWrite = null;
      process.nextTick(() => {
        receivedAtAbort = tap.received;
        controller.abort(TIMEOUT);
      });
    };
    try {
      const yielded: string[] = [];
      for await (const r of engine.verifyMany(emails, { concurrency: 10, signal: controller.signal })) yielded.push(r.email);
      expect(receivedAtAbort, 'the stream was aborted').toBeGreaterThanOrEqual(0);
      expect(tap.received - receivedAtAbort, 'replies that reached the client between the abort and the end of the stream').toBe(0);
      expect(yielded).toEqual([]);
      await checkLater(engine, ['nobody.three@slowpoke.test', 'sam@slowpoke.test']);
      expect(world.hostStats('mx.slowpoke.test').connections - connectionsBefore).toBe(1);
    } finally {
      await engine.close();
    }
  });

  it('a signal already aborted rejects with its reason and sends nothing', async () => {
    const { tap, dial } = tappingDial();
    let dials = 0;
    tap.onDial = () => dials++;
    const engine = new VerifierEngine({ ...base, dial });
    try {
      await expect(engine.verify('sam@slowpoke.test', { signal: AbortSignal.abort(TIMEOUT) })).rejects.toBe(TIMEOUT);
      expect(dials).toBe(0);
    } finally {
      await engine.close();
    }
  });
});
