import type { TExtensionVersion, TMarketingStats } from '@verilead/contracts';
import type { TExtensionUninstallRequest } from '@verilead/contracts';
import type { TDb } from '../../platform/db/database';
import type { TDeps } from '../../platform/deps';
import { countOrganisationsAndUsers, insertUninstallFeedback, sumNetChargesByAgent } from './queries';

/** POST /public/extension_uninstall: keeps the survey answer. */
export async function recordExtensionUninstall(exec: TDb, input: TExtensionUninstallRequest): Promise<{ message: string }> {
  await insertUninstallFeedback(exec, {
    reasons: [...new Set(input.reasons)],
    otherReason: input.reasons.includes('others') ? (input.other_reason ?? null) : null,
    comment: input.comment || null,
    email: input.email || null,
    extensionVersion: input.extension_version || null,
  });
  return { message: 'Thank you for your feedback' };
}

const STATS_TTL_MS = 5 * 60_000;
let statsCache: { at: number; value: TMarketingStats } | null = null;

/** GET /public/marketing_stats: product-wide figures, recomputed at most every five minutes. */
export async function getMarketingStats(exec: TDb, now = Date.now()): Promise<TMarketingStats> {
  if (statsCache && now - statsCache.at < STATS_TTL_MS) return statsCache.value;
  const [byAgent, counts] = await Promise.all([sumNetChargesByAgent(exec), countOrganisationsAndUsers(exec)]);
  const sum = (agents: string[]) => agents.reduce((total, a) => total + (byAgent[a] ?? 0), 0);
  const value: TMarketingStats = {
    emails_verified: sum(['instant_verify', 'bulk_verify']),
    emails_found: sum(['instant_finder', 'bulk_finder']),
    organisations: counts.organisations,
    users: counts.users,
    generated_at: new Date(now).toISOString(),
  };
  statsCache = { at: now, value };
  return value;
}

/** Forgets the cached figures (tests). */
export function resetMarketingStatsCache(): void {
  statsCache = null;
}

function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i += 1) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return Math.sign(d);
  }
  return 0;
}

/** GET /extension/version?v: the newest extension version and whether the caller's must update. */
export function getExtensionVersion(deps: Pick<TDeps, 'config'>, v: string | undefined): TExtensionVersion {
  const { latestVersion, minVersion } = deps.config.extension;
  return {
    latest_version: latestVersion,
    min_supported_version: minVersion,
    update_available: v !== undefined && compareVersions(v, latestVersion) < 0,
    update_required: v !== undefined && compareVersions(v, minVersion) < 0,
  };
}
