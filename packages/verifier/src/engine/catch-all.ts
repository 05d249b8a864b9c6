import { randomBytes } from 'node:crypto';
import type { TVerifierCache } from '../types';

const CATCH_ALL_TTL_MS = 6 * 3_600_000;
/** How long a host's per-recipient 5.4.1 / 5.7.x denials, once proven so, are trusted without a control recipient. */
const DENIAL_TTL_MS = 3_600_000;

/** What an answered transaction taught about a domain (see retry-policy.ts: `judgeAnswer`). */
export type TDomainLesson = { catchAll?: boolean; perRecipientDenier?: true };

function makeRandomLocal(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  const bytes = randomBytes(14);
  let out = '';
  for (const b of bytes) out += alphabet[b % alphabet.length];
  return `zq${out}`;
}

/**
 * Catch-all probing: what the engine knows of each domain (whether it accepts every address; whether its hosts deny
 * unknown recipients per recipient with 5.4.1 / 5.7.x) and the random address that asks it. All of it lives in the
 * engine's cache, so a shared cache shares it between processes.
 */
export class CatchAllProbing {
  /** Catch-all probe addresses being chosen per domain: concurrent addresses of one domain share one. */
  private readonly probeChoices = new Map<string, Promise<string>>();

  constructor(private readonly cache: TVerifierCache) {}

  /** Whether the domain accepts every address (null: not known yet, so its transactions carry the probe). */
  async known(domain: string): Promise<boolean | null> {
    const value = await this.cache.get(`smtp:catchall:${domain}`);
    return typeof value === 'boolean' ? value : null;
  }

  /** True once this domain's hosts were seen to deny unknown recipients while accepting real ones (5.4.1 edge blocking). */
  async isPerRecipientDenier(domain: string): Promise<boolean> {
    return (await this.cache.get(`smtp:denial:${domain}`)) === 'per_recipient';
  }

  /** Keeps what an answer taught about the domain. */
  async learn(domain: string, lesson: TDomainLesson): Promise<void> {
    if (lesson.catchAll !== undefined) await this.cache.set(`smtp:catchall:${domain}`, lesson.catchAll, CATCH_ALL_TTL_MS);
    if (lesson.perRecipientDenier) await this.cache.set(`smtp:denial:${domain}`, 'per_recipient', DENIAL_TTL_MS);
  }

  /**
   * The random address that probes a domain for catch-all: one per domain for a few hours (shared through the
   * cache), so a greylisting host that saw it on a first attempt lets it through on a re-check made by a later call.
   * Concurrent addresses of a domain wait for one choice: each making its own would leave in the cache an address
   * the host never saw, and the re-check would meet the greylist again.
   */
  probeAddress(domain: string): Promise<string> {
    const pending = this.probeChoices.get(domain);
    if (pending) return pending;
    const choice = this.chooseProbeAddress(domain).finally(() => this.probeChoices.delete(domain));
    this.probeChoices.set(domain, choice);
    return choice;
  }

  private async chooseProbeAddress(domain: string): Promise<string> {
    const key = `smtp:probe:${domain}`;
    const known = await this.cache.get(key);
    if (typeof known === 'string') return known;
    const address = `${makeRandomLocal()}@${domain}`;
    await this.cache.set(key, address, CATCH_ALL_TTL_MS);
    return address;
  }
}
