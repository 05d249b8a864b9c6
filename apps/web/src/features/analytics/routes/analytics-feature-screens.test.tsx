import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { MetricGrid } from '../components/metric-grid';
import { verifiedMetric } from './analytics-feature-screens';

const stats = { total: 1_869, valid: 1_500, invalid: 200, catch_all: 100, unknown: 53, duplicate: 12, syntax_error: 4, disposable: 0, gibberish: 0, free_account: 0, role_account: 0, billable: 1_800, safe_to_send: 1_400, deliverability_score: 90, billable_credits: 1_800 };

describe('Email Verifier analytics: "Emails verified"', () => {
  it('counts the addresses verified (instant and in lists), and says the skipped list rows apart', () => {
    render(
      <MantineProvider>
        <MetricGrid metrics={[verifiedMetric({ stats, instant: 9, bulk: 1_844 })]} />
      </MantineProvider>,
    );
    expect(screen.getByTestId('stat-value').textContent).toBe('1,853');
    expect(screen.getByTestId('stat-hint').textContent).toBe('9 instant, 1,844 in lists; 16 list rows skipped (duplicates, syntax errors)');
  });

  it('says nothing of skipped rows when there were none', () => {
    render(
      <MantineProvider>
        <MetricGrid metrics={[verifiedMetric({ stats: { ...stats, duplicate: 0, syntax_error: 0 }, instant: 3, bulk: 0 })]} />
      </MantineProvider>,
    );
    expect(screen.getByTestId('stat-value').textContent).toBe('3');
    expect(screen.getByTestId('stat-hint').textContent).toBe('3 instant, 0 in lists');
  });
});
