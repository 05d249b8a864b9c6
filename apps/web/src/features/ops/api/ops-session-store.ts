import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import type { TOperator } from '@verilead/contracts';

/** localStorage key of the operator session: apart from the customer session (`verilead-session`). */
export const OPS_SESSION_STORAGE_KEY = 'verilead-ops-session';

type TOpsSession = {
  token: string | null;
  operator: TOperator | null;
  signIn: (token: string, operator: TOperator) => void;
  signOut: () => void;
};

/** The operator console's session: its own token and store, never the customer session's. */
export const useOpsSession = create<TOpsSession>()(
  persist(
    (set) => ({
      token: null,
      operator: null,
      signIn: (token, operator) => set({ token, operator }),
      signOut: () => set({ token: null, operator: null }),
    }),
    { name: OPS_SESSION_STORAGE_KEY, storage: createJSONStorage(() => localStorage), partialize: (s) => ({ token: s.token, operator: s.operator }) },
  ),
);
