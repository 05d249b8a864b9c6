import { lazy, Suspense, useState } from 'react';
import { notificationsStore, useNotifications } from '@mantine/notifications';
import { TOAST_DISMISS_MS } from '@verilead/contracts';

const NOTIFICATIONS_LIMIT = 4;
/**
 * The top centre, as the product specifies, but under the app's header (styles.css, `.app-toasts`): over it, a toast
 * hid the credits and the user menu for five seconds after every save.
 */
const NOTIFICATIONS_POSITION = 'top-center';

// Toasts shown before the container has loaded are placed and limited as the container will do.
notificationsStore.updateState((state) => ({ ...state, limit: NOTIFICATIONS_LIMIT, defaultPosition: NOTIFICATIONS_POSITION }));

const Notifications = lazy(async () => ({ default: (await import('./notifications-container')).Notifications }));

/**
 * Mantine's toast container, downloaded with the first toast: the sign-in pages rarely show one, and the
 * container (transitions, portal) is not part of what they need to paint. Once loaded it stays mounted.
 */
export function NotificationsHost() {
  const { notifications, queue } = useNotifications();
  const [needed, setNeeded] = useState(false);
  if (!needed && notifications.length + queue.length > 0) setNeeded(true);
  if (!needed) return null;
  return (
    <Suspense fallback={null}>
      <Notifications className="app-toasts" position={NOTIFICATIONS_POSITION} autoClose={TOAST_DISMISS_MS} limit={NOTIFICATIONS_LIMIT} zIndex={2000} />
    </Suspense>
  );
}
