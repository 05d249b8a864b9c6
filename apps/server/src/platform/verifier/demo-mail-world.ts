import { describeMailWorld, makeCorpus, startMailWorld, type TCorpusEntry } from '@verilead/mailworld';
import type { TConfig } from '../../config';

export type TDemoMailWorld = {
  /** Config values that point the engine at the world. */
  configOverrides: Pick<TConfig, 'dnsServers' | 'verifierSmtpPort' | 'verifierConnectTimeoutMs' | 'verifierReplyTimeoutMs' | 'verifierGreylistScheduleMs'>;
  /** Resolver, port and example addresses with their expected verdicts. */
  summary: string;
  stop(): Promise<void>;
};

/**
 * `--demo-mail-world`: starts a local mail world (makeCorpus(500, 1), plus `extraCorpus`: the demo prospect directory's
 * mailboxes) so every verdict can be tried with no internet.
 * Timeouts and the greylisting retry are shortened to fit the world (tarpit 3 s, greylisting 1 s).
 */
export async function startDemoMailWorld(extraCorpus: readonly TCorpusEntry[] = []): Promise<TDemoMailWorld> {
  const world = await startMailWorld({ corpus: [...makeCorpus(500, 1), ...extraCorpus] });
  return {
    configOverrides: {
      dnsServers: world.dnsServers,
      verifierSmtpPort: world.smtpPort,
      verifierConnectTimeoutMs: 2_000,
      verifierReplyTimeoutMs: 2_000,
      verifierGreylistScheduleMs: [world.greylistDelayMs + 250],
    },
    summary: describeMailWorld(world),
    stop: () => world.stop(),
  };
}
