import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { AppProviders } from '../../../app/providers';
import { createQueryClient } from '../../../lib/query-client';
import { useSessionStore } from '../../../lib/session-store';
import { buildLogin } from '../../../test/fixtures';
import { WebhooksScreen } from './webhooks-screen';
import { ReferenceScreen } from './reference-screen';

const ok = (data: unknown) => new Response(JSON.stringify({ status: 'success', data }), { status: 200 });
const hook = { id: '11111111-1111-4111-8111-111111111111', name: 'Orders', url: 'https://hooks.example.com/x', events: ['email_verifier.bulk.completed'], status: 'active', created_at: '2026-11-20T10:00:00Z', updated_at: '2026-11-20T10:00:00Z' };
const log = {
  id: '22222222-2222-4222-8222-222222222222',
  webhook_id: hook.id,
  webhook_name: 'Orders',
  event_id: '33333333-3333-4333-8333-333333333333',
  event_type: 'email_verifier.bulk.completed',
  status: 'success',
  attempts: [
    { attempt: 1, status_code: 500, latency_ms: 12, error: 'HTTP 500', created_at: '2026-11-20T10:00:00Z' },
    { attempt: 2, status_code: 200, latency_ms: 9, error: null, created_at: '2026-11-20T10:01:00Z' },
  ],
  next_attempt_at: null,
  created_at: '2026-11-20T10:00:00Z',
};

function renderWith(node: React.ReactNode) {
  return render(
    <AppProviders queryClient={createQueryClient()}>
      <MemoryRouter>{node}</MemoryRouter>
    </AppProviders>,
  );
}

describe('WebhooksScreen', () => {
  let fetchMock: ReturnType<typeof vi.fn>;
  beforeEach(() => {
    useSessionStore.getState().fillSession(buildLogin());
    fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
      if (url.includes('/webhook/list')) return ok({ items: [hook], total: 1 });
      if (url.endsWith('/webhook/token')) return ok({ secret: 'whsec_abc' });
      if (url.endsWith('/webhook/event_logs')) return ok({ items: [log], total: 1 });
      if (url.endsWith('/webhook/event_logs/redeliver')) return ok({ ...log, status: 'pending' });
      if (url.endsWith('/webhook/test')) return ok({ ...log, event_type: 'webhook.test', attempts: [{ attempt: 1, status_code: 200, latency_ms: 7, error: null, created_at: '2026-11-20T10:00:00Z' }] });
      return new Response(JSON.stringify({ status: 'failed', error: { code: 'not_found', message: `no ${init?.method ?? 'GET'} ${url}` } }), { status: 404 });
    });
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => vi.unstubAllGlobals());

  it('lists webhooks and event logs with every attempt, sends a test event and redelivers', async () => {
    renderWith(<WebhooksScreen />);
    expect((await screen.findByText('https://hooks.example.com/x')).textContent).toBe('https://hooks.example.com/x');
    expect((await screen.findByText('#1 · 500 · 12 ms')).textContent).toBe('#1 · 500 · 12 ms');
    expect(screen.getByText('#2 · 200 · 9 ms').textContent).toBe('#2 · 200 · 9 ms');
    fireEvent.click(screen.getByRole('button', { name: 'Send a test event to Orders' }));
    expect((await screen.findByText(/Test event delivered: 200 in 7 ms/)).textContent).toBe('Test event delivered: 200 in 7 ms');
    fireEvent.click(screen.getByRole('button', { name: 'Redeliver' }));
    await waitFor(() => expect(fetchMock.mock.calls.some(([u]) => String(u).endsWith('/webhook/event_logs/redeliver'))).toBe(true));
    const body = fetchMock.mock.calls.find(([u]) => String(u).endsWith('/webhook/event_logs/redeliver'))?.[1]?.body;
    expect(JSON.parse(String(body))).toEqual({ delivery_id: log.id });
  });

  it('shows the empty state and the server error', async () => {
    fetchMock.mockImplementation(async (url: string) => {
      if (url.includes('/webhook/list')) return ok({ items: [], total: 0 });
      if (url.endsWith('/webhook/token')) return ok({ secret: null });
      return new Response(JSON.stringify({ status: 'failed', error: { code: 'internal_error', message: 'Logs are down' } }), { status: 400 });
    });
    renderWith(<WebhooksScreen />);
    expect((await screen.findByText('No webhooks yet')).textContent).toBe('No webhooks yet');
    expect((await screen.findByText('Logs are down')).textContent).toBe('Logs are down');
  });
});

describe('ReferenceScreen', () => {
  beforeEach(() => {
    useSessionStore.getState().fillSession(buildLogin());
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        if (url === '/v2/openapi.json') {
          return new Response(
            JSON.stringify({
              openapi: '3.0.2',
              info: { title: 'Clearout OpenAPI', version: '1.1' },
              servers: [{ url: 'http://x.test/v2' }],
              paths: {
                '/email_verify/instant': {
                  post: {
                    summary: 'Instant Verify',
                    requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/VerifyEmail' } } } },
                    responses: { '401': { description: 'bad token', content: { 'application/json': { schema: { type: 'object', properties: { code: { type: 'integer' } } } } } } },
                  },
                },
              },
            }),
            { status: 200 },
          );
        }
        return new Response('nope', { status: 500 });
      }),
    );
  });
  afterEach(() => vi.unstubAllGlobals());

  it('renders the operations of the public document, their body and answers, and the test addresses', async () => {
    renderWith(<ReferenceScreen />);
    fireEvent.click(await screen.findByText('/email_verify/instant'));
    expect((await screen.findByText('VerifyEmail')).textContent).toBe('VerifyEmail');
    expect(screen.getByText(/bad token/).textContent).toBe('bad token { code?: integer }');
    expect(screen.getByText('valid@example.com').textContent).toBe('valid@example.com');
  });
});
