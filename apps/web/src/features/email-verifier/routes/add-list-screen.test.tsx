import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { AppProviders } from '../../../app/providers';
import { createQueryClient } from '../../../lib/query-client';
import { useSessionStore } from '../../../lib/session-store';
import { buildLogin } from '../../../test/fixtures';
import { AddListScreen } from './add-list-screen';

function renderScreen() {
  return render(
    <AppProviders queryClient={createQueryClient()}>
      <MemoryRouter>
        <AddListScreen />
      </MemoryRouter>
    </AppProviders>,
  );
}

function chooseFile(file: File) {
  fireEvent.change(screen.getByLabelText('Choose a list file'), { target: { files: [file] } });
}

describe('AddListScreen', () => {
  let fetchMock: ReturnType<typeof vi.fn>;
  beforeEach(() => {
    useSessionStore.getState().fillSession(buildLogin());
    fetchMock = vi.fn(async (url: string) => {
      if (url.endsWith('/email_verify/bulk_upload/check_duplicate')) {
        return new Response(
          JSON.stringify({
            status: 'success',
            data: {
              is_duplicate: true,
              message: 'leads.csv was uploaded on 20 Nov 2026.',
              lists: [{ id: 'l1', name: 'leads', created_at: '2026-11-20T10:00:00Z' }],
              suggested_name: 'leads (2)',
            },
          }),
          { status: 200 },
        );
      }
      return new Response('{}', { status: 404 });
    });
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    useSessionStore.getState().logout();
  });

  it('refuses a file over 20,000,000 bytes before any request', async () => {
    renderScreen();
    const file = new File(['email\n'], 'huge.csv', { type: 'text/csv' });
    Object.defineProperty(file, 'size', { value: 20_000_001 });
    chooseFile(file);
    const refusal = await screen.findByTestId('file-refusal');
    expect(refusal.textContent).toContain('20,000,001 bytes');
    expect(fetchMock).not.toHaveBeenCalled();
    expect(screen.queryByRole('button', { name: 'Upload list' })).toBeNull();
  });

  it('previews the first rows with the e-mail column detected, and warns about a duplicate file name', async () => {
    renderScreen();
    chooseFile(new File(['Name,Work email\nAnn,ann@acme.test\nBob,bob@acme.test\n'], 'leads.csv', { type: 'text/csv' }));
    const table = await screen.findByRole('table', { name: 'File preview' });
    const headers = within(table).getAllByRole('columnheader').map((cell) => cell.textContent);
    expect(headers).toEqual(['Name', 'Work emailEmail']);
    // The preview counts the rows it shows (the header row is the column headings).
    expect(within(table).getAllByRole('row')).toHaveLength(3);
    expect(screen.getByText(/preview of the first/).textContent).toMatch(/ · preview of the first 2 rows$/);
    // The new name is said before the upload, not given silently.
    expect((await screen.findByTestId('duplicate-warning')).textContent).toBe(
      'A file with this name was uploaded beforeleads.csv was uploaded on 20 Nov 2026. It will be uploaded as a new list named “leads (2)”: change the name below if you prefer another.',
    );
    // A list already has the file's name: the next free one is suggested.
    expect((screen.getByRole('textbox', { name: 'List name' }) as HTMLInputElement).value).toBe('leads (2)');
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    fireEvent.click(within(table).getByText('Name'));
    expect(within(table).getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual(['NameEmail', 'Work email']);
  });
});
