import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { SIGN_IN_LOCKED_MESSAGE, SIGN_IN_MAX_FAILURES as OPERATOR_SIGN_IN_MAX_FAILURES } from '@verilead/contracts';
import { selectRows } from '../../platform/db/database';
import { createTestApp, type TTestApp } from '../../test/test-app';
import { createOperatorLink } from './operator-auth';
import { setOperatorStatus } from './operator-status';
import { OPS_COMMAND_ACTOR } from './record-action';

const PASSWORD = 'Operator-Pass-1';
type TOp = { id: string; token: string; email: string };

/** Disabling and enabling operators, and what operator sign-in records and limits (security review points 1 and 2). */
describe('operator console: disabling operators, sign-in records and the per-account sign-in lock', () => {
  let t: TTestApp;
  let first: TOp;

  const login = (email: string, password = PASSWORD, ip = '203.0.113.7') =>
    t.call({ method: 'POST', url: '/api/v1/ops/session/login', payload: { email, password }, remoteAddress: ip });
  const ops = (method: 'GET' | 'POST', url: string, token: string, payload?: Record<string, unknown>) =>
    t.call({ method, url: `/api/v1/ops${url}`, token, ...(payload ? { payload } : {}) });
  const makeOperator = async (email: string): Promise<TOp> => {
    const link = await createOperatorLink(t.deps, { email, invitedBy: null });
    const token = new URL(link.url).searchParams.get('token')!;
    const set = await t.call({ method: 'POST', url: '/api/v1/ops/session/set_password', payload: { token, password: PASSWORD } });
    expect(set.status).toBe(200);
    return { id: link.operator.id, token: set.body.data.token as string, email };
  };
  const actions = (email: string) =>
    selectRows<{ action: string; operator_id: string | null; details: Record<string, unknown> }>(
      t.db.db,
      sql`select action, operator_id, details from operator_actions where operator_email = ${email} or details->>'email' = ${email} order by created_at, id`,
    );

  beforeAll(async () => {
    t = await createTestApp();
    first = await makeOperator('first@access-ops.test');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('disables an operator: every session and pending link revoked at once, no sign-in; enabling lets them sign in again', async () => {
    const second = await makeOperator('second@access-ops.test');
    const otherSession = (await login(second.email)).body.data.token as string;
    expect((await ops('GET', '/me', otherSession)).status).toBe(200);

    const disabled = await ops('POST', `/operators/${second.id}/disable`, first.token);
    expect(disabled.status).toBe(200);
    expect(disabled.body.data.operator).toMatchObject({ id: second.id, disabled: true });
    expect(disabled.body.data.message).toMatch(/signed out of 2 sessions/);
    for (const token of [second.token, otherSession]) expect((await ops('GET', '/me', token)).status).toBe(401);
    expect((await login(second.email)).status).toBe(401);
    const listed = (await ops('GET', '/operators', first.token)).body.data.items as { id: string; disabled: boolean }[];
    expect(listed.find((o) => o.id === second.id)?.disabled).toBe(true);
    // A disabled operator cannot be invited around the switch, and a link cannot be made for them.
    expect((await ops('POST', '/operators/invite', first.token, { email: second.email })).status).toBe(409);

    const enabled = await ops('POST', `/operators/${second.id}/enable`, first.token);
    expect(enabled.status).toBe(200);
    expect(enabled.body.data.operator.disabled).toBe(false);
    // The revoked sessions stay revoked; the password signs in again.
    expect((await ops('GET', '/me', second.token)).status).toBe(401);
    expect((await login(second.email)).status).toBe(200);

    const log = await actions(second.email);
    expect(log.filter((a) => a.action.startsWith('operator.operator_'))).toEqual([
      expect.objectContaining({ action: 'operator.operator_disabled', operator_id: first.id, details: expect.objectContaining({ sessions_revoked: 2, links_revoked: 0 }) }),
      expect.objectContaining({ action: 'operator.operator_enabled', operator_id: first.id }),
    ]);
  });

  it("voids an invited operator's pending link when disabled", async () => {
    expect((await ops('POST', '/operators/invite', first.token, { email: 'pending@access-ops.test' })).status).toBe(200);
    const mailed = await t.mailedToken('pending@access-ops.test', '/ops/set-password');
    const pending = (await ops('GET', '/operators', first.token)).body.data.items.find((o: { email: string }) => o.email === 'pending@access-ops.test');
    const res = await ops('POST', `/operators/${pending.id}/disable`, first.token);
    expect(res.status).toBe(200);
    const set = await t.call({ method: 'POST', url: '/api/v1/ops/session/set_password', payload: { token: mailed, password: PASSWORD } });
    expect(set.status).toBe(400);
    expect(set.body.error.code).toBe('invalid_token');
    const log = await actions('pending@access-ops.test');
    expect(log.find((a) => a.action === 'operator.operator_disabled')?.details).toMatchObject({ links_revoked: 1 });
  });

  it('refuses to disable yourself or the last enabled operator, also when two operators disable each other at once', async () => {
    const self = await ops('POST', `/operators/${first.id}/disable`, first.token);
    expect(self.status).toBe(403);
    expect(self.body.error.message).toMatch(/cannot disable yourself/);
    expect((await ops('POST', '/operators/00000000-0000-4000-8000-000000000000/disable', first.token)).status).toBe(404);

    // Only `first` and `second` can sign in (pending is disabled): two operators disabling each other at once leave one.
    const second = (await ops('GET', '/operators', first.token)).body.data.items.find((o: { email: string }) => o.email === 'second@access-ops.test');
    const secondToken = (await login('second@access-ops.test')).body.data.token as string;
    const [a, b] = await Promise.all([ops('POST', `/operators/${second.id}/disable`, first.token), ops('POST', `/operators/${first.id}/disable`, secondToken)]);
    expect([a.status, b.status].filter((s) => s === 200)).toHaveLength(1);
    const enabled = await selectRows<{ n: number }>(t.db.db, sql`select count(*)::int as n from operators where disabled_at is null and password_hash is not null`);
    expect(enabled[0]!.n).toBe(1);
    // The last one left cannot be disabled, by the ops command either.
    const [left] = await selectRows<{ id: string; email: string }>(t.db.db, sql`select id, email from operators where disabled_at is null and password_hash is not null`);
    await expect(setOperatorStatus(t.deps, OPS_COMMAND_ACTOR, { email: left!.email }, true)).rejects.toThrow(/last enabled operator/);
    // Put things back for the next tests: both enabled.
    await setOperatorStatus(t.deps, OPS_COMMAND_ACTOR, { id: left!.id === first.id ? second.id : first.id }, false);
    first.token = (await login(first.email)).body.data.token as string;
  });

  it('disables and enables through the ops command route, which needs APP_SECRET', async () => {
    const body = { email: 'second@access-ops.test', disabled: true };
    const wrong = await t.call({ method: 'POST', url: '/api/v1/ops/operator_status', headers: { 'x-ops-secret': 'not-the-secret' }, payload: body });
    expect(wrong.status).toBe(403);
    const none = await t.call({ method: 'POST', url: '/api/v1/ops/operator_status', payload: body });
    expect(none.status).toBe(403);
    const done = await t.call({ method: 'POST', url: '/api/v1/ops/operator_status', headers: { 'x-ops-secret': 'test-secret' }, payload: body });
    expect(done.status).toBe(200);
    expect(done.body.data.operator).toMatchObject({ email: 'second@access-ops.test', disabled: true });
    expect((await login('second@access-ops.test')).status).toBe(401);
    const back = await t.call({ method: 'POST', url: '/api/v1/ops/operator_status', headers: { 'x-ops-secret': 'test-secret' }, payload: { ...body, disabled: false } });
    expect(back.status).toBe(200);
    const log = await actions('second@access-ops.test');
    expect(log.filter((a) => a.action.startsWith('operator.operator_')).slice(-2)).toEqual([
      expect.objectContaining({ action: 'operator.operator_disabled', operator_id: null }),
      expect.objectContaining({ action: 'operator.operator_enabled', operator_id: null }),
    ]);
  });

  it('records every sign-in and failure with the address, for unknown e-mails too', async () => {
    const signer = await makeOperator('signer@access-ops.test');
    expect((await login(signer.email, PASSWORD, '198.51.100.4')).status).toBe(200);
    expect((await login(signer.email, 'Wrong-Pass-1', '198.51.100.5')).status).toBe(401);
    const unknown = await login('nobody@access-ops.test', 'Wrong-Pass-1', '198.51.100.6');
    expect(unknown.status).toBe(401);
    const log = await actions(signer.email);
    expect(log.filter((a) => a.action.startsWith('operator.sign'))).toEqual([
      expect.objectContaining({ action: 'operator.signed_in', operator_id: signer.id, details: { ip: '127.0.0.1', with: 'one_time_link' } }),
      expect.objectContaining({ action: 'operator.signed_in', operator_id: signer.id, details: { ip: '198.51.100.4' } }),
      expect.objectContaining({ action: 'operator.sign_in_failed', operator_id: signer.id, details: { ip: '198.51.100.5', reason: 'wrong_password' } }),
    ]);
    expect(await actions('nobody@access-ops.test')).toEqual([expect.objectContaining({ action: 'operator.sign_in_failed', operator_id: null, details: { ip: '198.51.100.6', reason: 'unknown_email' } })]);
    // The console's operator log shows them.
    const shown = (await ops('GET', '/actions?limit=100', first.token)).body.data.items as { action: string; operator_email: string }[];
    expect(shown).toEqual(expect.arrayContaining([expect.objectContaining({ action: 'operator.sign_in_failed', operator_email: 'nobody@access-ops.test' })]));
  });

  it('locks an account after 10 failures in 15 minutes, whatever the password, the same way for unknown e-mails; then lets it in again', async () => {
    const victim = await makeOperator('victim@access-ops.test');
    // Nine failures do not lock: the right password still signs in.
    for (let i = 0; i < OPERATOR_SIGN_IN_MAX_FAILURES - 1; i += 1) expect((await login(victim.email, `Wrong-Pass-${i}`, `192.0.2.${i + 1}`)).status).toBe(401);
    expect((await login(victim.email)).status).toBe(200);
    // The tenth (from any address) locks it: the right password answers 429 too.
    expect((await login(victim.email, 'Wrong-Pass-x', '192.0.2.99')).status).toBe(401);
    const locked = await login(victim.email);
    expect(locked.status).toBe(429);
    expect(locked.body.error).toMatchObject({ code: 'rate_limited', message: SIGN_IN_LOCKED_MESSAGE });

    // An unknown e-mail answers the same after as many failures: nothing tells whether the account exists.
    for (let i = 0; i < OPERATOR_SIGN_IN_MAX_FAILURES; i += 1) expect((await login('ghost@access-ops.test', `Wrong-Pass-${i}`)).status).toBe(401);
    const ghost = await login('ghost@access-ops.test', 'Wrong-Pass-y');
    expect(ghost.status).toBe(429);
    expect(ghost.body.error).toEqual(locked.body.error);

    // Other accounts are not locked; the locked attempts are recorded.
    expect((await login(first.email)).status).toBe(200);
    expect((await actions(victim.email)).filter((a) => a.action === 'operator.sign_in_locked')).toHaveLength(1);

    // Once its failures are 15 minutes old the account signs in again.
    await t.db.db.execute(sql`update sign_in_failures set created_at = created_at - interval '16 minutes' where realm = 'operator' and email = ${victim.email}`);
    expect((await login(victim.email)).status).toBe(200);
  });
  it('counts concurrent tries of one e-mail: 30 wrong passwords at once get 10 refusals of the password and 20 locks', async () => {
    const target = await makeOperator('concurrent@access-ops.test');
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => login(target.email, `Wrong-Pass-${i}`, `198.51.100.${i + 10}`)));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 401)).toHaveLength(OPERATOR_SIGN_IN_MAX_FAILURES);
    expect(statuses.filter((s) => s === 429)).toHaveLength(30 - OPERATOR_SIGN_IN_MAX_FAILURES);
    const log = await actions(target.email);
    expect(log.filter((a) => a.action === 'operator.sign_in_failed').map((a) => a.details.reason)).toEqual(Array(OPERATOR_SIGN_IN_MAX_FAILURES).fill('wrong_password'));
    expect((await login(target.email)).status).toBe(429);
  });
});
