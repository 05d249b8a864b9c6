/**
 * Catch-all score benchmark: how well the score tells real mailboxes from made-up addresses at catch-all domains.
 *
 *   npx tsx bench/catch-all-score.bench.ts      (or `npm run bench catch-all`)
 *
 * The mail world (realistic preset, on loopback) serves its catch-all company domains; its catch-all truth
 * (packages/mailworld/src/catch-all-truth.ts) knows which of their addresses are real: employees' addresses, mostly
 * in the company's pattern, against random strings, role words and plausible names of people who do not work there.
 * Every candidate is verified by the engine (the verdict must be catch_all: the server cannot tell), then scored the
 * way the server scores it (makeCatchAllScorer) from what the product would know: the addresses seen valid before the
 * domain turned catch-all (the organisation's own results) and the prospect directory's people. The addresses seen
 * valid are not scored (their score would be trivially high). Prints the ROC AUC per domain and overall, and the share
 * of real mailboxes scored above the threshold at which 10 % of the made-up addresses are.
 */
import { makeCatchAllTruth, startMailWorld, type TCatchAllCandidate } from '@verilead/mailworld';
import { VerifierEngine } from '@verilead/verifier';
import { makeCatchAllScorer } from '../apps/server/src/platform/catch-all/catch-all-context';

const SEED = Number(process.env.BENCH_SEED ?? 7);
const FALSE_POSITIVE_RATE = 0.1;
const TARGET_AUC = 0.85;

type TScored = TCatchAllCandidate & { score: number };

/** ROC AUC: the chance a random real address scores above a random made-up one (ties count half). */
function rocAuc(rows: readonly TScored[]): number {
  const real = rows.filter((r) => r.real);
  const fake = rows.filter((r) => !r.real);
  let wins = 0;
  for (const r of real) for (const f of fake) wins += r.score > f.score ? 1 : r.score === f.score ? 0.5 : 0;
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

const pct = (x: number) => `${(x * 100).toFixed(1)} %`;

async function main(): Promise<void> {
  const companies = makeCatchAllTruth(SEED);
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
    console.log('domain          pattern     known  directory  scored (real/made-up)  AUC');
    for (const company of companies) {
      const score = makeCatchAllScorer({
        domain: company.domain,
        sharedPatternCounts: {},
        ownValidAddresses: company.knownValid,
        directory: company.directory,
      });
      const rows = company.candidates
        .filter((c) => verdicts.get(c.email) === 'catch_all')
        .map((c) => ({ ...c, score: score(c.email).score }));
      all.push(...rows);
      const real = rows.filter((r) => r.real).length;
      console.log(
        `${company.domain.padEnd(16)}${company.pattern.padEnd(12)}${String(company.knownValid.length).padStart(5)}  ${String(company.directory.length).padStart(9)}  ${`${real}/${rows.length - real}`.padStart(21)}  ${rocAuc(rows).toFixed(3)}`,
      );
    }
    const notCatchAll = candidates.length - all.length;
    const auc = rocAuc(all);
    const at = recallAtFalsePositiveRate(all, FALSE_POSITIVE_RATE);
    const byKind = (kind: string) => {
      const rows = all.filter((r) => r.kind === kind);
      return rows.length ? (rows.reduce((s, r) => s + r.score, 0) / rows.length).toFixed(1) : '-';
    };
    console.log(`\naddresses scored: ${all.length} (verdict catch_all), ${notCatchAll} with another verdict left out`);
    console.log(`mean score: employee ${byKind('employee')}, outsider name ${byKind('outsider')}, role ${byKind('role')}, random ${byKind('random')}`);
    console.log(`ROC AUC: ${auc.toFixed(3)} (target ≥ ${TARGET_AUC}: ${auc >= TARGET_AUC ? 'met' : 'NOT met'})`);
    console.log(`real mailboxes scoring ≥ ${at.threshold} (made-up addresses there: ${pct(at.fpr)}, at most ${pct(FALSE_POSITIVE_RATE)}): ${pct(at.recall)}`);
    if (notCatchAll > all.length / 10) throw new Error(`${notCatchAll} candidates were not answered catch_all`);
  } finally {
    await engine.close();
    await world.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
