import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { cancelPendingPricingRedirect } from './api-client';
import { ApiError } from './api-error';
import { useSessionStore } from './session-store';
import { buildLogin } from '../test/fixtures';
import { uploadBulkFile } from './upload-bulk-file';

const ZUploaded = z.object({ id: z.string(), name: z.string() });
const PATH = '/email_verify/bulk_upload';

type TAnswer = { status: number; body: string };

/** A stand-in XMLHttpRequest that records the request and answers with `answer` (test only). */
function installFakeXhr(answer: TAnswer) {
  const sent: { method: string; url: string; headers: Record<string, string>; form: FormData | null }[] = [];
  class FakeXhr {
    status = 0;
    responseText = '';
    upload: { onprogress: ((event: { loaded: number; total: number; lengthComputable: boolean }) => void) | null } = { onprogress: null };
    onload: (() => void) | null = null;
    onerror: (() => void) | null = null;
    onabort: (() => void) | null = null;
    private request = { method: '', url: '', headers: {} as Record<string, string>, form: null as FormData | null };
    open(method: string, url: string) {
      this.request.method = method;
      this.request.url = url;
    }
    setRequestHeader(name: string, value: string) {
      this.request.headers[name] = value;
    }
    abort() {
      this.onabort?.();
    }
    send(form: FormData) {
      this.request.form = form;
      sent.push(this.request);
      this.upload.onprogress?.({ loaded: 50, total: 100, lengthComputable: true });
      this.status = answer.status;
      this.responseText = answer.body;
      this.onload?.();
    }
  }
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  return sent;
}

describe('uploadBulkFile', () => {
  beforeEach(() => useSessionStore.getState().fillSession(buildLogin()));
  afterEach(() => {
    cancelPendingPricingRedirect();
    vi.unstubAllGlobals();
    useSessionStore.getState().logout();
  });

  it('sends the fields then the file with the session token, reports progress and answers the list', async () => {
    const list = { id: 'list-1', name: 'Leads' };
    const sent = installFakeXhr({ status: 200, body: JSON.stringify({ status: 'success', data: list }) });
    const progress = vi.fn();
    const file = new File(['email\na@b.test\n'], 'leads.csv', { type: 'text/csv' });
    await expect(uploadBulkFile({ path: PATH, schema: ZUploaded, file, fields: { list_name: 'Leads', email_column: 2, has_header: 'true', empty: '' }, onProgress: progress })).resolves.toEqual(list);
    const request = sent[0];
    expect(request?.url).toBe('/api/v1/email_verify/bulk_upload');
    expect(request?.headers.authorization).toBe('Bearer token-abc');
    expect(request?.headers['x-app-version']).toBe('31.3.1');
    expect([...(request?.form?.keys() ?? [])]).toEqual(['list_name', 'email_column', 'has_header', 'file']);
    expect(request?.form?.get('email_column')).toBe('2');
    expect(progress).toHaveBeenCalledWith({ loaded: 50, total: 100, percent: 50 });
  });

  it('rejects with the failure envelope, and with a clear message for a bare 413', async () => {
    installFakeXhr({ status: 400, body: JSON.stringify({ status: 'failed', error: { code: 'validation_failed', message: 'The file holds no e-mail column' } }) });
    const file = new File(['x'], 'a.csv');
    await expect(uploadBulkFile({ path: PATH, schema: ZUploaded, file, fields: {}, onProgress: () => undefined })).rejects.toMatchObject({ status: 400, message: 'The file holds no e-mail column' });
    installFakeXhr({ status: 413, body: '<html>too large</html>' });
    const error = await uploadBulkFile({ path: '/email_finder/bulk_upload', schema: ZUploaded, file, fields: {}, onProgress: () => undefined }).catch((cause: unknown) => cause);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 413, code: 'payload_too_large' });
  });

  it('rejects a success answer whose data does not match the schema', async () => {
    const sent = installFakeXhr({ status: 200, body: JSON.stringify({ status: 'success', data: { id: 7 } }) });
    const file = new File(['x'], 'a.csv');
    await expect(uploadBulkFile({ path: '/email_finder/bulk_upload', schema: ZUploaded, file, fields: {}, onProgress: () => undefined })).rejects.toMatchObject({ code: 'invalid_response' });
    expect(sent[0]?.url).toBe('/api/v1/email_finder/bulk_upload');
  });
});
