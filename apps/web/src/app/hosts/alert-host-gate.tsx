import { lazy, Suspense, useState } from 'react';
import { useAlertStore } from '../../lib/alert-store';

const AlertHost = lazy(async () => ({ default: (await import('../../components/alert-host')).AlertHost }));

/** The alert modal (session expiry, app update), downloaded with the first alert and mounted from then on. */
export function AlertHostGate() {
  const open = useAlertStore((state) => state.current !== null);
  const [needed, setNeeded] = useState(false);
  if (!needed && open) setNeeded(true);
  if (!needed) return null;
  return (
    <Suspense fallback={null}>
      <AlertHost />
    </Suspense>
  );
}
