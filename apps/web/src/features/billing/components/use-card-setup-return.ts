import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { showToast } from '../../../lib/toast';
import { useConfirmSetupIntent } from '../api/payments-api';

/**
 * The plan chosen on a screen, and the way back from the card set-up page: `?setup_intent=…&subscribe=<plan>` saves
 * the card, then opens that plan's confirmation (nothing is charged before the person confirms it there).
 */
export function useChosenPlanWithCardReturn(): [string | null, (planId: string | null) => void] {
  const [chosen, setChosen] = useState<string | null>(null);
  const [params, setParams] = useSearchParams();
  const confirm = useConfirmSetupIntent();
  const setupId = params.get('setup_intent');
  const subscribe = params.get('subscribe');
  const handled = useRef<string | null>(null);
  useEffect(() => {
    if (!setupId || handled.current === setupId) return;
    handled.current = setupId;
    confirm.mutate(setupId, {
      onSuccess: (card) => {
        showToast({ title: 'Card saved', message: `${card.brand} ending in ${card.last4} was saved.`, kind: 'success' });
        if (subscribe) setChosen(subscribe);
      },
      onError: () => showToast({ title: 'The card was not saved', message: 'The card set-up did not finish. Please try again.', kind: 'error' }),
      onSettled: () =>
        setParams(
          (p) => {
            p.delete('setup_intent');
            p.delete('redirect_status');
            p.delete('subscribe');
            return p;
          },
          { replace: true },
        ),
    });
  }, [setupId, subscribe, confirm, setParams]);
  return [chosen, setChosen];
}
