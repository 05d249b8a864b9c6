import { describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import { AppProviders } from '../../../app/providers';
import { createQueryClient } from '../../../lib/query-client';
import { buildInstantResult } from '../test-data';
import { CatchAllScoreBadge } from './catch-all-score-badge';
import { VerdictCard } from './verdict-card';

const scored = {
  score: 86,
  evidence: [
    { kind: 'pattern_match' as const, text: 'matches first.last, the pattern of 14 known addresses of 15 known at acme.test' },
    { kind: 'name_like' as const, text: 'jane.doe reads like a name' },
  ],
};

function renderIn(node: React.ReactNode) {
  return render(<AppProviders queryClient={createQueryClient()}>{node}</AppProviders>);
}

describe('CatchAllScoreBadge', () => {
  it('shows the score with its evidence listed', () => {
    renderIn(<CatchAllScoreBadge value={scored} showEvidence />);
    expect(screen.getByTestId('catch-all-score').textContent).toBe('86% likely real');
    const items = within(screen.getByTestId('catch-all-evidence')).getAllByRole('listitem');
    expect(items.map((i) => i.textContent)).toEqual(scored.evidence.map((e) => e.text));
    expect(items.map((i) => i.getAttribute('data-kind'))).toEqual(['pattern_match', 'name_like']);
  });

  it('keeps the evidence in its accessible name when shown alone', () => {
    renderIn(<CatchAllScoreBadge value={{ score: 4, evidence: [{ kind: 'gibberish', text: 'qxzkvbrt looks like a random string (gibberish score 0.91)' }] }} />);
    expect(screen.getByTestId('catch-all-score').getAttribute('aria-label')).toBe('Catch-all score 4 of 100: qxzkvbrt looks like a random string (gibberish score 0.91)');
    expect(screen.queryByTestId('catch-all-evidence')).toBeNull();
  });

  it('sits beside the catch-all badge of a verdict, and only there', () => {
    const catchAll = buildInstantResult({ email: 'jane.doe@acme.test', status: 'catch_all', reason: { code: 'accept_all', text: 'Accepts all' }, catch_all_score: scored });
    const { unmount } = renderIn(<VerdictCard result={catchAll} />);
    expect(screen.getByTestId('verdict-status').textContent).toBe('Catch-all');
    expect(screen.getByTestId('catch-all-score').textContent).toBe('86% likely real');
    expect(screen.getByTestId('catch-all-evidence').textContent).toContain('the pattern of 14 known addresses');
    unmount();
    renderIn(<VerdictCard result={buildInstantResult()} />);
    expect(screen.queryByTestId('catch-all-score')).toBeNull();
  });
});
