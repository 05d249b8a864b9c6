import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { AppProviders } from '../../../app/providers';
import { createQueryClient } from '../../../lib/query-client';
import { buildInstantResult } from '../test-data';
import { VerdictCard } from './verdict-card';

function renderCard(...args: Parameters<typeof VerdictCard>) {
  return render(
    <AppProviders queryClient={createQueryClient()}>
      <VerdictCard {...args[0]} />
    </AppProviders>,
  );
}

describe('VerdictCard', () => {
  it('shows the verdict fields, the score label and the 24-hour note', () => {
    renderCard({ result: buildInstantResult() });
    expect(screen.getByTestId('verdict-status').textContent).toBe('Valid');
    expect(screen.getByTestId('verdict-safe-to-send').textContent).toBe('Safe to send');
    expect(screen.getByTestId('verdict-reason').textContent).toBe('The mail server accepted this mailbox.');
    expect(screen.getByTestId('deliverability-score').textContent).toBe('76%');
    expect(screen.getByText('Moderate').textContent).toBe('Moderate');
    expect(screen.getByText(/guaranteed if you send within 24 hours/).textContent).toMatch(/^Safe to send is guaranteed if you send within 24 hours of verification \(until \d{1,2} \w{3} \d{4}, \d{2}:\d{2}\)\.$/);
    expect(screen.getByTestId('verdict-time').textContent).toBe('1.8 s');
    expect(screen.getByTestId('flag-role_account').getAttribute('data-on')).toBe('true');
    expect(screen.getByTestId('flag-disposable').getAttribute('data-on')).toBe('false');
  });

  it('shows a dash, not "0%", when the verdict has no score', () => {
    renderCard({ result: { ...buildInstantResult(), status: 'invalid', deliverability_score: 0 } });
    expect(screen.getByTestId('deliverability-score').textContent).toBe('–');
    expect(screen.getByText('No score').textContent).toBe('No score');
  });

  it('keeps the SMTP transcript behind Details', () => {
    renderCard({ result: buildInstantResult() });
    const toggle = screen.getByRole('button', { name: 'Details' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(toggle);
    expect(screen.getByRole('button', { name: 'Hide details' }).getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByTestId('smtp-transcript').textContent).toContain('> RCPT TO:<alice@strict.test>');
  });

  it('offers a one-click re-check of the suggested address', () => {
    const onRecheck = vi.fn();
    renderCard({
      result: buildInstantResult({ status: 'invalid', safe_to_send: 'no', suggested_email_address: 'john@gmail.com', reason: { code: 'domain_not_found', text: '' } }),
      onRecheck,
    });
    expect(screen.getByTestId('verdict-reason').textContent).toBe('The domain does not exist.');
    expect(screen.queryByText(/guaranteed if you send/)).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Check john@gmail.com' }));
    expect(onRecheck).toHaveBeenCalledWith('john@gmail.com');
  });

  it('says the reason once, beside the status (it was said three times: the reason, the AI verdict and the reason code)', () => {
    // What the engine answers for an address whose mailbox does not exist.
    renderCard({
      result: buildInstantResult({
        email: 'no.such.user@strict.test',
        status: 'invalid',
        safe_to_send: 'no',
        reason: { code: 'mailbox_not_found', text: 'The mailbox does not exist.' },
        ai_verdict: 'Undeliverable: the mailbox does not exist — do not send.',
        deliverability_score: 0,
      }),
    });
    const card = screen.getByTestId('verdict-card');
    expect(card.textContent?.match(/does not exist/gi)).toHaveLength(1);
    expect(screen.queryByText('mailbox_not_found')).toBeNull();
    const statusLine = screen.getByTestId('verdict-status-line');
    expect(within(statusLine).getByTestId('verdict-status').textContent).toBe('Invalid');
    expect(within(statusLine).getByTestId('verdict-reason').textContent).toBe('The mailbox does not exist.');
    // The code stays at hand for API users, behind Details.
    fireEvent.click(screen.getByRole('button', { name: 'Details' }));
    expect(screen.getByTestId('verdict-reason-code').textContent).toBe('mailbox_not_found');
  });

  it('does not repeat the status in other words under a catch-all reason', () => {
    renderCard({
      result: buildInstantResult({
        email: 'anyone@acceptall.test',
        status: 'catch_all',
        safe_to_send: 'risky',
        reason: { code: 'accept_all', text: 'The mail server accepts every address of this domain.' },
        ai_verdict: 'Risky: the server accepts any address, so this one cannot be confirmed — send with care.',
      }),
    });
    const card = screen.getByTestId('verdict-card');
    expect(card.textContent?.match(/accepts (every|any) address/gi)).toHaveLength(1);
    expect(screen.getByTestId('verdict-reason').textContent).toBe('The mail server accepts every address of this domain.');
  });
});
