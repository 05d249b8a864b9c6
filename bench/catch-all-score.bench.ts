/**
 * Catch-all score benchmark: how well the score tells real mailboxes from made-up addresses at catch-all domains.
 *
 *   npx tsx bench/catch-all-score.bench.ts      (or `npm run bench catch-all`)
 *   BENCH_SEEDS=7,8,9 npx tsx bench/catch-all-score.bench.ts   (several draws of the truth; default 7)
 *
 * The mail world (realistic preset, on loopback) serves its catch-all company domains; its catch-all truth
 * (packages/mailworld/src/catch-all-truth.ts) knows which of their addresses are real: employees' addresses, mostly
 * in the company's pattern, against random strings, role words and plausible names of people who do not work there.
 * Every candidate is verified by the engine (the verdict must be catch_all: the server cannot tell), then scored the
 * way the server scores it (makeCatchAllScorer) from what the product would know: the addresses seen valid before the
 * domain turned catch-all (the organisation's own results) and the prospect directory's people. The addresses seen
 * valid are not scored (their score would be trivially high). Prints the ROC AUC per domain and overall, the share
 * of real mailboxes scored above the threshold at which 10 % of the made-up addresses are, and an oracle's AUC: an
 * ordering that knows each company's true pattern and which candidates are names (directory-listed, then names in the
 * company's pattern, then other names, then the rest), the most this kind of evidence can tell apart.
 */
import { fileURLToPath } from 'node:url';
import { makeCatchAllTruth, startMailWorld, type TCatchAllCandidate, type TCatchAllCompany } from '@verilead/mailworld';
import { VerifierEngine } from '@verilead/verifier';
import { makeCatchAllScorer } from '../apps/server/src/platform/catch-all/catch-all-context';
import { readNameLocal } from '../apps/server/src/platform/catch-all/name-reading';

const FALSE_POSITIVE_RATE = 0.1;
export const TARGET_AUC = 0.85;

type TScored = TCatchAllCandidate & { score: number; oracle: number };
export type TCatchAllFigures = {
  seed: number;
  scored: number;
  auc: number;
  oracleAuc: number;
  threshold: number;
  recall: number;
  fpr: number;
  meanByKind: Record<string, number>;
  domains: { domain: string; pattern: string; known: number; directory: number; real: number; fake: number; auc: number }[];
};

/** ROC AUC: the chance a random real address scores above a random made-up one (ties count half). */
function rocAuc(rows: readonly TScored[], by: 'score' | 'oracle' = 'score'): number {
  const real = rows.filter((r) => r.real);
  const fake = rows.filter((r) => !r.real);
  let wins = 0;
  for (const r of real) for (const f of fake) wins += r[by] > f[by] ? 1 : r[by] === f[by] ? 0.5 : 0;
  return wins / (real.length * fake.length);
}

/** The lowest threshold passing at most `rate` of the made-up addresses, and the share of real ones above it. */
function recallAtFalsePositiveRate(rows: readonly TScored[], rate: number): { threshold: number; recall: number; fpr: number } {
  const real = rows.filter((r) => r.real);
  const fake = rows.filter((r) => !r.real);
  for (let threshold = 0; threshold <= 101; threshold++) {
    const fpr = fake.filter((f) => f.score >= threshold).length / fake.length;
    if (fpr <= rate) return { threshold, recall: real.filter((r) => r.score >= threshold).length / real.length, fpr };
  }
  return { threshold: 101, recall: 0, fpr: 0 };
}

/** The oracle's rank of a candidate (measurement only: it reads the truth's pattern and kinds, the scorer never does). */
function oracleRank(company: TCatchAllCompany, c: TCatchAllCandidate): number {
  if (company.directory.some((d) => d.email === c.email)) return 3;
  if (c.kind === 'random' || c.kind === 'role') return 0;
  return readNameLocal(c.email.split('@')[0]!)[0]?.pattern === company.pattern ? 2 : 1;
}

const pct = (x: number) => `${(x * 100).toFixed(1)} %`;

/** Verifies every candidate of one draw of the catch-all truth in the realistic world and scores the catch_all ones. */
export async function measureCatchAllScore(seed: number, log: (line: string) => void = () => {}): Promise<TCatchAllFigures> {
  const companies = makeCatchAllTruth(seed);
  const world = await startMailWorld({ preset: 'realistic', commandLatencyMs: [5, 20], postscreenPauseMs: 1_000 });
  const engine = new VerifierEngine({
    dnsServers: world.dnsServers,
    smtpPort: world.smtpPort,
    heloName: 'bench.verilead.test',
    mailFrom: 'bounce@verilead.test',
    timeouts: { dnsMs: 4_000, connectMs: 4_000, replyMs: 6_000 },
  });
  try {
    const candidates = companies.flatMap((c) => c.candidates);
    const verdicts = new Map<string, string>();
    for await (const result of engine.verifyMany(candidates.map((c) => c.email), { concurrency: 64 })) verdicts.set(result.email.toLowerCase(), result.status);
    const all: TScored[] = [];
    const domains: TCatchAllFigures['domains'] = [];
    for (const company of companies) {
      const score = makeCatchAllScorer({ domain: company.domain, sharedPatternCounts: {}, ownValidAddresses: company.knownValid, directory: company.directory });
      const rows = company.candidates
        .filter((c) => verdicts.get(c.email) === 'catch_all')
        .map((c) => ({ ...c, score: score(c.email).score, oracle: oracleRank(company, c) }));
      all.push(...rows);
      const real = rows.filter((r) => r.real).length;
      domains.push({ domain: company.domain, pattern: company.pattern, known: company.knownValid.length, directory: company.directory.length, real, fake: rows.length - real, auc: rocAuc(rows) });
    }
    const notCatchAll = candidates.length - all.length;
    if (notCatchAll > all.length / 10) throw new Error(`${notCatchAll} candidates were not answered catch_all`);
    log(`seed ${seed}: ${all.length} addresses scored (verdict catch_all), ${notCatchAll} with another verdict left out`);
    const meanByKind = Object.fromEntries(
      ['employee', 'outsider', 'role', 'random'].map((kind) => {
        const rows = all.filter((r) => r.kind === kind);
        return [kind, rows.length ? rows.reduce((s, r) => s + r.score, 0) / rows.length : Number.NaN];
      }),
    );
    return { seed, scored: all.length, auc: rocAuc(all), oracleAuc: rocAuc(all, 'oracle'), ...recallAtFalsePositiveRate(all, FALSE_POSITIVE_RATE), meanByKind, domains };
  } finally {
    await engine.close();
    await world.stop();
  }
}

async function main(): Promise<void> {
  const seeds = (process.env.BENCH_SEEDS ?? process.env.BENCH_SEED ?? '7').split(',').map(Number);
  const results: TCatchAllFigures[] = [];
  for (const seed of seeds) {
    const f = await measureCatchAllScore(seed, console.log);
    results.push(f);
    console.log('domain          pattern     known  directory  scored (real/made-up)  AUC');
    for (const d of f.domains) {
      console.log(`${d.domain.padEnd(16)}${d.pattern.padEnd(12)}${String(d.known).padStart(5)}  ${String(d.directory).padStart(9)}  ${`${d.real}/${d.fake}`.padStart(21)}  ${d.auc.toFixed(3)}`);
    }
    const k = (kind: string) => (f.meanByKind[kind] ?? Number.NaN).toFixed(1);
    console.log(`mean score: employee ${k('employee')}, outsider name ${k('outsider')}, role ${k('role')}, random ${k('random')}`);
    console.log(`ROC AUC: ${f.auc.toFixed(3)} (target ≥ ${TARGET_AUC}: ${f.auc >= TARGET_AUC ? 'met' : 'NOT met'}); oracle (true pattern, names vs strings): ${f.oracleAuc.toFixed(3)}`);
    console.log(`real mailboxes scoring ≥ ${f.threshold} (made-up addresses there: ${pct(f.fpr)}, at most ${pct(FALSE_POSITIVE_RATE)}): ${pct(f.recall)}\n`);
  }
  if (results.length > 1) {
    const mean = (pick: (f: TCatchAllFigures) => number) => results.reduce((s, f) => s + pick(f), 0) / results.length;
    console.log(`over ${results.length} seeds: mean ROC AUC ${mean((f) => f.auc).toFixed(3)} (oracle ${mean((f) => f.oracleAuc).toFixed(3)}), mean share of real mailboxes above the 10 % threshold ${pct(mean((f) => f.recall))}`);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
