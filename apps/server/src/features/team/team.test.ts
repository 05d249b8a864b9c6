import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { desc, eq } from 'drizzle-orm';
import { isAppError } from '../../platform/errors/app-error';
import { httpStatusOf } from '../../platform/errors/http-status';
import { chargeCreditsNow, grantCredits } from '../../platform/credits/ledger';
import { outbox } from '../../platform/mailer/tables';
import { organisations } from '../../platform/tenancy/tables';
import { createTestApp, TEST_PASSWORD, type TTestApp } from '../../test/test-app';
import { editMember } from './service';
import { seatRequests } from './tables';

const NEW_PASSWORD = 'Member-Pass-42';

type TOwner = { token: string; userId: string; orgId: string };

describe('team administration', () => {
  let t: TTestApp;
  let owner: TOwner;
  let other: TOwner;
  let adminToken: string;
  let adminId: string;
  let analystToken: string;
  let analystId: string;
  let otherAnalystId: string;
  let otherTeamId: string;

  const post = (url: string, token: string, payload: unknown) => t.call({ method: 'POST', url: `/api/v1${url}`, token, payload: payload as Record<string, unknown> });

  /** Adds a member as `by`, lets them set a password from the mailed link and logs them in. */
  async function addAndLogin(by: string, email: string, role: 'admin' | 'analyst') {
    const add = await post('/admin/member/add', by, { email, role, name: 'Team Member' });
    expect(add.status, JSON.stringify(add.body)).toBe(200);
    const token = await t.mailedToken(email, '/setup_password');
    const setup = await t.call({ method: 'POST', url: '/api/v1/user/password/setup', payload: { token, password: NEW_PASSWORD } });
    expect(setup.status).toBe(200);
    const login = await t.call({ method: 'POST', url: '/api/v1/user/login', payload: { email, password: NEW_PASSWORD } });
    expect(login.status, JSON.stringify(login.body)).toBe(200);
    return { token: login.body.data.token as string, id: add.body.data.member.member_id as string };
  }

  beforeAll(async () => {
    t = await createTestApp();
    owner = await t.createOwner('owner@team.test', 'Olivia Owner');
    other = await t.createOwner('owner@other.test', 'Oscar Other');
    await t.db.db.update(organisations).set({ userCreateLimit: 50 }).where(eq(organisations.id, owner.orgId));
    ({ token: adminToken, id: adminId } = await addAndLogin(owner.token, 'manager@team.test', 'admin'));
    ({ token: analystToken, id: analystId } = await addAndLogin(owner.token, 'exec@team.test', 'analyst'));
    otherAnalystId = (await post('/admin/member/add', other.token, { email: 'exec@other.test', role: 'analyst' })).body.data.member.member_id;
    otherTeamId = (await post('/admin/team/create', other.token, { name: 'Other team' })).body.data.team.id;
  });
  afterAll(async () => {
    await t.close();
  });

  it('adds a Manager with an invitation mail whose link sets the password; the Manager gets the Manager role', async () => {
    const mail = await t.db.db.select().from(outbox).where(eq(outbox.toAddress, 'manager@team.test')).orderBy(desc(outbox.createdAt));
    expect(mail[0]?.text).toMatch(/http:\/\/app\.verilead\.test\/setup_password\?token=vlt_/);
    const profile = await t.call({ method: 'GET', url: '/api/v1/user/profile', token: adminToken });
    expect(profile.body.data).toMatchObject({ user_role: 'admin', org_id: owner.orgId, has_password: true });
    const add = await post('/admin/member/add', adminToken, { email: 'second-exec@team.test', role: 'analyst' });
    expect(add.status).toBe(200);
    expect(add.body.data).toMatchObject({ message: 'Member added successfully', member: { role: 'analyst', status: 'active', has_password: false } });
    const dup = await post('/admin/member/add', owner.token, { email: 'exec@team.test', role: 'analyst' });
    expect(dup.status).toBe(409);
  });

  it('refuses bad input with the reasons and the spec messages', async () => {
    const bad = await post('/admin/member/add', owner.token, { email: 'nope', role: 'owner' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.reasons.map((r: { field: string }) => r.field).sort()).toEqual(['email', 'role']);
    const noCount = await post('/admin/member/seatrequest', owner.token, { reason: 'more people' });
    expect(noCount.status).toBe(400);
    expect(noCount.body.error.reasons).toEqual([{ field: 'seat_count', location: 'body', messages: ['Please enter the required seat count'] }]);
    const tooMany = await post('/admin/member/seatrequest', owner.token, { seat_count: 51, reason: 'more people' });
    expect(tooMany.body.error.reasons[0].messages).toEqual(['Please select the seat range from 1 to 50']);
    const noReason = await post('/admin/member/seatrequest', owner.token, { seat_count: 3, reason: ' ' });
    expect(noReason.body.error.reasons[0]).toMatchObject({ field: 'reason', messages: ['Please enter a reason'] });
    expect((await post('/admin/member/list', owner.token, { limit: 30 })).status).toBe(400);
    expect((await post('/admin/member/edit', owner.token, { member_id: analystId })).status).toBe(400);
    expect((await post('/admin/member/update_status', owner.token, { member_id: analystId, status: 'removed' })).status).toBe(400);
    expect((await post('/admin/bulk/remove', owner.token, { member_ids: [] })).status).toBe(400);
    expect((await post('/admin/team/create', owner.token, { name: '' })).status).toBe(400);
    expect((await post('/admin/edit', owner.token, { org_website_url: 'not a site' })).status).toBe(400);
  });

  it('answers 403 to an Executive on every admin call', async () => {
    const calls: [string, string, unknown][] = [
      ['POST', '/admin/member/list', {}],
      ['POST', '/admin/member/add', { email: 'x@team.test', role: 'analyst' }],
      ['POST', '/admin/member/edit', { member_id: adminId, name: 'X' }],
      ['POST', '/admin/member/remove', { member_id: adminId }],
      ['POST', '/admin/member/update_status', { member_id: adminId, status: 'inactive' }],
      ['POST', '/admin/member/reactivate', { member_id: adminId }],
      ['POST', '/admin/member/seatrequest', { seat_count: 2, reason: 'x' }],
      ['POST', '/admin/team/create', { name: 'Mine' }],
      ['POST', '/admin/team/list', {}],
      ['POST', '/admin/team/members', { team_id: otherTeamId }],
      ['POST', '/admin/team/edit', { team_id: otherTeamId, name: 'x' }],
      ['POST', '/admin/bulk/remove', { member_ids: [adminId] }],
      ['POST', '/admin/edit', { name: 'Hijack' }],
      ['POST', '/admin/low_credit_alert/update', { enabled: true, threshold: 5 }],
      ['GET', '/admin/settings', undefined],
      ['PUT', '/admin/settings/email_verifier', { auto_pilot_status: true }],
      ['PUT', '/admin/settings/email_finder', { strict_domain_check: true }],
      ['PUT', '/admin/settings/prospect', { person_enrich_settings: { phones: 'all', emails: 'all' } }],
    ];
    for (const [method, url, payload] of calls) {
      const res = await t.call({ method: method as 'POST', url: `/api/v1${url}`, token: analystToken, ...(payload ? { payload: payload as Record<string, unknown> } : {}) });
      expect(res.status, `${method} ${url}`).toBe(403);
      expect(res.body.error.code).toBe('forbidden');
    }
  });

  it("answers 404 for another organisation's member and team ids", async () => {
    const calls: [string, unknown][] = [
      ['/admin/member/edit', { member_id: otherAnalystId, name: 'Stolen' }],
      ['/admin/member/remove', { member_id: otherAnalystId }],
      ['/admin/member/update_status', { member_id: otherAnalystId, status: 'inactive' }],
      ['/admin/member/reactivate', { member_id: otherAnalystId }],
      ['/admin/bulk/remove', { member_ids: [analystId, otherAnalystId] }],
      ['/admin/team/members', { team_id: otherTeamId }],
      ['/admin/team/edit', { team_id: otherTeamId, name: 'Stolen' }],
      ['/admin/team/create', { name: 'With stranger', member_ids: [otherAnalystId] }],
      ['/admin/member/add', { email: 'new@team.test', role: 'analyst', team_id: otherTeamId }],
    ];
    for (const [url, payload] of calls) {
      const res = await post(url, owner.token, payload);
      expect(res.status, url).toBe(404);
    }
    // nothing changed on the other side
    const list = await post('/admin/member/list', other.token, {});
    expect(list.body.data.items.find((m: { member_id: string }) => m.member_id === otherAnalystId)).toMatchObject({ name: 'User', status: 'active' });
  });

  it('lists members with role and status filters, search, paging and seats', async () => {
    const all = await post('/admin/member/list', owner.token, {});
    expect(all.status).toBe(200);
    expect(all.body.data.items[0]).toMatchObject({ role: 'owner', email: 'owner@team.test' });
    expect(all.body.data.counts).toMatchObject({ owner: 1, admin: 1 });
    expect(all.body.data.seats).toMatchObject({ limit: 50, used: all.body.data.total - 1 });
    // a new organisation starts with the plan's 5 seats
    expect((await post('/admin/member/list', other.token, {})).body.data.seats).toEqual({ limit: 5, used: 1, available: 4 });
    const admins = await post('/admin/member/list', owner.token, { role: 'admin' });
    expect(admins.body.data.items.map((m: { email: string }) => m.email)).toEqual(['manager@team.test']);
    const search = await post('/admin/member/list', owner.token, { search: 'EXEC@team' });
    expect(search.body.data.items.map((m: { email: string }) => m.email).sort()).toEqual(['exec@team.test', 'second-exec@team.test']);
    const paged = await post('/admin/member/list', owner.token, { limit: 25, page: 2 });
    expect(paged.body.data).toMatchObject({ items: [], page: 2, limit: 25, total: all.body.data.total });
    const inactive = await post('/admin/member/list', owner.token, { status: 'inactive' });
    expect(inactive.body.data.total).toBe(0);
  });

  it('removes members (never the owner), keeps removed ones out, and reactivates them', async () => {
    const ownerRemove = await post('/admin/member/remove', adminToken, { member_id: owner.userId });
    expect(ownerRemove.status).toBe(409);
    expect(ownerRemove.body.error.message).toBe('Owner cannot be removed');
    const victim = await post('/admin/member/add', owner.token, { email: 'leaver@team.test', role: 'analyst' });
    const id = victim.body.data.member.member_id as string;
    const setupToken = await t.mailedToken('leaver@team.test', '/setup_password');
    await t.call({ method: 'POST', url: '/api/v1/user/password/setup', payload: { token: setupToken, password: NEW_PASSWORD } });
    const session = (await t.call({ method: 'POST', url: '/api/v1/user/login', payload: { email: 'leaver@team.test', password: NEW_PASSWORD } })).body.data.token;
    const removed = await post('/admin/member/remove', owner.token, { member_id: id });
    expect(removed.body.data.message).toBe('Member removed from your list successfully');
    expect((await t.call({ method: 'GET', url: '/api/v1/user/profile', token: session })).status).toBe(401);
    expect((await t.call({ method: 'POST', url: '/api/v1/user/login', payload: { email: 'leaver@team.test', password: NEW_PASSWORD } })).status).toBe(403);
    expect((await post('/admin/member/remove', owner.token, { member_id: id })).status).toBe(409);
    expect((await post('/admin/member/edit', owner.token, { member_id: id, name: 'Ghost' })).status).toBe(409);
    const back = await post('/admin/member/reactivate', owner.token, { member_id: id });
    expect(back.body.data).toMatchObject({ message: 'Member reactivated successfully', member: { status: 'active' } });
    expect((await post('/admin/member/reactivate', owner.token, { member_id: id })).status).toBe(409);
    expect((await t.call({ method: 'POST', url: '/api/v1/user/login', payload: { email: 'leaver@team.test', password: NEW_PASSWORD } })).status).toBe(200);
  });

  it('bulk remove skips the owner and removed members with the spec messages', async () => {
    const a = (await post('/admin/member/add', owner.token, { email: 'bulk-a@team.test', role: 'analyst' })).body.data.member.member_id;
    const b = (await post('/admin/member/add', owner.token, { email: 'bulk-b@team.test', role: 'analyst' })).body.data.member.member_id;
    await post('/admin/member/remove', owner.token, { member_id: b });
    const res = await post('/admin/bulk/remove', owner.token, { member_ids: [owner.userId, a, b] });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      message: '1 member(s) removed',
      removed_ids: [a],
      not_removed_ids: [owner.userId, b],
      not_removed_message: 'Member(s) cannot be removed (member might be owner or already removed)',
    });
    const none = await post('/admin/bulk/remove', owner.token, { member_ids: [owner.userId] });
    expect(none.body.data).toMatchObject({ message: 'Member(s) cannot be removed (member might be owner or already removed)', removed_count: 0 });
  });

  it('refuses members beyond the seats and records seat requests answered by mail', async () => {
    const seats = (await post('/admin/member/list', owner.token, {})).body.data.seats;
    await t.db.db.update(organisations).set({ userCreateLimit: seats.used }).where(eq(organisations.id, owner.orgId));
    const refused = await post('/admin/member/add', owner.token, { email: 'one-too-many@team.test', role: 'analyst' });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ code: 'conflict', additional_info: { reason: 'seat_limit_reached', seats: { available: 0 } } });
    expect(refused.body.error.message).toMatch(/seats/);
    const req = await post('/admin/member/seatrequest', adminToken, { seat_count: 10, reason: 'Hiring a sales team' });
    expect(req.status).toBe(200);
    expect(req.body.data).toMatchObject({ seat_count: 10, status: 'requested' });
    const rows = await t.db.db.select().from(seatRequests).where(eq(seatRequests.orgId, owner.orgId));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ seatCount: 10, reason: 'Hiring a sales team', userId: adminId });
    await t.deps.queue.runUntilIdle();
    const mail = await t.db.db.select().from(outbox).where(eq(outbox.toAddress, 'manager@team.test')).orderBy(desc(outbox.createdAt));
    expect(mail[0]?.subject).toBe('We received your seat request');
    await t.db.db.update(organisations).set({ userCreateLimit: 50 }).where(eq(organisations.id, owner.orgId));
  });

  it('makes an inactive member unable to call, log in or spend, until made active again', async () => {
    const res = await post('/admin/member/update_status', owner.token, { member_id: analystId, status: 'inactive' });
    expect(res.body.data).toMatchObject({ message: 'Member updated successfully', member: { status: 'inactive' } });
    const call = await t.call({ method: 'GET', url: '/api/v1/user/profile', token: analystToken });
    expect(call.status).toBe(401);
    expect(call.body.error).toMatchObject({ code: 'account_inactive', message: 'Your account is not active. Please contact the owner of your organisation.' });
    expect((await t.call({ method: 'POST', url: '/api/v1/user/login', payload: { email: 'exec@team.test', password: NEW_PASSWORD } })).status).toBe(403);
    await t.db.transaction((tx) => grantCredits(tx, { orgId: owner.orgId, amount: 50, reason: 'test' }));
    const spend = await chargeCreditsNow(t.db, { orgId: owner.orgId, userId: analystId, amount: 1, reason: 'x' }).catch((e: unknown) => e);
    expect(isAppError(spend) && spend.code).toBe('account_inactive');
    expect((await post('/admin/member/update_status', owner.token, { member_id: owner.userId, status: 'inactive' })).status).toBe(409);
    expect((await post('/admin/member/update_status', adminToken, { member_id: adminId, status: 'inactive' })).status).toBe(409);
    await post('/admin/member/update_status', owner.token, { member_id: analystId, status: 'active' });
    expect((await t.call({ method: 'GET', url: '/api/v1/user/profile', token: analystToken })).status).toBe(200);
  });

  it('edits role and applies the new role at once', async () => {
    const res = await post('/admin/member/edit', owner.token, { member_id: analystId, role: 'admin', name: 'Promoted Person' });
    expect(res.body.data).toMatchObject({ message: 'Member updated successfully', member: { role: 'admin', name: 'Promoted Person' } });
    expect((await post('/admin/member/list', analystToken, {})).status).toBe(200);
    await post('/admin/member/edit', owner.token, { member_id: analystId, role: 'analyst' });
    expect((await post('/admin/member/list', analystToken, {})).status).toBe(403);
    expect((await post('/admin/member/edit', adminToken, { member_id: owner.userId, role: 'analyst' })).status).toBe(409);
  });

  it('creates, lists, shows and edits teams', async () => {
    const created = await post('/admin/team/create', owner.token, { name: 'Sales', member_ids: [analystId] });
    expect(created.body.data).toMatchObject({ message: 'Team created successfully', team: { name: 'Sales', member_count: 1 } });
    const teamId = created.body.data.team.id as string;
    expect((await post('/admin/team/create', owner.token, { name: 'sales' })).status).toBe(409);
    await post('/admin/team/create', owner.token, { name: 'Support' });
    const list = await post('/admin/team/list', adminToken, {});
    expect(list.body.data.items.map((x: { name: string }) => x.name)).toEqual(['Sales', 'Support']);
    expect((await post('/admin/team/list', owner.token, { search: 'sup' })).body.data.total).toBe(1);
    const edited = await post('/admin/team/edit', owner.token, { team_id: teamId, name: 'Sales EMEA', add_member_ids: [adminId], remove_member_ids: [analystId] });
    expect(edited.body.data).toMatchObject({ message: 'Team updated successfully', team: { name: 'Sales EMEA', member_count: 1 } });
    const members = await post('/admin/team/members', owner.token, { team_id: teamId });
    expect(members.body.data.items.map((m: { member_id: string }) => m.member_id)).toEqual([adminId]);
    expect(members.body.data.items[0].teams).toEqual([{ id: teamId, name: 'Sales EMEA' }]);
    const filtered = await post('/admin/member/list', owner.token, { team_id: teamId });
    expect(filtered.body.data.total).toBe(1);
  });

  it('edits the organisation and shows it in the session', async () => {
    const res = await post('/admin/edit', adminToken, { name: 'Acme Ltd', org_website_url: 'https://acme.example', org_tel: '+44 20 7946 0000' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ message: 'Organisation updated successfully', organisation: { name: 'Acme Ltd', org_website_url: 'https://acme.example' } });
    const profile = await t.call({ method: 'GET', url: '/api/v1/user/profile', token: analystToken });
    expect(profile.body.data.organisation).toMatchObject({ name: 'Acme Ltd', org_website_url: 'https://acme.example', org_tel: '+44 20 7946 0000' });
    await post('/admin/edit', owner.token, { org_tel: null });
    expect((await t.call({ method: 'GET', url: '/api/v1/user/profile', token: owner.token })).body.data.organisation.org_tel).toBeNull();
  });

  it('keeps organisation default settings for the admin screens', async () => {
    const before = await t.call({ method: 'GET', url: '/api/v1/admin/settings', token: owner.token });
    expect(before.body.data.ev_settings).toMatchObject({ auto_pilot_status: false, gibberish_threshold_value: 'high' });
    expect(before.body.data.ef_settings).toMatchObject({ include_role_email: true, strict_domain_check: false });
    const ev = await t.call({ method: 'PUT', url: '/api/v1/admin/settings/email_verifier', token: adminToken, payload: { auto_pilot_status: true, gibberish_threshold_value: 'low' } });
    expect(ev.body.data).toMatchObject({ message: 'Settings updated successfully', ev_settings: { auto_pilot_status: true, gibberish_threshold_value: 'low' } });
    const ef = await t.call({ method: 'PUT', url: '/api/v1/admin/settings/email_finder', token: owner.token, payload: { strict_domain_check: true } });
    expect(ef.body.data.ef_settings).toMatchObject({ include_role_email: true, strict_domain_check: true });
    const pr = await t.call({ method: 'PUT', url: '/api/v1/admin/settings/prospect', token: owner.token, payload: { company_enrich_settings: { phones: 'no_phones', emails: 'business_only' } } });
    expect(pr.body.data.prospect_settings.company_enrich_settings).toEqual({ phones: 'no_phones', emails: 'business_only' });
    expect(pr.body.data.ev_settings.auto_pilot_status).toBe(true);
    const otherOrg = await t.call({ method: 'GET', url: '/api/v1/admin/settings', token: other.token });
    expect(otherOrg.body.data.ev_settings.auto_pilot_status).toBe(false);
    expect((await t.call({ method: 'PUT', url: '/api/v1/admin/settings/email_verifier', token: owner.token, payload: {} })).status).toBe(400);
  });

  it('applies a daily limit change from the next day and a remaining change at once until the day ends', async () => {
    const member = (await post('/admin/member/add', owner.token, { email: 'capped@team.test', role: 'analyst' })).body.data.member.member_id as string;
    await t.db.transaction((tx) => grantCredits(tx, { orgId: owner.orgId, amount: 1000, reason: 'test' }));
    const ctx = { userId: owner.userId, orgId: owner.orgId, role: 'owner' as const, sessionId: null, via: 'session' as const };
    const day1 = '2030-03-01';
    const day2 = '2030-03-02';
    const day3 = '2030-03-03';
    const charge = (today: string, amount: number) => chargeCreditsNow(t.db, { orgId: owner.orgId, userId: member, amount, reason: 'test', today });

    await charge(day1, 30);
    const set = await editMember(t.deps, ctx, { member_id: member, daily_limit: 10 }, { today: day1 });
    expect(set.member.limits.daily).toMatchObject({ limit: null, used: 30, next_limit: { limit: 10, from: day2 }, remaining_override: false });
    await charge(day1, 5); // still unlimited today

    await charge(day2, 10);
    const over = await charge(day2, 3).catch((e: unknown) => e);
    expect(isAppError(over) && httpStatusOf(over)).toBe(402);
    expect(isAppError(over) && over.code).toBe('daily_limit_exceeded');
    expect(isAppError(over) && over.extra.additional_info).toMatchObject({ required_credits: 3, limit_type: 'daily', remaining: 0 });

    const more = await editMember(t.deps, ctx, { member_id: member, daily_remaining: 4 }, { today: day2 });
    expect(more.member.limits.daily).toMatchObject({ limit: 14, used: 10, remaining: 4, next_limit: null, remaining_override: true });
    await charge(day2, 4);
    const again = await charge(day2, 1).catch((e: unknown) => e);
    expect(isAppError(again) && again.extra.additional_info).toMatchObject({ required_credits: 1 });

    // the next day the remaining override is gone and the limit is back to 10
    await charge(day3, 10);
    expect(isAppError(await charge(day3, 1).catch((e: unknown) => e))).toBe(true);
    // raising the limit waits for the next day again
    const raise = await editMember(t.deps, ctx, { member_id: member, daily_limit: 50 }, { today: day3 });
    expect(raise.member.limits.daily).toMatchObject({ limit: 10, next_limit: { limit: 50, from: '2030-03-04' } });
    await charge('2030-03-04', 50);
    // setting the limit back to the one in force cancels the pending change
    await editMember(t.deps, ctx, { member_id: member, daily_limit: 20 }, { today: '2030-03-04' });
    const undo = await editMember(t.deps, ctx, { member_id: member, daily_limit: 50 }, { today: '2030-03-04' });
    expect(undo.member.limits.daily.next_limit).toBeNull();
  });

  it("refuses a member's charge beyond the remaining daily limit with 402 and required_credits (HTTP edit, today)", async () => {
    const member = (await post('/admin/member/add', owner.token, { email: 'today@team.test', role: 'analyst', life_time_limit: 100 })).body.data.member.member_id as string;
    const res = await post('/admin/member/edit', owner.token, { member_id: member, daily_remaining: 2 });
    expect(res.body.data.member.limits).toMatchObject({ daily: { limit: 2, remaining: 2, remaining_override: true }, life_time: { limit: 100, used: 0 } });
    await chargeCreditsNow(t.db, { orgId: owner.orgId, userId: member, amount: 2, reason: 'x' });
    const err = await chargeCreditsNow(t.db, { orgId: owner.orgId, userId: member, amount: 5, reason: 'x' }).catch((e: unknown) => e);
    expect(isAppError(err) && httpStatusOf(err)).toBe(402);
    expect(isAppError(err) && err.extra.additional_info?.required_credits).toBe(5);
  });

  it("shows a member today's allowance in their own profile, as the ledger counts it", async () => {
    expect((await post('/admin/member/edit', owner.token, { member_id: analystId, daily_remaining: 3 })).status).toBe(200);
    const profile = (await t.call({ method: 'GET', url: '/api/v1/user/profile', token: analystToken })).body.data;
    expect(profile.limits.daily).toMatchObject({ limit: 3, remaining: 3 });
    expect(profile.credits).toBe(3);
    expect(profile.show_daily_limits).toBe(true);
  });

  it("gives members the organisation's default settings under their own choices, and later default changes still reach them", async () => {
    const prefs = async (token: string) => (await t.call({ method: 'GET', url: '/api/v1/user_preferences', token })).body.data;
    const putOrg = (url: string, payload: unknown) => t.call({ method: 'PUT', url: `/api/v1/admin/settings/${url}`, token: owner.token, payload: payload as Record<string, unknown> });
    expect((await putOrg('email_finder', { include_role_email: false, strict_domain_check: false })).status).toBe(200);
    expect((await putOrg('email_verifier', { gibberish_threshold_value: 'low' })).status).toBe(200);
    expect((await prefs(analystToken)).ef_settings).toMatchObject({ include_role_email: false, strict_domain_check: false });
    expect((await prefs(analystToken)).ev_settings.gibberish_threshold_value).toBe('low');

    // The member's own choice wins over the default; a later default change to another field still applies.
    const own = await t.call({ method: 'PUT', url: '/api/v1/user_preferences/email_finder_settings', token: analystToken, payload: { strict_domain_check: true } });
    expect(own.body.data).toMatchObject({ include_role_email: false, strict_domain_check: true });
    expect((await putOrg('email_finder', { include_role_email: true, strict_domain_check: false })).status).toBe(200);
    expect((await prefs(analystToken)).ef_settings).toMatchObject({ include_role_email: true, strict_domain_check: true });
    // Another organisation's members are untouched.
    const otherPrefs = await t.call({ method: 'GET', url: '/api/v1/user_preferences', token: other.token });
    expect(otherPrefs.body.data.ev_settings.gibberish_threshold_value).toBe('high');
  });

  it('keeps the owner login working throughout', async () => {
    expect((await t.call({ method: 'POST', url: '/api/v1/user/login', payload: { email: 'owner@team.test', password: TEST_PASSWORD } })).status).toBe(200);
  });
});
