import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import type { TAuditLogEntry } from '@verilead/contracts';
import { AppProviders } from '../../../app/providers';
import { createQueryClient } from '../../../lib/query-client';
import { useSessionStore } from '../../../lib/session-store';
import { buildLogin } from '../../../test/fixtures';
import { AuditLogScreen } from './audit-log-screen';

const MEMBER_ID = '5d1c7a0e-2b4f-4e8a-9c3d-00000000000a';

function entry(overrides: Partial<TAuditLogEntry>): TAuditLogEntry {
  return {
    id: 'e-1',
    created_at: '2026-11-22T10:00:00.000Z',
    action: 'team.member_role_changed',
    action_label: 'Member role changed',
    actor_id: '5d1c7a0e-2b4f-4e8a-9c3d-000000000001',
    actor_email: 'olivia@acme.test',
    actor_name: 'Olivia Owner',
    target_type: 'member',
    target_id: MEMBER_ID,
    target_name: 'Mia Member (mia@acme.test)',
    // in the order the server's jsonb keeps them
    details: { to: 'admin', from: 'analyst' },
    ip: '203.0.113.9',
    ...overrides,
  };
}

function stubApi(items: TAuditLogEntry[]) {
  const answers: Record<string, unknown> = {
    '/api/v1/audit_log': { items, total: items.length, page: 1, limit: 25 },
    '/api/v1/admin/member/list': { items: [], total: 0, page: 1, limit: 500, seats: { limit: 5, used: 0, available: 5 }, counts: { all: 0, owner: 0, admin: 0, analyst: 0 } },
  };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      const data = answers[url.split('?')[0] ?? url];
      if (data === undefined) return new Response(JSON.stringify({ status: 'failed', error: { code: 'not_found', message: 'x' } }), { status: 404 });
      return new Response(JSON.stringify({ status: 'success', data }), { status: 200 });
    }),
  );
}

describe('AuditLogScreen', { timeout: 60_000 }, () => {
  beforeEach(() => useSessionStore.getState().fillSession(buildLogin()));
  afterEach(() => {
    vi.unstubAllGlobals();
    useSessionStore.getState().logout();
  });

  it('names the member a change was about and says the roles in words, never their id', async () => {
    stubApi([entry({})]);
    render(
      <AppProviders queryClient={createQueryClient()}>
        <AuditLogScreen />
      </AppProviders>,
    );
    const row = await screen.findByTestId('audit-entry');
    expect(row.textContent).not.toContain(MEMBER_ID);
    expect(screen.getByTestId('audit-target').textContent).toBe('Mia Member (mia@acme.test)');
    expect(screen.getByTestId('audit-details').textContent).toBe('from: Executive · to: Manager');
  });

  const renderScreen = () =>
    render(
      <AppProviders queryClient={createQueryClient()}>
        <AuditLogScreen />
      </AppProviders>,
    );

  it("shows who acted by name with the e-mail beneath, the e-mail alone without a name, and a deleted account as 'Deleted user'", async () => {
    stubApi([
      entry({ id: 'e-named' }),
      entry({ id: 'e-unnamed', actor_id: '5d1c7a0e-2b4f-4e8a-9c3d-000000000002', actor_email: 'nameless@acme.test', actor_name: null }),
      entry({ id: 'e-deleted', actor_id: '5d1c7a0e-2b4f-4e8a-9c3d-000000000003', actor_email: null, actor_name: 'Deleted user' }),
    ]);
    renderScreen();
    const rows = await screen.findAllByTestId('audit-entry');
    const actors = rows.map((row) => within(row).getByTestId('audit-actor'));
    expect(within(actors[0]!).getByTestId('audit-actor-name').textContent).toBe('Olivia Owner');
    expect(within(actors[0]!).getByTestId('audit-actor-email').textContent).toBe('olivia@acme.test');
    expect(actors[1]!.textContent).toBe('nameless@acme.test');
    expect(within(actors[1]!).queryByTestId('audit-actor-name')).toBeNull();
    expect(actors[2]!.textContent).toBe('Deleted user');
    expect(within(actors[2]!).queryByTestId('audit-actor-email')).toBeNull();
  });

  it('says what kind of thing an unnamed target is, and leaves its id to the CSV', async () => {
    stubApi([entry({ action: 'billing.payment_method_changed', action_label: 'Payment method changed', target_type: 'card', target_id: 'pm_123', target_name: null, details: { change: 'added', last4: '4242' } })]);
    render(
      <AppProviders queryClient={createQueryClient()}>
        <AuditLogScreen />
      </AppProviders>,
    );
    const row = await screen.findByTestId('audit-entry');
    expect(row.textContent).not.toContain('pm_123');
    expect(screen.getByTestId('audit-target').textContent).toBe('Card');
    expect(screen.getByTestId('audit-details').textContent).toBe('change: added · last4: 4242');
  });
});
