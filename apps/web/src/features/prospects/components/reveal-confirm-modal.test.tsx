import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { AppProviders } from '../../../app/providers';
import { createQueryClient } from '../../../lib/query-client';
import { maxRevealCost, RevealConfirmModal } from './reveal-confirm-modal';

const person = (over: Partial<Parameters<typeof maxRevealCost>[0][number]> = {}) => ({
  full_name: 'Ruby Wilson-Hill',
  has_email: true,
  email_revealed: false,
  has_phone: true,
  phone_revealed: false,
  ...over,
});

describe('RevealConfirmModal', () => {
  it('costs only what each person has and the organisation has not revealed', () => {
    expect(maxRevealCost([person()])).toEqual({ emails: 1, phones: 1, credits: 3 });
    expect(maxRevealCost([person({ email_revealed: true }), person({ has_phone: false }), person({ has_email: false, has_phone: false })])).toEqual({ emails: 1, phones: 1, credits: 3 });
  });

  it('shows the most a reveal costs before anything is charged, and reveals only on confirmation', () => {
    const onConfirm = vi.fn();
    render(
      <AppProviders queryClient={createQueryClient()}>
        <RevealConfirmModal people={[person()]} loading={false} onConfirm={onConfirm} onClose={() => undefined} />
      </AppProviders>,
    );
    expect(screen.getByTestId('reveal-what').textContent).toBe('Ruby Wilson-Hill: 1 e-mail at 1 credit and 1 phone at 2 credits.');
    expect(screen.getByTestId('reveal-max-cost').textContent).toBe('3 credits');
    expect(onConfirm).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Reveal for at most 3 credits' }));
    expect(onConfirm).toHaveBeenCalledTimes(1);
  });

  it('names the number of people for a selection', () => {
    render(
      <AppProviders queryClient={createQueryClient()}>
        <RevealConfirmModal people={[person({ has_phone: false }), person({ phone_revealed: true })]} loading={false} onConfirm={() => undefined} onClose={() => undefined} />
      </AppProviders>,
    );
    // A kind with nothing to reveal is not named ("0 phones at 2 credits").
    expect(screen.getByTestId('reveal-what').textContent).toBe('2 people: 2 e-mails at 1 credit.');
    expect(screen.getByTestId('reveal-max-cost').textContent).toBe('2 credits');
  });
});
