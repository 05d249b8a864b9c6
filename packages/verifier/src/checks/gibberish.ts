import { createRequire } from 'node:module';
import type { TGibberishThreshold } from '../types';

/*
 * Gibberish detection: a character trigram Markov model trained, on first use, on the ~197,000 first and
 * last names shipped by the npm package `humannames` (list.txt). A local part is split into letter runs;
 * each run of 3+ letters is scored by its mean log2-probability per character under the model, and the
 * mean over runs (weighted by length) is mapped to a 0–1 score (higher = more gibberish). Runs that mix
 * letters and digits many times (x7f9q2kz) add to the score.
 */
const require = createRequire(import.meta.url);
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz';
const START = '^';
const END = '$';
const SMOOTHING = 0.1;

type TModel = { logProb(context: string, next: string): number };
let model: TModel | null = null;

function trainModel(): TModel {
  const fs = require('node:fs') as typeof import('node:fs');
  const path = require.resolve('humannames/list.txt');
  const names = fs.readFileSync(path, 'utf8').split('\n');
  const counts = new Map<string, Map<string, number>>();
  const totals = new Map<string, number>();
  for (const raw of names) {
    const word = raw.toLowerCase().replace(/[^a-z]/g, '');
    if (word.length < 2) continue;
    const chars = [START, START, ...word, END];
    for (let i = 2; i < chars.length; i++) {
      const ctx = (chars[i - 2] as string) + (chars[i - 1] as string);
      const next = chars[i] as string;
      let row = counts.get(ctx);
      if (!row) counts.set(ctx, (row = new Map()));
      row.set(next, (row.get(next) ?? 0) + 1);
      totals.set(ctx, (totals.get(ctx) ?? 0) + 1);
    }
  }
  const vocab = ALPHABET.length + 1;
  return {
    logProb(context: string, next: string): number {
      const row = counts.get(context);
      const count = row?.get(next) ?? 0;
      const total = totals.get(context) ?? 0;
      return Math.log2((count + SMOOTHING) / (total + SMOOTHING * vocab));
    },
  };
}

function getModel(): TModel {
  if (!model) model = trainModel();
  return model;
}

/** Mean log2-probability per transition of one lower-case letter run (with start and end markers). */
function scoreRun(run: string): number {
  const m = getModel();
  const chars = [START, START, ...run, END];
  let sum = 0;
  for (let i = 2; i < chars.length; i++) sum += m.logProb((chars[i - 2] as string) + (chars[i - 1] as string), chars[i] as string);
  return sum / (chars.length - 2);
}

// Mean log2-probability per character that maps to score 0 (name-like) and 1 (random letters).
const NAME_LIKE = -2.6;
const RANDOM_LIKE = -7.0;
const NEUTRAL = -4.0;
const SHRINK_LETTERS = 2;

/**
 * Gibberish score of a local part (or a whole address: the domain is ignored), 0 = reads like a name or word,
 * 1 = random characters.
 */
export function scoreGibberish(localPartOrAddress: string): number {
  const at = localPartOrAddress.lastIndexOf('@');
  const local = (at >= 0 ? localPartOrAddress.slice(0, at) : localPartOrAddress).toLowerCase().replace(/\+.*$/, '');
  const runs = local.split(/[^a-z]+/).filter((r) => r.length >= 3);
  let weighted = 0;
  let letters = 0;
  for (const run of runs) {
    // An initial glued to a surname (jsmith) is common: score the run with and without its first letter.
    const best = run.length >= 5 ? Math.max(scoreRun(run), scoreRun(run.slice(1))) : scoreRun(run);
    weighted += best * run.length;
    letters += run.length;
  }
  let score = 0;
  if (letters > 0) {
    // Short runs say little: shrink towards a neutral prior worth SHRINK_LETTERS letters.
    const mean = (weighted + NEUTRAL * SHRINK_LETTERS) / (letters + SHRINK_LETTERS);
    score = Math.min(1, Math.max(0, (NAME_LIKE - mean) / (NAME_LIKE - RANDOM_LIKE)));
  }
  // Letter/digit alternation (a1b2c3, x7f9q2kz): 4+ switches between letters and digits is a strong sign.
  const switches = (local.match(/(?=[a-z][0-9]|[0-9][a-z])/g) ?? []).length;
  if (switches >= 4) score = Math.max(score, Math.min(1, 0.55 + 0.1 * switches));
  return Math.round(score * 1000) / 1000;
}

/** Score above which an address is flagged, per threshold level (high = flag only very clear gibberish). */
export const GIBBERISH_THRESHOLDS: Record<TGibberishThreshold, number> = { low: 0.5, medium: 0.6, high: 0.75 };

/** True when the local part's gibberish score passes the chosen threshold level. */
export function checkGibberish(localPartOrAddress: string, threshold: TGibberishThreshold = 'high'): boolean {
  return scoreGibberish(localPartOrAddress) >= GIBBERISH_THRESHOLDS[threshold];
}
