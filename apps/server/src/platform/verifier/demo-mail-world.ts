import { describeMailWorld, makeCorpus, startMailWorld, type TCorpusEntry } from '@verilead/mailworld';
import type { TConfig } from '../../config';

export type TDemoMailWorld = {
  /** Config values that point the engine at the world. */
  configOverrides: Pick<TConfig, 'dnsServers' | 'verifierSmtpPort' | 'verifierConnectTimeoutMs' | 'verifierReplyTimeoutMs' | 'verifierGreylistScheduleMs'>;
  /** Resolver, port and example addresses with their expected verdicts. */
  summary: string;
  stop(): Promise<void>;
};

/** greylist5.test greylists a new triplet for 300 s; the second re-check comes after that. */
const DEMO_GREYLIST5_RECHECK_MS = 310_000;

/**
 * `--demo-mail-world`: starts a local mail world (makeCorpus(500, 1), plus `extraCorpus`: the demo prospect directory's
 * mailboxes) so every verdict can be tried with no internet.
 * greylist.test greylists a new triplet for `greylistDelayMs` (DEMO_GREYLIST_DELAY_MS, default 1 s; longer lets a person
 * or a browser test watch a list wait for its re-check). Timeouts and the greylisting retries are fitted to the world:
 * a first re-check just after greylist.test's delay, and a second after greylist5.test's five minutes (310 s), so a
 * list with greylist5 addresses really waits for its re-check and then gets the mailbox's answer, as on the internet.
 */
export async function startDemoMailWorld(extraCorpus: readonly TCorpusEntry[] = [], greylistDelayMs = 1_000): Promise<TDemoMailWorld> {
  const world = await startMailWorld({ corpus: [...makeCorpus(500, 1), ...extraCorpus], greylistDelayMs });
  const firstRecheckMs = world.greylistDelayMs + 250;
  return {
    configOverrides: {
      dnsServers: world.dnsServers,
      verifierSmtpPort: world.smtpPort,
      verifierConnectTimeoutMs: 2_000,
      verifierReplyTimeoutMs: 2_000,
      verifierGreylistScheduleMs: [firstRecheckMs, Math.max(DEMO_GREYLIST5_RECHECK_MS, firstRecheckMs)],
    },
    summary: describeMailWorld(world),
    stop: () => world.stop(),
  };
}
