import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { AppProviders } from './providers';
import { createQueryClient } from '../lib/query-client';
import { useSessionStore } from '../lib/session-store';
import { buildLogin } from '../test/fixtures';
import { renderAppAt, stubApi, answerOk } from '../test/render-app';
import { PagedTableFooter } from '../components/paged-table-footer';
import { WelcomeModal } from './layouts/welcome-modal';
import { appsScreens } from '../features/apps';
import { developerScreens } from '../features/developer';

function renderWith(node: React.ReactNode) {
  return render(
    <AppProviders queryClient={createQueryClient()}>
      <MemoryRouter>{node}</MemoryRouter>
    </AppProviders>,
  );
}

describe('accessible names (issue 10, point 16)', () => {
  beforeEach(() => useSessionStore.getState().fillSession(buildLogin()));
  afterEach(() => {
    vi.unstubAllGlobals();
    useSessionStore.getState().logout();
  });

  it('names every pagination control', () => {
    renderWith(<PagedTableFooter page={2} limit={25} total={500} onPageChange={() => undefined} onLimitChange={() => undefined} />);
    for (const name of ['First page', 'Previous page', 'Next page', 'Last page']) expect(screen.getByRole('button', { name })).toHaveProperty('disabled', false);
    for (const button of screen.getAllByRole('button')) expect(button.getAttribute('aria-label') ?? button.textContent).not.toBe('');
  });

  it("names the welcome modal's close button", async () => {
    useSessionStore.getState().fillSession(buildLogin(), { firstLogin: true });
    renderWith(<WelcomeModal />);
    const dialog = await screen.findByRole('dialog', { name: 'Welcome' });
    expect(within(dialog).getByRole('button', { name: 'Close' })).toHaveProperty('disabled', false);
  });

  it('names the webhook log filters', async () => {
    stubApi({
      'GET /api/v1/webhook/list': answerOk({ items: [], total: 0 }),
      'GET /api/v1/webhook/token': answerOk({ secret: null }),
      'GET /api/v1/webhook/event_logs': answerOk({ items: [], total: 0 }),
    });
    const { WebhooksScreen } = await developerScreens.webhooks();
    renderWith(<WebhooksScreen />);
    for (const name of ['Filter by webhook', 'Filter by event', 'Filter by status']) {
      expect(await screen.findByRole('combobox', { name })).toHaveProperty('value', '');
    }
  });

  it('names the apps search and status filter', async () => {
    stubApi({ 'GET /api/v1/apps/list': answerOk({ items: [], total: 0, page: 1, limit: 25 }) });
    const { AppsListScreen } = await appsScreens.appsList();
    renderWith(<AppsListScreen />);
    expect(await screen.findByRole('textbox', { name: 'Search apps by name' })).toHaveProperty('value', '');
    expect(screen.getByRole('combobox', { name: 'Filter by status' })).toHaveProperty('value', '');
  });

  it('links "Terms of service" on the login page to the terms page', async () => {
    useSessionStore.getState().logout();
    renderAppAt('/login');
    const link = await screen.findByRole('link', { name: 'Terms of service' });
    expect(link.getAttribute('href')).toBe('/terms');
    expect(screen.getByRole('link', { name: 'Privacy policy' }).getAttribute('href')).toBe('/terms#privacy');
  });

  it('opens the terms page for a logged-out visitor', async () => {
    useSessionStore.getState().logout();
    renderAppAt('/terms');
    expect((await screen.findByRole('heading', { name: 'Terms of service' })).tagName).toBe('H1');
    expect(screen.getByRole('heading', { name: 'Privacy policy' }).tagName).toBe('H2');
  });
});
