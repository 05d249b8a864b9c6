import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { TEAM_MESSAGES, formatMembersRemoved, type TMember, type TMemberListData } from '@verilead/contracts';
import { AppProviders } from '../../../app/providers';
import { createQueryClient } from '../../../lib/query-client';
import { useSessionStore } from '../../../lib/session-store';
import { buildLogin, buildProfile } from '../../../test/fixtures';
import { MembersScreen } from './members-screen';

const OWNER_ID = '0b6c2a3e-5d7f-4c1a-9e2b-000000000001';
const MANAGER_ID = '0b6c2a3e-5d7f-4c1a-9e2b-000000000002';

function buildMember(overrides: Partial<TMember>): TMember {
  return {
    member_id: MANAGER_ID,
    name: 'Mia Manager',
    email: 'mia@acme.test',
    role: 'admin',
    status: 'active',
    has_password: true,
    teams: [],
    limits: {
      daily: { limit: null, used: 0, remaining: null, next_limit: null, remaining_override: false },
      life_time: { limit: null, used: 0, remaining: null },
    },
    added_on: '2026-11-01T10:00:00.000Z',
    last_login_on: null,
    ...overrides,
  };
}

const LIST: TMemberListData = {
  items: [buildMember({ member_id: OWNER_ID, name: 'Olivia Owner', email: 'olivia@acme.test', role: 'owner' }), buildMember({})],
  total: 2,
  page: 1,
  limit: 25,
  seats: { limit: 5, used: 1, available: 4 },
  counts: { all: 2, owner: 1, admin: 1, analyst: 0 },
};

type TCall = { path: string; body: unknown };

/** Canned API answers by path (test only); records every call. */
function stubApi(calls: TCall[]) {
  const answers: Record<string, unknown> = {
    '/api/v1/admin/member/list': LIST,
    '/api/v1/admin/team/list': { items: [], total: 0, page: 1, limit: 25 },
    '/api/v1/user/profile': buildProfile(),
    '/api/v1/admin/bulk/remove': {
      message: formatMembersRemoved(1),
      removed_count: 1,
      removed_ids: [MANAGER_ID],
      not_removed_ids: [OWNER_ID],
      not_removed_message: TEAM_MESSAGES.membersNotRemoved,
      seats: { limit: 5, used: 0, available: 5 },
    },
    '/api/v1/admin/member/edit': {
      message: TEAM_MESSAGES.memberUpdated,
      member: buildMember({}),
      seats: { limit: 5, used: 1, available: 4 },
    },
    '/api/v1/admin/member/seatrequest': {
      message: TEAM_MESSAGES.seatRequestReceived,
      request_id: 'req-1',
      seat_count: 3,
      status: 'requested',
      requested_on: '2026-11-22T10:00:00.000Z',
    },
  };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const path = url.split('?')[0] ?? url;
      calls.push({ path, body: init?.body ? JSON.parse(String(init.body)) : undefined });
      const data = answers[path];
      if (data === undefined) return new Response(JSON.stringify({ status: 'failed', error: { code: 'not_found', message: 'x' } }), { status: 404 });
      return new Response(JSON.stringify({ status: 'success', data }), { status: 200 });
    }),
  );
}

function renderScreen() {
  return render(
    <AppProviders queryClient={createQueryClient()}>
      <MembersScreen />
    </AppProviders>,
  );
}

describe('MembersScreen', { timeout: 60_000 }, () => {
  let calls: TCall[];
  beforeEach(() => {
    calls = [];
    useSessionStore.getState().fillSession(buildLogin());
    stubApi(calls);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    useSessionStore.getState().logout();
  });

  it('lists members with role labels and the seats of the plan', async () => {
    renderScreen();
    const table = await screen.findByRole('table', { name: 'Members' });
    expect(within(table).getByText('Olivia Owner').textContent).toBe('Olivia Owner');
    expect(within(table).getByText('Manager').textContent).toBe('Manager');
    expect(within(table).getByText('Owner').textContent).toBe('Owner');
    expect(screen.getByTestId('seats-used').textContent).toBe('1 / 5');
    expect(useSessionStore.getState().organisation?.plan.user_create_limit).toBe(5);
  });

  it('bulk remove with the owner selected shows "N member(s) removed" and the spec message', async () => {
    renderScreen();
    await screen.findByRole('table', { name: 'Members' });
    fireEvent.click(screen.getByLabelText('Select all on this page'));
    fireEvent.click(screen.getByRole('button', { name: 'Remove selected' }));
    expect((await screen.findByText('1 of them cannot be removed (the owner or already removed) and will be kept.')).textContent).toBe('1 of them cannot be removed (the owner or already removed) and will be kept.');
    fireEvent.click(screen.getByRole('button', { name: 'Remove members' }));
    expect((await screen.findByText('1 member(s) removed')).textContent).toBe('1 member(s) removed');
    expect((await screen.findByText('Member(s) cannot be removed (member might be owner or already removed)')).textContent).toBe('Member(s) cannot be removed (member might be owner or already removed)');
    const bulk = calls.find((call) => call.path === '/api/v1/admin/bulk/remove');
    expect(bulk?.body).toEqual({ member_ids: [OWNER_ID, MANAGER_ID] });
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Remove selected' })).toBeNull());
  });

  it('seat request shows the spec validation messages word for word, then sends', async () => {
    renderScreen();
    await screen.findByRole('table', { name: 'Members' });
    // One way to ask, on the seats card beside the seat count (the page header had a second one).
    const asks = screen.getAllByRole('button', { name: 'Request more seats' });
    expect(asks).toHaveLength(1);
    expect(within(screen.getByTestId('seats-card')).getByRole('button', { name: 'Request more seats' })).toBe(asks[0]);
    fireEvent.click(asks[0]!);
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send request' }));
    expect((await within(dialog).findByText('Please enter the required seat count')).textContent).toBe('Please enter the required seat count');
    expect(within(dialog).getByText('Please enter a reason').textContent).toBe('Please enter a reason');
    fireEvent.change(within(dialog).getByLabelText('Seat count'), { target: { value: '60' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send request' }));
    expect((await within(dialog).findByText('Please select the seat range from 1 to 50')).textContent).toBe('Please select the seat range from 1 to 50');
    expect(calls.some((call) => call.path === '/api/v1/admin/member/seatrequest')).toBe(false);
    fireEvent.change(within(dialog).getByLabelText('Seat count'), { target: { value: '3' } });
    fireEvent.change(within(dialog).getByLabelText('Reason'), { target: { value: 'Two new sales people' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send request' }));
    expect((await within(dialog).findByText(/You asked for 3 more seats/)).textContent).toBe('Your seat request has been received. We will get back to you by e-mail. You asked for 3 more seats.');
    const sent = calls.find((call) => call.path === '/api/v1/admin/member/seatrequest');
    expect(sent?.body).toEqual({ seat_count: 3, reason: 'Two new sales people' });
  });

  it('edit explains that a daily limit applies from tomorrow and sends only that change', async () => {
    renderScreen();
    const table = await screen.findByRole('table', { name: 'Members' });
    const row = within(table).getByText('mia@acme.test').closest('tr');
    fireEvent.click(within(row as HTMLElement).getByRole('button', { name: 'Manage' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Edit role and limits' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('Daily limit'), { target: { value: '50' } });
    expect((await within(dialog).findByText(/The new daily limit applies from tomorrow/)).textContent).toBe('Daily limit unlimited → 50. The new daily limit applies from tomorrow. Today stays unlimited.');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    expect((await screen.findByText('Member updated successfully')).textContent).toBe('Member updated successfully');
    const edit = calls.find((call) => call.path === '/api/v1/admin/member/edit');
    expect(edit?.body).toEqual({ member_id: MANAGER_ID, daily_limit: 50 });
  });
});
