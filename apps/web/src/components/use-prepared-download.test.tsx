import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, renderHook, waitFor } from '@testing-library/react';
import { usePreparedDownload, type TPreparedFile } from './use-prepared-download';

const file = (state: TPreparedFile['state'], url: string | null): TPreparedFile => ({ queue_id: 'q-1', state, file_name: 'people.csv', rows: 5, download_url: url });

describe('usePreparedDownload', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('opens a file that is ready at once, without polling', async () => {
    const open = vi.fn(() => ({ closed: false }));
    vi.stubGlobal('open', open);
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    const { result } = renderHook(() => usePreparedDownload());
    await act(() => result.current.run(async () => file('success', '/api/v1/public/download_email_finder_history?download_token=t')));
    expect(open).toHaveBeenCalledWith('/api/v1/public/download_email_finder_history?download_token=t', '_blank');
    expect(result.current.ready?.file_name).toBe('people.csv');
    expect(result.current.busy).toBe(false);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('shows a queued file as ready when its first status check already says success', async () => {
    vi.stubGlobal('open', vi.fn(() => ({ closed: false })));
    const ready = { ...file('success', '/api/v1/public/download?download_token=t'), download_id: 'q-1', kind: 'result', list_id: null, format: 'standard', file_type: 'csv', columns: [], progress: 100, size_bytes: 10, download_token: 't', token_expires_at: null, expires_at: null, error: null, created_at: '2026-11-24T10:00:00.000Z' };
    vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify({ status: 'success', data: ready }), { status: 200 })));
    const { result } = renderHook(() => usePreparedDownload());
    await act(() => result.current.run(async () => ({ ...file('queued', null), progress: 0 })));
    expect(result.current.ready?.download_url).toBe('/api/v1/public/download?download_token=t');
  });

  it('reports a file that failed with its error', async () => {
    const { result } = renderHook(() => usePreparedDownload());
    await act(() => result.current.run(async () => ({ ...file('failed', null), error: 'The list has no results yet.' })));
    await waitFor(() => expect(result.current.error).toBe('The list has no results yet.'));
    expect(result.current.ready).toBeNull();
  });

  it('reports a start call that threw', async () => {
    const { result } = renderHook(() => usePreparedDownload());
    await act(() =>
      result.current.run(async () => {
        throw new Error('Network down');
      }),
    );
    expect(result.current.error).toBe('Network down');
  });
});
