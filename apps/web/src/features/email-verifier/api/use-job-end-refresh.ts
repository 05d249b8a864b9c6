import { useEffect, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { userQueryKeys } from '../../../lib/user-queries';
import { verifierQueryKeys } from './verifier-query-keys';

/**
 * Watches polled lists: when one that was busy (analysed or verified) is seen idle, its job has ended, so what the job
 * changed is refreshed at once — the list and its live progress (else the last poll stays on screen, "200 of 287"),
 * its "Keep verified" schedule, the lists table, and the credits in the header (the job charged them).
 */
export function useRefreshWhenJobsEnd(lists: ReadonlyArray<{ id: string; busy: boolean }> | undefined) {
  const queryClient = useQueryClient();
  const busy = useRef(new Set<string>());
  useEffect(() => {
    if (!lists) return;
    const ended = lists.filter((list) => !list.busy && busy.current.has(list.id)).map((list) => list.id);
    for (const list of lists) {
      if (list.busy) busy.current.add(list.id);
      else busy.current.delete(list.id);
    }
    if (ended.length === 0) return;
    for (const id of ended) {
      void queryClient.invalidateQueries({ queryKey: verifierQueryKeys.list(id) });
      void queryClient.invalidateQueries({ queryKey: verifierQueryKeys.progress(id) });
      // "Keep verified" answers from the list's state: "being verified" until refreshed, on a list that is done.
      void queryClient.invalidateQueries({ queryKey: verifierQueryKeys.keepVerified(id) });
    }
    void queryClient.invalidateQueries({ queryKey: verifierQueryKeys.lists });
    // The prefix also refreshes the credits ledger.
    void queryClient.invalidateQueries({ queryKey: userQueryKeys.creditsAndLimits });
    void queryClient.invalidateQueries({ queryKey: userQueryKeys.activities });
  }, [lists, queryClient]);
}
