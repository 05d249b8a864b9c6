import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { AppProviders } from '../../../app/providers';
import { createQueryClient } from '../../../lib/query-client';
import { useSessionStore } from '../../../lib/session-store';
import { buildLogin } from '../../../test/fixtures';
import { answerFailed, answerOk as ok, stubApi } from '../../../test/render-app';
import { BouncesScreen } from './bounces-screen';

const report = {
  id: 'b1',
  file_name: 'campaign-bounces.csv',
  state: 'applied',
  created_at: '2026-11-20T10:00:00.000Z',
  applied_at: '2026-11-20T10:01:00.000Z',
  rows: 120,
  hard: 14,
  soft: 6,
  ignored: 0,
  matched: 11,
  credited: 9,
  credits_returned: 9,
  credit_backs_pending: 0,
  credit_backs_declined: 2,
};
/** A webhook as the list answers it: no address (it is stored hashed). */
const sendgridHook = { platform: 'sendgrid', signed: true, events: 42, created_at: '2026-11-20T10:00:00.000Z' };
/** A report whose claims are still being re-checked. */
const checking = { ...report, id: 'b2', file_name: 'newsletter-bounces.csv', credited: 0, credits_returned: 0, credit_backs_pending: 3, credit_backs_declined: 0 };

function renderScreen() {
  render(
    <AppProviders queryClient={createQueryClient()}>
      <MemoryRouter>
        <BouncesScreen />
      </MemoryRouter>
    </AppProviders>,
  );
}

describe('BouncesScreen', () => {
  beforeEach(() => useSessionStore.getState().fillSession(buildLogin()));
  afterEach(() => {
    vi.unstubAllGlobals();
    useSessionStore.getState().logout();
  });

  it('shows the guarantee, the history with credits returned, and the ESP webhooks', async () => {
    stubApi({
      'GET /api/v1/bounces/reports': ok({ items: [checking, report], total: 2, page: 1, limit: 25, guarantee_days: 30 }),
      'GET /api/v1/bounces/webhooks': ok({ items: [sendgridHook] }),
    });
    renderScreen();
    expect((await screen.findByText('30-day bounce guarantee')).textContent).toBe('30-day bounce guarantee');
    expect(screen.getByText(/unknown, catch-all and invalid verdicts are not credited/).textContent).toContain('Soft bounces are recorded and never credited');
    const table = await screen.findByRole('table', { name: 'Bounce reports' });
    const [, pending, settled] = within(table).getAllByRole('row');
    expect(within(pending!).getAllByRole('cell').map((c) => c.textContent)).toEqual(['newsletter-bounces.csv', expect.stringContaining('2026'), '14', '6', '11', '0', '3 being checked']);
    expect(within(settled!).getAllByRole('cell').map((c) => c.textContent)).toEqual(['campaign-bounces.csv', expect.stringContaining('2026'), '14', '6', '11', '9', '9 credited · 2 declined']);
    expect(screen.getByText(/once we have checked the address again/).textContent).toContain('its mail server now refuses it');
    expect(screen.getByText('Signed').textContent).toBe('Signed');
    // The address is stored hashed: the list never shows it, and says how to see a new one.
    const sendgrid = screen.getByTestId('bounce-webhook-sendgrid');
    expect(within(sendgrid).getByText(/stored hashed and cannot be shown again/).textContent).toMatch(/^Created .*2026.*make a new address to see one/);
    expect(sendgrid.textContent).not.toContain('/public/bounces/');
  });

  it('shows a new address once, as rotating it answers it', async () => {
    const bodies = stubApi({
      'GET /api/v1/bounces/reports': ok({ items: [], total: 0, page: 1, limit: 25, guarantee_days: 30 }),
      'GET /api/v1/bounces/webhooks': ok({ items: [sendgridHook] }),
      'POST /api/v1/bounces/webhooks': ok({ ...sendgridHook, url: 'http://app.test/api/v1/public/bounces/new-token' }),
    });
    renderScreen();
    const sendgrid = await screen.findByTestId('bounce-webhook-sendgrid');
    within(sendgrid).getByRole('button', { name: 'New address' }).click();
    expect((await within(sendgrid).findByText('http://app.test/api/v1/public/bounces/new-token')).textContent).toBe('http://app.test/api/v1/public/bounces/new-token');
    expect(within(sendgrid).getByText(/it is shown only once/).textContent).toBe('Copy the address now and paste it in SendGrid: it is shown only once.');
    expect(bodies['POST /api/v1/bounces/webhooks']).toEqual({ platform: 'sendgrid', rotate: true });
  });

  it('says when there is no report yet and no guarantee', async () => {
    stubApi({
      'GET /api/v1/bounces/reports': ok({ items: [], total: 0, page: 1, limit: 25, guarantee_days: 0 }),
      'GET /api/v1/bounces/webhooks': ok({ items: [] }),
    });
    renderScreen();
    expect((await screen.findByText('No bounce reports yet')).textContent).toBe('No bounce reports yet');
    expect(screen.getByText('No bounce guarantee').textContent).toBe('No bounce guarantee');
    expect(screen.getAllByRole('button', { name: 'Create webhook' })).toHaveLength(2);
  });

  it("shows the server's message when the history cannot be read", async () => {
    stubApi({
      'GET /api/v1/bounces/reports': answerFailed(403, 'forbidden', 'Only owners and Managers see bounces.'),
      'GET /api/v1/bounces/webhooks': ok({ items: [] }),
    });
    renderScreen();
    expect((await screen.findByText('Only owners and Managers see bounces.')).textContent).toBe('Only owners and Managers see bounces.');
  });
});
