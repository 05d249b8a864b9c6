import { lazy, Suspense } from 'react';

const DemoNotice = lazy(() => import('./demo-notice'));

/** Where the sign-in pages show the quick start's "Demo" notice; its code and its question come after the page. */
export function DemoNoticeSlot() {
  return (
    <Suspense fallback={null}>
      <DemoNotice />
    </Suspense>
  );
}
