import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { AppProviders } from '../../../app/providers';
import { createQueryClient } from '../../../lib/query-client';
import { useSessionStore } from '../../../lib/session-store';
import { buildLogin } from '../../../test/fixtures';
import { ConnectScreen } from './connect-screen';

const account = { id: '11111111-1111-4111-8111-111111111111', integration: 'kit', name: 'Creator', remote_account: 'Fake Kit', created_at: '2026-11-20T10:00:00Z' };

function renderAt(path: string) {
  return render(
    <AppProviders queryClient={createQueryClient()}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="/integrations/:integration/connect" element={<ConnectScreen />} />
          <Route path="/integrations/:integration" element={<p>Integration page</p>} />
        </Routes>
      </MemoryRouter>
    </AppProviders>,
  );
}

describe('ConnectScreen', () => {
  let fetchMock: ReturnType<typeof vi.fn>;
  let answer: () => Response;
  let testMode: { test_mode: boolean; credentials: Record<string, Record<string, string>> };
  beforeEach(() => {
    useSessionStore.getState().fillSession(buildLogin());
    answer = () => new Response(JSON.stringify({ status: 'success', data: account }), { status: 200 });
    fetchMock = vi.fn(async () => answer());
    testMode = { test_mode: false, credentials: {} };
    // GET /integration/test_mode answers apart: fetchMock records the calls the form makes.
    vi.stubGlobal('fetch', async (url: string, init?: RequestInit) =>
      String(url).includes('/integration/test_mode') ? new Response(JSON.stringify({ status: 'success', data: testMode }), { status: 200 }) : (fetchMock as unknown as (u: string, i?: RequestInit) => Promise<Response>)(url, init),
    );
  });
  afterEach(() => vi.unstubAllGlobals());

  const fill = () => {
    fireEvent.change(screen.getByLabelText(/Account name/), { target: { value: 'Creator' } });
    fireEvent.change(screen.getByLabelText(/V4 API key/), { target: { value: 'kit_key' } });
    fireEvent.click(screen.getByRole('button', { name: 'Connect' }));
  };

  it('asks Kit users about a paid plan: "No, Cancel" sends nothing, "Yes, Continue" connects', async () => {
    renderAt('/integrations/kit/connect');
    fill();
    expect((await screen.findByText(/Does this Kit account have a paid plan/)).textContent).toBe('Kit only allows API access on paid plans. Does this Kit account have a paid plan?');
    fireEvent.click(screen.getByRole('button', { name: 'No, Cancel' }));
    await waitFor(() => expect(screen.queryByText(/Does this Kit account have a paid plan/)).toBeNull());
    expect(fetchMock).not.toHaveBeenCalled();

    fireEvent.click(screen.getByRole('button', { name: 'Connect' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Yes, Continue' }));
    expect((await screen.findByText('Integration page')).textContent).toBe('Integration page');
    const [, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(JSON.parse(String(init.body))).toEqual({ name: 'Creator', api_key: 'kit_key', paid_plan_confirmed: true });
  });

  it("puts the platform's refusal on the key field", async () => {
    answer = () =>
      new Response(
        JSON.stringify({ status: 'failed', error: { code: 'validation_failed', message: 'x', reasons: [{ field: 'api_key', location: 'body', messages: ['Kit did not accept these credentials'] }] } }),
        { status: 400 },
      );
    renderAt('/integrations/kit/connect');
    fill();
    fireEvent.click(await screen.findByRole('button', { name: 'Yes, Continue' }));
    expect((await screen.findByText('Kit did not accept these credentials')).textContent).toBe('Kit did not accept these credentials');
  });

  it('CleverTap: asks for the region (a picker), the account ID and the passcode, and sends all three', async () => {
    renderAt('/integrations/clevertap/connect');
    fireEvent.change(screen.getByLabelText(/Account name/), { target: { value: 'Mobile app' } });
    fireEvent.click(screen.getByRole('button', { name: 'Connect' }));
    expect((await screen.findByText('Please choose the region of this CleverTap account')).textContent).toBe('Please choose the region of this CleverTap account');
    expect(screen.getByText('Please enter the Account ID').textContent).toBe('Please enter the Account ID');
    expect(fetchMock).not.toHaveBeenCalled();

    fireEvent.click(screen.getByRole('combobox', { name: /Region/ }));
    fireEvent.click(await screen.findByRole('option', { name: 'India (in1)', hidden: true }));
    fireEvent.change(screen.getByRole('textbox', { name: /Account ID/ }), { target: { value: 'W88-R65-9Z7Z' } });
    fireEvent.change(screen.getByLabelText(/Passcode/), { target: { value: 'secret-passcode' } });
    fireEvent.click(screen.getByRole('button', { name: 'Connect' }));
    expect((await screen.findByText('Integration page')).textContent).toBe('Integration page');
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toContain('/integration/account/clevertap');
    expect(JSON.parse(String(init.body))).toEqual({ name: 'Mobile app', api_key: 'secret-passcode', account_id: 'W88-R65-9Z7Z', region: 'in1' });
  });

  it('GoHighLevel: asks for the location ID and the private integration token; a refusal lands on its field', async () => {
    answer = () =>
      new Response(
        JSON.stringify({ status: 'failed', error: { code: 'validation_failed', message: 'x', reasons: [{ field: 'account_id', location: 'body', messages: ['Please enter the Location ID'] }] } }),
        { status: 400 },
      );
    renderAt('/integrations/go_high_level/connect');
    fireEvent.change(screen.getByLabelText(/Account name/), { target: { value: 'Agency' } });
    fireEvent.change(screen.getByRole('textbox', { name: /Location ID/ }), { target: { value: 'loc-1' } });
    fireEvent.change(screen.getByLabelText(/Private integration token/), { target: { value: 'pit-1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Connect' }));
    expect((await screen.findByText('Please enter the Location ID')).textContent).toBe('Please enter the Location ID');
    const [, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(JSON.parse(String(init.body))).toEqual({ name: 'Agency', api_key: 'pit-1', account_id: 'loc-1' });
  });

  it('explains why a defunct platform cannot be connected', () => {
    renderAt('/integrations/automizy/connect');
    expect(screen.getByText(/Automizy has shut down its service/).textContent).toBe('Automizy has shut down its service, so new accounts cannot be connected. Lists imported from Automizy earlier keep working.');
    expect(screen.queryByRole('button', { name: 'Connect' })).toBeNull();
  });

  it('offers "Connect with Mailchimp" (OAuth) besides the API key, and sends the browser to the consent page', async () => {
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    answer = () => new Response(JSON.stringify({ status: 'success', data: { authorize_url: 'https://login.mailchimp.test/oauth2/authorize?state=s', account: null } }), { status: 200 });
    renderAt('/integrations/mailchimp/connect');
    expect(screen.getByLabelText(/^API key/)).toHaveProperty('type', 'password');
    const oauth = screen.getByTestId('oauth-connect');
    fireEvent.click(within(oauth).getByRole('button', { name: 'Connect with Mailchimp' }));
    expect((await within(oauth).findByText('Please enter a name for this account')).textContent).toBe('Please enter a name for this account');
    expect(fetchMock).not.toHaveBeenCalled();
    fireEvent.change(within(oauth).getByLabelText(/Account name/), { target: { value: 'Chimp' } });
    fireEvent.click(within(oauth).getByRole('button', { name: 'Connect with Mailchimp' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://login.mailchimp.test/oauth2/authorize?state=s'));
    expect(String((fetchMock.mock.calls[0] as [string])[0])).toMatch(/\/oauth\/mailchimp\?name=Chimp$/);
  });

  it('back from the consent page: hands code and state over once and opens the integration', async () => {
    answer = () => new Response(JSON.stringify({ status: 'success', data: { authorize_url: null, account: { ...account, integration: 'mailchimp' } } }), { status: 200 });
    renderAt('/integrations/mailchimp/connect?code=abc&state=s1');
    expect((await screen.findByText('Integration page')).textContent).toBe('Integration page');
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(String((fetchMock.mock.calls[0] as [string])[0])).toMatch(/\/oauth\/mailchimp\?code=abc&state=s1$/);
  });

  it("shows the server's refusal when the connection cannot be finished", async () => {
    answer = () => new Response(JSON.stringify({ status: 'failed', error: { code: 'validation_failed', message: 'This connection attempt has expired or was already used; please start again', reasons: [] } }), { status: 400 });
    renderAt('/integrations/mailchimp/connect?code=abc&state=old');
    expect((await screen.findByText(/expired or was already used/)).textContent).toBe('This connection attempt has expired or was already used; please start again');
    expect(screen.getByRole('button', { name: 'Try again' })).toHaveProperty('disabled', false);
  });

  it('Zoho CRM connects only through OAuth and asks for the data centre', async () => {
    renderAt('/integrations/zoho/connect');
    expect(screen.queryByLabelText(/API key/)).toBeNull();
    fireEvent.change(screen.getByLabelText(/Account name/), { target: { value: 'Zoho EU' } });
    fireEvent.click(screen.getByRole('button', { name: 'Connect with Zoho CRM' }));
    expect((await screen.findByText('Please choose your Zoho data centre')).textContent).toBe('Please choose your Zoho data centre');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('in test mode says so, and fills in the stand-in credentials with one click', async () => {
    testMode = { test_mode: true, credentials: { hubspot: { api_key: 'pat-na1-test' } } };
    renderAt('/integrations/hubspot/connect');
    const notice = await screen.findByTestId('integration-test-mode');
    expect(notice.textContent).toMatch(/^Test modeHubSpot is answered by a local stand-in on this server, with demo contacts: nothing is sent to HubSpot\./);
    fireEvent.click(within(notice).getByRole('button', { name: 'Fill in the test credentials' }));
    expect((screen.getByLabelText(/Private app access token/) as HTMLInputElement).value).toBe('pat-na1-test');
    fireEvent.click(screen.getByRole('button', { name: 'Connect' }));
    expect((await screen.findByText('Integration page')).textContent).toBe('Integration page');
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toContain('/integration/account/hubspot');
    expect(JSON.parse(String(init.body))).toEqual({ name: 'Test account', api_key: 'pat-na1-test' });
  });

  it('says nothing of test mode on a live server', async () => {
    renderAt('/integrations/hubspot/connect');
    expect(await screen.findByLabelText(/Private app access token/)).toHaveProperty('type', 'password');
    await waitFor(() => expect(screen.queryByTestId('integration-test-mode')).toBeNull());
  });
});
