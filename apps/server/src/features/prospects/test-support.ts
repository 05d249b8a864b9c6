import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseCsv } from 'csv-parse/sync';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll } from 'vitest';
import { PEOPLE_DOMAINS, startMailWorld, type TCorpusEntry, type TMailWorld } from '@verilead/mailworld';
import type { TConfig } from '../../config';
import { grantCredits } from '../../platform/credits/ledger';
import { selectRows } from '../../platform/db/database';
import { createTestApp, type TTestApp } from '../../test/test-app';
import { seedDirectory } from './directory-import';
import { directoryCorpus, generateCompanies, generatePeople, type TGeneratedPerson } from './generator';

/** Test helpers of the prospect feature: a seeded directory whose addresses live in a local mail world, and three callers. */

export type TProspectUser = { token: string; userId: string; orgId: string };
const MEMBER_PASSWORD = 'Member-Password-1';

export type TProspectWorld = {
  t: TTestApp;
  world: TMailWorld;
  /** The generated people, in the generator's order (with `mailbox_exists`, the mail world's truth). */
  people: TGeneratedPerson[];
  /** Directory id by the generator's external id. */
  idOf: Map<string, string>;
  /** An Owner with 1,000 credits. */
  owner: TProspectUser;
  /** The Owner of another organisation (no credits granted). */
  stranger: TProspectUser;
  /** An Executive (role analyst) of the owner's organisation: sees only their own lists, searches and requests. */
  analyst: TProspectUser;
  call(user: TProspectUser | null, method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown): ReturnType<TTestApp['call']>;
  close(): Promise<void>;
};

/**
 * Starts a mail world that knows the generated directory's mailboxes (plus `extraCorpus`), a test app pointed at it,
 * seeds the directory (`companies`, `people`, `seed`) and creates the callers.
 */
export async function startProspectWorld(opts: {
  companies: number;
  people: number;
  seed: number;
  extraCorpus?: TCorpusEntry[];
  config?: Partial<TConfig>;
}): Promise<TProspectWorld> {
  const companies = generateCompanies(opts.companies, opts.seed);
  const people = [...generatePeople(opts.people, companies, opts.seed)];
  const world = await startMailWorld({ corpus: [...directoryCorpus(people), ...(opts.extraCorpus ?? [])], greylistDelayMs: 100 });
  const storageDir = await mkdtemp(join(tmpdir(), 'vl-prospect-'));
  const t = await createTestApp({
    dnsServers: world.dnsServers,
    verifierSmtpPort: world.smtpPort,
    verifierConnectTimeoutMs: 2_500,
    verifierReplyTimeoutMs: 2_500,
    storageDir,
    ...opts.config,
  });
  await seedDirectory(t.deps.database, { companies: opts.companies, people: opts.people, seed: opts.seed });
  const idOf = new Map<string, string>();
  for (const r of await selectRows<{ id: string; external_id: string }>(t.db.db, sql`select id, external_id from directory_people`)) idOf.set(r.external_id, r.id);

  const call: TProspectWorld['call'] = (user, method, url, payload) =>
    t.call({ method, url: `/api/v1${url}`, token: user?.token, ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }) });
  const owner = await t.createOwner('owner@prospect.test');
  const stranger = await t.createOwner('stranger@prospect.test');
  const add = await call(owner, 'POST', '/admin/member/add', { email: 'exec@prospect.test', role: 'analyst' });
  if (add.status !== 200) throw new Error(`add failed: ${JSON.stringify(add.body)}`);
  const setup = await t.mailedToken('exec@prospect.test', '/setup_password');
  await call(null, 'POST', '/user/password/setup', { token: setup, password: MEMBER_PASSWORD });
  const login = await call(null, 'POST', '/user/login', { email: 'exec@prospect.test', password: MEMBER_PASSWORD });
  const analyst = { token: login.body.data.token, userId: login.body.data.user.id, orgId: owner.orgId };
  await t.deps.database.transaction((tx) => grantCredits(tx, { orgId: owner.orgId, amount: 1_000, reason: 'test' }));

  return {
    t,
    world,
    people,
    idOf,
    owner,
    stranger,
    analyst,
    call,
    close: async () => {
      await t.close();
      await world.stop();
      await rm(storageDir, { recursive: true, force: true });
    },
  };
}

/** Mailboxes on a greylisting host (the operator's data can hold such addresses; the demo generator's never does). */
export const GREYLISTED = ['gina.now@greylist.test', 'greg.later@greylist.test'];

/** The world of the prospect API tests (prospects-search.test.ts, prospects-reveal.test.ts): 25 companies, 240 people, seed 11. */
function startProspectApiWorld(): Promise<TProspectWorld> {
  return startProspectWorld({
    companies: 25,
    people: 240,
    seed: 11,
    extraCorpus: GREYLISTED.map((email) => ({ email, expected: { status: 'valid', reason: 'valid_mailbox' }, tags: ['person'] })),
    // greylist.test lets a (client, sender, recipient) triplet through 100 ms after first seeing it: a thorough check
    // waits 400 ms and asks again.
    config: { verifierGreylistScheduleMs: [400] },
  });
}

/** The prospect API world as its tests read it: the world's fields, and two ways of choosing among its people. */
export type TProspectApiWorld = Omit<TProspectWorld, 'close'> & {
  /** The first `n` generated people that `pred` holds for, in the generator's order. */
  pick(pred: (p: TGeneratedPerson) => boolean, n: number): TGeneratedPerson[];
  /** The mail world's domains whose hosts answer for each mailbox (scenario `strict`). */
  strictDomains: ReadonlySet<string>;
};

/**
 * The fixture of prospects-search.test.ts and prospects-reveal.test.ts, for a `describe` to call: starts the prospect
 * API world before its tests and closes it after. Its fields are set when the world has started (read them in the
 * tests); `call`, `pick` and `strictDomains` may be taken from it at once.
 */
export function useProspectApiWorld(): TProspectApiWorld {
  let started: TProspectWorld | null = null;
  const world = (): TProspectWorld => {
    if (!started) throw new Error('The prospect API world is started in beforeAll: use it in a test.');
    return started;
  };
  const atOnce: Pick<TProspectApiWorld, 'call' | 'pick' | 'strictDomains'> = {
    call: (user, method, url, payload) => world().call(user, method, url, payload),
    pick: (pred, n) => world().people.filter(pred).slice(0, n),
    strictDomains: new Set(PEOPLE_DOMAINS.filter((d) => d.scenario === 'strict').map((d) => d.domain)),
  };
  const w = atOnce as TProspectApiWorld;
  beforeAll(async () => {
    const s = await startProspectApiWorld();
    started = s;
    Object.assign(w, { t: s.t, world: s.world, people: s.people, idOf: s.idOf, owner: s.owner, stranger: s.stranger, analyst: s.analyst });
  }, 60_000);
  afterAll(async () => {
    await started?.close();
  });
  return w;
}

/** The rows of a prepared prospect file (CSV), fetched through its public link after the export job ran. */
export async function fetchProspectCsv(w: TProspectWorld, user: TProspectUser, queueId: string): Promise<string[][]> {
  await w.t.deps.queue.runUntilIdle();
  const st = await w.call(user, 'GET', `/download/result/status?queue_id=${queueId}`);
  if (st.body.data?.state !== 'success') throw new Error(`export not ready: ${JSON.stringify(st.body)}`);
  const file = await w.t.app.inject({ method: 'GET', url: `/api/v1/public/download_prospects?download_token=${encodeURIComponent(st.body.data.download_token)}` });
  if (file.statusCode !== 200) throw new Error(`download failed: ${file.statusCode}`);
  return parseCsv(file.body, { bom: true, relax_column_count: false }) as string[][];
}
