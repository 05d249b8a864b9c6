import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { SIGN_IN_LOCKED_MESSAGE, SIGN_IN_MAX_FAILURES, SIGN_IN_WINDOW_MINUTES } from '@verilead/contracts';
import { selectRows } from '../../platform/db/database';
import { createSignInFailuresRetentionTask } from '../../platform/auth/sign-in-limit';
import { createTestApp, TEST_PASSWORD, type TTestApp } from '../../test/test-app';

/**
 * The per-account sign-in limit of the app's users: the route's per-address limit stops one guesser, not a guesser
 * spread over many addresses; this one counts the e-mail's failures from any address (platform/auth/sign-in-limit.ts).
 */
describe('user sign-in: the per-account limit', () => {
  let t: TTestApp;
  const login = (email: string, password: string, ip = '203.0.113.9') =>
    t.call({ method: 'POST', url: '/api/v1/user/login', payload: { email, password }, remoteAddress: ip });
  const failures = async (email: string) =>
    (await selectRows<{ n: number }>(t.db.db, sql`select count(*)::int as n from sign_in_failures where realm = 'user' and email = ${email}`))[0]?.n;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('locks an e-mail after 10 failures from any addresses, whatever the password, as for an unknown e-mail; other accounts sign in; it opens again after 15 minutes', async () => {
    await t.createOwner('guessed@limit.test');
    // nine failures from nine addresses do not lock, and a success does not count as one
    for (let i = 0; i < SIGN_IN_MAX_FAILURES - 1; i += 1) expect((await login('guessed@limit.test', `Wrong-Pass-${i}`, `192.0.2.${i + 1}`)).status).toBe(401);
    expect((await login('Guessed@Limit.test', TEST_PASSWORD)).status).toBe(200);
    expect(await failures('guessed@limit.test')).toBe(SIGN_IN_MAX_FAILURES - 1);
    // the tenth locks it: the right password answers 429 too, with how long to wait
    expect((await login('guessed@limit.test', 'Wrong-Pass-x', '192.0.2.99')).status).toBe(401);
    const locked = await login('guessed@limit.test', TEST_PASSWORD, '198.51.100.1');
    expect(locked.status).toBe(429);
    expect(locked.body.error).toEqual({ code: 'rate_limited', message: SIGN_IN_LOCKED_MESSAGE, additional_info: { retry_after: SIGN_IN_WINDOW_MINUTES * 60 } });
    // the same for an e-mail without an account: the answer does not tell whether one exists
    for (let i = 0; i < SIGN_IN_MAX_FAILURES; i += 1) expect((await login('nobody@limit.test', `Wrong-Pass-${i}`, `192.0.2.${i + 1}`)).status).toBe(401);
    expect((await login('nobody@limit.test', 'Wrong-Pass-y')).body.error).toEqual(locked.body.error);
    // another account is not locked
    await t.createOwner('other@limit.test');
    expect((await login('other@limit.test', TEST_PASSWORD)).status).toBe(200);
    // once the failures are older than the window, the e-mail signs in again
    await t.db.db.execute(sql`update sign_in_failures set created_at = created_at - make_interval(mins => ${SIGN_IN_WINDOW_MINUTES + 1}) where email = 'guessed@limit.test'`);
    expect((await login('guessed@limit.test', TEST_PASSWORD)).status).toBe(200);
  });

  it('counts concurrent tries: 30 wrong passwords at once get 10 refusals of the password and 20 locks', async () => {
    await t.createOwner('burst@limit.test');
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => login('burst@limit.test', `Wrong-Pass-${i}`, `198.51.100.${i + 10}`)));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(SIGN_IN_MAX_FAILURES);
    expect(statuses.filter((s) => s === 429)).toHaveLength(30 - SIGN_IN_MAX_FAILURES);
    expect(await failures('burst@limit.test')).toBe(SIGN_IN_MAX_FAILURES);
  });

  it('keeps failures a day: the maintenance task deletes older ones', async () => {
    await login('aged@limit.test', 'Wrong-Pass-1');
    await login('fresh@limit.test', 'Wrong-Pass-1');
    await t.db.db.execute(sql`update sign_in_failures set created_at = now() - interval '25 hours' where email = 'aged@limit.test'`);
    const result = await createSignInFailuresRetentionTask({ database: t.db }).run();
    expect(result).toEqual({ deleted: 1 });
    expect(await failures('aged@limit.test')).toBe(0);
    expect(await failures('fresh@limit.test')).toBe(1);
  });
});
