import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { AppProviders } from '../../../app/providers';
import { createQueryClient } from '../../../lib/query-client';
import { useSessionStore } from '../../../lib/session-store';
import { buildLogin } from '../../../test/fixtures';
import { FinderAddListScreen } from './finder-add-list-screen';

function renderScreen() {
  return render(
    <AppProviders queryClient={createQueryClient()}>
      <MemoryRouter>
        <FinderAddListScreen />
      </MemoryRouter>
    </AppProviders>,
  );
}

function chooseFile(file: File) {
  fireEvent.change(screen.getByLabelText('Choose a list file'), { target: { files: [file] } });
}

const headings = (table: HTMLElement) => within(table).getAllByRole('columnheader').map((cell) => cell.textContent);

describe('FinderAddListScreen', { timeout: 30_000 }, () => {
  let fetchMock: ReturnType<typeof vi.fn>;
  beforeEach(() => {
    useSessionStore.getState().fillSession(buildLogin());
    fetchMock = vi.fn(async (url: string) => {
      if (url.endsWith('/email_finder/bulk_upload/check_duplicate')) {
        return new Response(JSON.stringify({ status: 'success', data: { is_duplicate: true, message: 'people.csv was uploaded on 21 Nov 2026.', lists: [] } }), { status: 200 });
      }
      return new Response('{}', { status: 404 });
    });
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    useSessionStore.getState().logout();
  });

  it('refuses a file over 20,000,000 bytes, and a TXT file, before any request', async () => {
    renderScreen();
    const file = new File(['first,last,domain\n'], 'huge.csv', { type: 'text/csv' });
    Object.defineProperty(file, 'size', { value: 20_000_001 });
    chooseFile(file);
    expect((await screen.findByTestId('file-refusal')).textContent).toContain('20,000,001 bytes');
    chooseFile(new File(['Ann Lee acme.test'], 'people.txt', { type: 'text/plain' }));
    await waitFor(() => expect(screen.getByTestId('file-refusal').textContent).toContain('not a CSV or XLSX file'));
    expect(fetchMock).not.toHaveBeenCalled();
    expect(screen.queryByRole('button', { name: 'Upload list' })).toBeNull();
  });

  it('detects the name and domain columns, warns about a duplicate name, and remaps by clicking a heading', async () => {
    renderScreen();
    chooseFile(new File(['Id,First name,Surname,Website\n1,Ann,Lee,acme.test\n2,Bob,Ray,globex.test\n'], 'people.csv', { type: 'text/csv' }));
    const table = await screen.findByRole('table', { name: 'File preview' });
    expect(headings(table)).toEqual(['Id', 'First nameFirst name', 'SurnameLast name', 'WebsiteDomain']);
    expect((await screen.findByTestId('duplicate-warning')).textContent).toContain('people.csv was uploaded on 21 Nov 2026.');
    expect(screen.queryByTestId('mapping-problems')).toBeNull();
    expect((screen.getByRole('button', { name: 'Upload list' }) as HTMLButtonElement).disabled).toBe(false);
    // Clicking a heading assigns it to the role in focus (first name by default); one role per column.
    fireEvent.click(within(table).getByText('Id'));
    expect(headings(table)).toEqual(['IdFirst name', 'First name', 'SurnameLast name', 'WebsiteDomain']);
  });

  it('blocks the upload until a domain or company column is mapped', async () => {
    renderScreen();
    chooseFile(new File(['first,last,city\nAnn,Lee,Paris\n'], 'people.csv', { type: 'text/csv' }));
    expect((await screen.findByTestId('mapping-problems')).textContent).toContain('Map the domain column (or a company name column).');
    expect((screen.getByRole('button', { name: 'Upload list' }) as HTMLButtonElement).disabled).toBe(true);
  });
});
