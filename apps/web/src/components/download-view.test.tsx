import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { AppProviders } from '../app/providers';
import { createQueryClient } from '../lib/query-client';
import { DownloadView, type TDownloadSource } from './download-view';

function renderView(source: TDownloadSource) {
  return render(
    <AppProviders queryClient={createQueryClient()}>
      <MemoryRouter initialEntries={['/download/result?download_token=x']}>
        <DownloadView source={source} />
      </MemoryRouter>
    </AppProviders>,
  );
}

describe('DownloadView', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows Downloading... then the expired state for an expired link', async () => {
    const fetchMock = vi.fn(
      async () => new Response(JSON.stringify({ status: 'failed', error: { code: 'token_expired', message: 'This download link has expired; please request the file again' } }), { status: 410 }),
    );
    vi.stubGlobal('fetch', fetchMock);
    renderView({ kind: 'token', token: 'tok-123456789' });
    expect(screen.getByText('Downloading...').textContent).toBe('Downloading...');
    expect((await screen.findByText('This download has expired')).textContent).toBe('This download has expired');
    expect(screen.getByText('This download link has expired; please request the file again').textContent).toBe('This download link has expired; please request the file again');
    expect(fetchMock).toHaveBeenCalledWith('/api/v1/public/download?download_token=tok-123456789', expect.anything());
  });

  it('fetches a token from the path the source names (finder history files)', async () => {
    const fetchMock = vi.fn(async () => new Response(JSON.stringify({ status: 'failed', error: { code: 'token_expired', message: 'Expired link' } }), { status: 410 }));
    vi.stubGlobal('fetch', fetchMock);
    renderView({ kind: 'token', token: 'tok-abcdefghij', tokenPath: '/public/download_email_finder_history' });
    expect((await screen.findByText('Expired link')).textContent).toBe('Expired link');
    expect(fetchMock).toHaveBeenCalledWith('/api/v1/public/download_email_finder_history?download_token=tok-abcdefghij', expect.anything());
  });

  it('asks a logged-out visitor to log in for a file that needs the account', async () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    renderView({ kind: 'input', listId: 'list-1' });
    expect((await screen.findByRole('heading', { name: 'Log in to download' })).tagName).toBe('H3');
    expect(screen.getByRole('link', { name: 'Log in' }).getAttribute('href')).toBe(`/login?${new URLSearchParams({ redirect: '/download/result?download_token=x' })}`);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('says so when the link has no token', async () => {
    vi.stubGlobal('fetch', vi.fn());
    renderView({ kind: 'none' });
    expect((await screen.findByText('This link is incomplete: it has no download token.')).textContent).toBe('This link is incomplete: it has no download token.');
  });
});
