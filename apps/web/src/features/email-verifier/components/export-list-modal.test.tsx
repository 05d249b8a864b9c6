import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { AppProviders } from '../../../app/providers';
import { createQueryClient } from '../../../lib/query-client';
import { useSessionStore } from '../../../lib/session-store';
import { buildLogin } from '../../../test/fixtures';
import { answerOk as ok, stubApi } from '../../../test/render-app';
import { buildList } from '../test-data';
import { ExportListModal } from './export-list-modal';

describe('ExportListModal', () => {
  beforeEach(() => useSessionStore.getState().fillSession(buildLogin()));
  afterEach(() => {
    vi.unstubAllGlobals();
    useSessionStore.getState().logout();
  });

  it('lets a custom download keep the columns of the uploaded file, in file order, with the chosen result columns', async () => {
    const list = buildList({ id: '00000000-0000-4000-8000-000000000001', name: 'leads' });
    const bodies = stubApi({
      'GET /api/v1/email_verify/list/columns': ok({ list_id: list.id, columns: ['name', 'email', 'company'], email_column: 1 }),
      'POST /api/v1/email_verify/list/export': ok({
        download_id: 'd1',
        queue_id: 'd1',
        kind: 'result',
        list_id: list.id,
        format: 'custom',
        file_type: 'csv',
        columns: ['status'],
        state: 'failed',
        progress: 0,
        file_name: 'leads-custom.csv',
        rows: null,
        size_bytes: null,
        download_url: null,
        download_token: null,
        token_expires_at: null,
        expires_at: null,
        error: 'stop here',
        created_at: '2026-11-24T10:00:00.000Z',
      }),
    });
    render(
      <AppProviders queryClient={createQueryClient()}>
        <ExportListModal list={list} onClose={() => undefined} />
      </AppProviders>,
    );
    fireEvent.click(await screen.findByLabelText('Custom'));
    const company = await screen.findByRole('checkbox', { name: 'company' });
    expect((screen.getByRole('checkbox', { name: 'name' }) as HTMLInputElement).checked).toBe(true);
    fireEvent.click(company);
    fireEvent.click(screen.getByRole('checkbox', { name: 'name' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'name' }));
    fireEvent.click(screen.getByRole('button', { name: 'Download' }));
    await waitFor(() => expect(bodies['POST /api/v1/email_verify/list/export']).toBeDefined());
    const body = bodies['POST /api/v1/email_verify/list/export'] as { input_columns: number[]; columns: string[]; format: string };
    expect(body.format).toBe('custom');
    expect(body.input_columns).toEqual([0, 1]);
    expect(body.columns).toContain('status');
    expect(body.columns).not.toContain('email');
  });
});
