import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import createClient from 'openapi-fetch';
import { expect } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { makeCorpus, makePeopleCorpus, startMailWorld, type TPerson } from '@verilead/mailworld';
import { grantCredits } from '../../platform/credits/ledger';
import { createFinderTestApp } from '../email-finder/test-support';
import type { TWorldApp } from '../email-verifier/test-support';
import { REFERENCE_DOCUMENT_PATH } from './public-api-routes';
import type { paths } from '../../generated/public-api.types';

// What the public API conformance tests (public-api-conformance-*.test.ts) share: the reference document's schemas,
// the mail world, the Owner and the app token.

type TDoc = { paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: unknown }> }> }>>; components: unknown };
const doc = parseYaml(readFileSync(REFERENCE_DOCUMENT_PATH, 'utf8')) as TDoc;
const ajv = new Ajv({ strict: false, allErrors: true });
ajv.addSchema({ $id: 'ref', components: doc.components });

/** Validates an answer against the document's schema for that path, method and status (refs resolved in the document). */
export function expectConforms(path: string, method: string, status: number, body: unknown) {
  const op = doc.paths[path]?.[method];
  expect(op, `${method} ${path} is in the document`).toBeDefined();
  const response = op!.responses[String(status)];
  expect(response, `${method.toUpperCase()} ${path} documents status ${status}`).toBeDefined();
  const schema = response!.content?.['application/json']?.schema as Record<string, unknown>;
  expect(schema).toBeDefined();
  // The answer is checked against the schema as documented (issue 27 point 15: getcredits was documented as an array).
  const resolved = JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"ref#/components/')) as object;
  const validate = ajv.compile(resolved);
  const valid = validate(body);
  expect(valid, `${method.toUpperCase()} ${path} ${status}: ${JSON.stringify(validate.errors)} body=${JSON.stringify(body)}`).toBe(true);
}

/** The verification corpus plus people to find (strict, catch-all and greylisting domains), in one mail world; the finder's jobs run. */
async function createConformanceWorld(): Promise<TWorldApp & { people: TPerson[] }> {
  const pc = makePeopleCorpus(40, 21);
  const people = pc.people;
  const seen = new Set<string>();
  const corpus = [...makeCorpus(60, 7), ...pc.corpus].filter((e) => !seen.has(e.email) && seen.add(e.email));
  const world = await startMailWorld({ corpus, greylistDelayMs: 150, tarpitDelayMs: 3_000 });
  const storageDir = await mkdtemp(join(tmpdir(), 'vl-v2-'));
  const t = await createFinderTestApp(
    { dnsServers: world.dnsServers, verifierSmtpPort: world.smtpPort, verifierConnectTimeoutMs: 1_000, verifierReplyTimeoutMs: 1_000, verifierGreylistScheduleMs: [300], storageDir },
    { concurrency: 4 },
  );
  return {
    t,
    world,
    storageDir,
    people,
    close: async () => {
      await t.close();
      await world.stop();
      await rm(storageDir, { recursive: true, force: true });
    },
  };
}

/** Creates an app of the session's organisation and answers its token. */
export async function createAppTokenOf(w: TWorldApp, sessionToken: string, body: Record<string, unknown>): Promise<string> {
  const res = await w.t.call({ method: 'POST', url: '/api/v1/apps/create', token: sessionToken, payload: body });
  expect(res.status).toBe(200);
  return res.body.data.token as string;
}

/** The typed client of the public API at `base`, with the app token `token`. */
export const conformanceClient = (base: string, token: string) => createClient<paths>({ baseUrl: base, headers: { authorization: `Bearer ${token}` } });

export type TConformance = { w: TWorldApp; base: string; owner: { token: string; userId: string; orgId: string }; appToken: string; people: TPerson[] };

/** Starts the world, listens on a loopback port, runs the jobs and makes the Owner (100 credits more) and its app token. */
export async function startConformance(): Promise<TConformance> {
  const w = await createConformanceWorld();
  try {
    await w.t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = w.t.app.server.address();
    if (!address || typeof address === 'string') throw new Error('no address');
    const base = `http://127.0.0.1:${address.port}/v2`;
    await w.t.deps.queue.start();
    const owner = await w.t.createOwner('conformance@verilead.test');
    await w.t.deps.database.transaction((tx) => grantCredits(tx, { orgId: owner.orgId, amount: 100, reason: 'Test top-up' }));
    const appToken = await createAppTokenOf(w, owner.token, { name: 'Conformance', type: 'server', rate_limit: { window: 'minute', max: 1000, scope: 'ip' } });
    return { w, base, owner, appToken, people: w.people };
  } catch (error) {
    await stopConformance(w);
    throw error;
  }
}

/** Stops what startConformance started (also when it failed half-way). */
export async function stopConformance(w: TWorldApp | undefined) {
  await w?.t.deps.queue.stop();
  await w?.close();
}
