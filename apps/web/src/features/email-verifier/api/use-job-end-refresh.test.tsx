import { describe, expect, it, vi } from 'vitest';
import { renderHook } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { createQueryClient } from '../../../lib/query-client';
import { userQueryKeys } from '../../../lib/user-queries';
import { useRefreshWhenJobsEnd } from './use-job-end-refresh';
import { verifierQueryKeys } from './verifier-query-keys';

type TState = { id: string; busy: boolean }[] | undefined;

function setup(initial: TState) {
  const client = createQueryClient();
  const invalidate = vi.spyOn(client, 'invalidateQueries').mockResolvedValue(undefined);
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
  const hook = renderHook(({ lists }: { lists: TState }) => useRefreshWhenJobsEnd(lists), { wrapper, initialProps: { lists: initial } });
  const keys = () => invalidate.mock.calls.map(([filters]) => JSON.stringify(filters?.queryKey));
  return { hook, invalidate, keys };
}

describe('useRefreshWhenJobsEnd', () => {
  it('refreshes the list, its progress, its keep-verified schedule, the lists and the header credits once a polled job turns terminal', () => {
    const { hook, invalidate, keys } = setup([{ id: 'l1', busy: true }, { id: 'l2', busy: false }]);
    expect(invalidate).not.toHaveBeenCalled();
    hook.rerender({ lists: [{ id: 'l1', busy: true }, { id: 'l2', busy: false }] });
    expect(invalidate).not.toHaveBeenCalled();
    hook.rerender({ lists: [{ id: 'l1', busy: false }, { id: 'l2', busy: false }] });
    expect(keys()).toEqual(
      expect.arrayContaining([
        JSON.stringify(verifierQueryKeys.list('l1')),
        JSON.stringify(verifierQueryKeys.progress('l1')),
        JSON.stringify(verifierQueryKeys.keepVerified('l1')),
        JSON.stringify(verifierQueryKeys.lists),
        JSON.stringify(userQueryKeys.creditsAndLimits),
      ]),
    );
    const count = invalidate.mock.calls.length;
    // Nothing more while it stays finished.
    hook.rerender({ lists: [{ id: 'l1', busy: false }, { id: 'l2', busy: false }] });
    expect(invalidate.mock.calls.length).toBe(count);
  });

  it('does nothing for a list that was never seen busy', () => {
    const { hook, invalidate } = setup(undefined);
    hook.rerender({ lists: [{ id: 'l1', busy: false }] });
    expect(invalidate).not.toHaveBeenCalled();
  });
});
