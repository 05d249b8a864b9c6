import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router';
import { AppProviders } from '../../../app/providers';
import { createQueryClient } from '../../../lib/query-client';
import { AnnouncementBar, getInAppPath, sanitizeAnnouncementHtml } from './announcement-bar';

describe('sanitizeAnnouncementHtml', () => {
  it('drops scripts, handlers and javascript: links but keeps formatting and links', () => {
    const html = sanitizeAnnouncementHtml(
      '<b>New</b> <a href="/pricing" onclick="steal()">plans</a><script>alert(1)</script><img src=x onerror=alert(1)><a href="javascript:alert(1)">x</a>',
    );
    expect(html).toContain('<b>New</b>');
    expect(html).toContain('<a href="/pricing">plans</a>');
    expect(html).not.toMatch(/script|onerror|onclick|javascript|<img/);
  });
});

describe('getInAppPath', () => {
  it('keeps same-host links inside the app', () => {
    expect(getInAppPath('/account/credits?x=1', 'http://app.test')).toBe('/account/credits?x=1');
    expect(getInAppPath('http://app.test/settings#a', 'http://app.test')).toBe('/settings#a');
    expect(getInAppPath('https://elsewhere.test/', 'http://app.test')).toBeNull();
  });
});

function LocationProbe() {
  const location = useLocation();
  return <output data-testid="location">{location.pathname}</output>;
}

describe('AnnouncementBar', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('renders the sanitised message, navigates same-host links in the app and can be dismissed', async () => {
    const announcement = {
      message: 'Maintenance tonight. <a href="/activities">See activity</a><script>bad()</script>',
      dismissable: true,
      styles: { top_container: {}, close_btn: {} },
      timestamp: 99,
    };
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify({ status: 'success', data: { announcement, timestamp: 99 } }), { status: 200 })),
    );
    render(
      <AppProviders queryClient={createQueryClient()}>
        <MemoryRouter initialEntries={['/']}>
          <AnnouncementBar />
          <LocationProbe />
        </MemoryRouter>
      </AppProviders>,
    );
    const region = await screen.findByRole('region', { name: 'Announcement' });
    expect(region.innerHTML).not.toContain('<script');
    const click = fireEvent.click(screen.getByText('See activity'));
    expect(click).toBe(false);
    expect(screen.getByTestId('location').textContent).toBe('/activities');
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss announcement' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Announcement' })).toBeNull());
  });
});
