import parsePrometheusTextFormat, { type TParsedFamily } from 'parse-prometheus-text-format';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantCredits } from '../../platform/credits/ledger';
import { MAINTENANCE_JOB } from '../../platform/jobs/maintenance';
import { createTestApp, type TTestApp } from '../../test/test-app';
import { createWorldApp, type TWorldApp } from '../email-verifier/test-support';

const TOKEN = 'metrics-test-token-0123456789';

type TUser = { token: string; userId: string; orgId: string };

/** Sums the samples of `name` whose labels include `labels` (a histogram's sample gives its count). */
function sumOf(families: TParsedFamily[], name: string, labels: Record<string, string> = {}): number {
  const family = families.find((f) => f.name === name);
  if (!family) return 0;
  return family.metrics
    .filter((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v))
    .reduce((total, m) => total + Number(m.count ?? m.value ?? 0), 0);
}

/**
 * The `_count` sample of a labelled histogram, read from the exposition lines: parse-prometheus-text-format folds every
 * bucket of a labelled histogram into one object and drops the labels and `_count`, so histograms are read here.
 */
function histogramCount(text: string, name: string, labels: Record<string, string>): number {
  let total = 0;
  for (const line of text.split('\n')) {
    const m = new RegExp(`^${name}_count\\{(.*)\\} (\\S+)$`).exec(line);
    if (!m) continue;
    const found = Object.fromEntries([...m[1]!.matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((x) => [x[1], x[2]]));
    if (Object.entries(labels).every(([k, v]) => found[k] === v)) total += Number(m[2]);
  }
  return total;
}

describe('/metrics (Prometheus text exposition)', () => {
  let w: TWorldApp;
  let owner: TUser;

  beforeAll(async () => {
    w = await createWorldApp(undefined, { metricsToken: TOKEN });
    owner = await w.t.createOwner('owner@metrics.test');
    await w.t.db.transaction((tx) => grantCredits(tx, { orgId: owner.orgId, amount: 100, reason: 'Test top-up' }));
  });
  afterAll(async () => {
    await w?.close();
  });

  async function scrapeText(): Promise<string> {
    const res = await w.t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    return res.body;
  }
  async function scrape(): Promise<TParsedFamily[]> {
    return parsePrometheusTextFormat(await scrapeText());
  }

  it('refuses a scrape without the token or with a wrong one (401, the JSON envelope)', async () => {
    const none = await w.t.call({ method: 'GET', url: '/metrics' });
    expect(none.status).toBe(401);
    expect(none.body).toMatchObject({ status: 'failed', error: { code: 'unauthorized' } });
    const wrong = await w.t.call({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer not-the-token' } });
    expect(wrong.status).toBe(401);
  });

  it('counts an instant verification by status and reason, and the credits it charged', async () => {
    const before = await scrape();
    const res = await w.t.call({ method: 'POST', url: '/api/v1/email_verify/instant', token: owner.token, payload: { email: 'alice@strict.test' } });
    expect(res.status).toBe(200);
    expect(res.body.data.status).toBe('valid');
    const reason = String(res.body.data.reason.code);
    expect(reason).not.toBe('');
    const after = await scrape();
    expect(sumOf(after, 'verilead_verifications_total', { status: 'valid' }) - sumOf(before, 'verilead_verifications_total', { status: 'valid' })).toBe(1);
    expect(sumOf(after, 'verilead_verifications_total', { status: 'valid', reason }) - sumOf(before, 'verilead_verifications_total', { status: 'valid', reason })).toBe(1);
    expect(sumOf(after, 'verilead_credits_charged') - sumOf(before, 'verilead_credits_charged')).toBe(1);
  });

  it("shows the verifier's mail hosts: sessions open per host, and the other per-host figures", async () => {
    const res = await w.t.call({ method: 'POST', url: '/api/v1/email_verify/instant', token: owner.token, payload: { email: 'john.smith@strict.test' } });
    expect(res.body.data.status).toBe('valid');
    const families = await scrape();
    // the warm session kept for reuse at the world's mail host
    const open = families.find((f) => f.name === 'verilead_smtp_sessions_open')?.metrics.filter((m) => m.labels?.host?.endsWith(`:${w.world.smtpPort}`)) ?? [];
    expect(open.length).toBeGreaterThanOrEqual(1);
    expect(open.reduce((n, m) => n + Number(m.value), 0)).toBeGreaterThanOrEqual(1);
    const names = families.map((f) => f.name).filter((n) => n.startsWith('verilead_smtp_')).sort();
    expect(names).toEqual([
      'verilead_smtp_backoff_seconds',
      'verilead_smtp_rate_limited',
      'verilead_smtp_session_capacity',
      'verilead_smtp_sessions_cut',
      'verilead_smtp_sessions_open',
      'verilead_smtp_sessions_opening',
      'verilead_smtp_sessions_refused',
      'verilead_smtp_shared_connections',
    ]);
  });

  it('counts requests in the latency histogram under their route pattern, not the raw URL', async () => {
    const route = '/api/v1/email_verify/instant/recent';
    const labels = { route, method: 'GET', status_code: '200' };
    const before = histogramCount(await scrapeText(), 'verilead_http_request_duration_seconds', labels);
    const res = await w.t.call({ method: 'GET', url: `${route}?limit=10`, token: owner.token });
    expect(res.status).toBe(200);
    const text = await scrapeText();
    expect(histogramCount(text, 'verilead_http_request_duration_seconds', labels) - before).toBe(1);
    expect(parsePrometheusTextFormat(text).find((f) => f.name === 'verilead_http_request_duration_seconds')?.type).toBe('HISTOGRAM');
    // a path with an id is labelled by its pattern
    const id = '00000000-0000-4000-8000-000000000000';
    await w.t.call({ method: 'GET', url: `/api/v1/apps/${id}`, token: owner.token });
    const after = await scrapeText();
    expect(histogramCount(after, 'verilead_http_request_duration_seconds', { route: '/api/v1/apps/:id', method: 'GET' })).toBeGreaterThanOrEqual(1);
    expect(after.includes(id)).toBe(false);
  });

  it('shows every job queue with its waiting jobs and the age of the oldest', async () => {
    const families = await scrape();
    const queues = families.find((f) => f.name === 'verilead_job_queue_waiting')?.metrics.map((m) => m.labels?.queue).sort();
    expect(queues).toEqual(['analysis', 'exports', 'finder', 'integrations', 'mail', 'maintenance', 'verification', 'webhooks']);
    const waitingBefore = sumOf(families, 'verilead_job_queue_waiting', { queue: 'maintenance' });
    await w.t.deps.queue.enqueue(MAINTENANCE_JOB, {}, {});
    const after = await scrape();
    expect(sumOf(after, 'verilead_job_queue_waiting', { queue: 'maintenance' })).toBe(waitingBefore + 1);
    expect(sumOf(after, 'verilead_job_queue_oldest_waiting_seconds', { queue: 'maintenance' })).toBeGreaterThanOrEqual(0);
  });
});

describe('/metrics without METRICS_TOKEN', () => {
  let t: TTestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers 404 (nothing to scrape unless an operator set a token)', async () => {
    const res = await t.call({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer anything' } });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ status: 'failed', error: { code: 'route_not_found' } });
  });
});
