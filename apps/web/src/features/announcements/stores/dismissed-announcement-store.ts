import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';

type TDismissedAnnouncementStore = {
  dismissedTimestamp: number | null;
  dismiss: (timestamp: number) => void;
};

/** Remembers which announcement (by timestamp) the user closed, so it stays closed after a reload. */
export const useDismissedAnnouncementStore = create<TDismissedAnnouncementStore>()(
  persist(
    (set) => ({
      dismissedTimestamp: null,
      dismiss: (dismissedTimestamp) => set({ dismissedTimestamp }),
    }),
    { name: 'verilead-announcement-dismissed', storage: createJSONStorage(() => window.localStorage) },
  ),
);
