import { lazy, Suspense, useEffect, useState } from 'react';

/** The window events `modals.*` of @mantine/modals dispatch (see its events.ts). */
const MODAL_EVENTS = ['openModal', 'openConfirmModal', 'openContextModal', 'closeModal', 'closeAllModals', 'updateModal', 'updateContextModal'].map(
  (name) => `mantine-modals:${name}`,
);

let providerMounted = false;
const heldEvents: { type: string; detail: unknown }[] = [];
const wakeListeners = new Set<() => void>();

function holdEvent(event: Event): void {
  if (providerMounted) return;
  heldEvents.push({ type: event.type, detail: (event as CustomEvent).detail });
  for (const wake of wakeListeners) wake();
}

if (typeof window !== 'undefined') {
  for (const type of MODAL_EVENTS) window.addEventListener(type, holdEvent);
}

/** Runs after ModalsProvider has registered its listeners: replays what was asked before it loaded. */
function ReplayHeldEvents() {
  useEffect(() => {
    providerMounted = true;
    for (const event of heldEvents.splice(0)) window.dispatchEvent(new CustomEvent(event.type, { detail: event.detail }));
    return () => {
      providerMounted = false;
    };
  }, []);
  return null;
}

const LoadedModalsProvider = lazy(async () => {
  const [{ ModalsProvider }, { withQueryClient }] = await Promise.all([import('./modals-provider'), import('../query-boundary')]);
  // Modal contents see the app's query client, as when the provider wrapped the whole app.
  return {
    default: withQueryClient(() => (
      <>
        <ModalsProvider />
        <ReplayHeldEvents />
      </>
    )),
  };
});

/**
 * Mantine's ModalsProvider (Modal, ScrollArea, focus trap), downloaded with the first `modals.*` call instead of
 * on every page: the call is held and replayed once the provider listens. No screen uses the modals context
 * (`useModals`), only the event API, so the provider sits beside the app rather than around it.
 */
export function ModalsHost() {
  const [needed, setNeeded] = useState(() => heldEvents.length > 0);
  useEffect(() => {
    const wake = () => setNeeded(true);
    wakeListeners.add(wake);
    if (heldEvents.length > 0) wake();
    return () => {
      wakeListeners.delete(wake);
    };
  }, []);
  if (!needed) return null;
  return (
    <Suspense fallback={null}>
      <LoadedModalsProvider />
    </Suspense>
  );
}
