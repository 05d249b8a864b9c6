import { describe, expect, it, vi } from 'vitest';
import { fetchDownload, readFileName } from './fetch-download';

describe('readFileName', () => {
  it('reads plain, quoted and RFC 5987 file names', () => {
    expect(readFileName('attachment; filename="leads results.csv"', 'x')).toBe('leads results.csv');
    expect(readFileName('attachment; filename=leads.xlsx', 'x')).toBe('leads.xlsx');
    expect(readFileName("attachment; filename=\"a.csv\"; filename*=UTF-8''r%C3%A9sultats.csv", 'x')).toBe('résultats.csv');
    expect(readFileName(null, 'fallback.csv')).toBe('fallback.csv');
  });
});

describe('fetchDownload', () => {
  const failure = (status: number, message: string) =>
    new Response(JSON.stringify({ status: 'failed', error: { code: 'token_expired', message } }), { status, headers: { 'content-type': 'application/json' } });

  it('answers the file with its name', async () => {
    const fetchImpl = vi.fn(async () => new Response('email\na@b.test\n', { status: 200, headers: { 'content-disposition': 'attachment; filename="r.csv"' } }));
    const result = await fetchDownload('/api/v1/public/download?download_token=t', fetchImpl as unknown as typeof fetch);
    expect(result.kind).toBe('file');
    if (result.kind === 'file') {
      expect(result.fileName).toBe('r.csv');
      expect(await result.blob.text()).toBe('email\na@b.test\n');
    }
  });

  it('tells an expired link (410) from another failure', async () => {
    expect(await fetchDownload('/x', (async () => failure(410, 'This download link has expired')) as unknown as typeof fetch)).toEqual({
      kind: 'expired',
      message: 'This download link has expired',
    });
    expect(await fetchDownload('/x', (async () => failure(400, 'Bad token')) as unknown as typeof fetch)).toEqual({ kind: 'failed', message: 'Bad token' });
    expect(
      await fetchDownload('/x', (async () => {
        throw new TypeError('offline');
      }) as unknown as typeof fetch),
    ).toMatchObject({ kind: 'failed' });
  });
});
