import { create } from 'zustand';
import type { TAppUpdateCode } from '@verilead/contracts';

/** Modal priority: the version update beats the session expiry, which beats any other alert. */
export const ALERT_PRIORITY = { version_update: 3, session_expired: 2, message: 1 } as const;

export type TAlert =
  | { kind: 'version_update'; code: TAppUpdateCode; message: string }
  | { kind: 'session_expired'; title: string; message: string; onClose: () => void }
  | { kind: 'message'; title: string; message: string; onClose?: () => void };

type TAlertStore = {
  current: TAlert | null;
  /** Opens the alert unless one of equal or higher priority is open; returns true when shown. */
  openAlert: (alert: TAlert) => boolean;
  /** Closes the open alert and runs its onClose, if any. */
  closeAlert: () => void;
};

export const useAlertStore = create<TAlertStore>()((set, get) => ({
  current: null,
  openAlert: (alert) => {
    const current = get().current;
    if (current && ALERT_PRIORITY[current.kind] >= ALERT_PRIORITY[alert.kind]) return false;
    set({ current: alert });
    return true;
  },
  closeAlert: () => {
    const current = get().current;
    set({ current: null });
    if (current && current.kind !== 'version_update') current.onClose?.();
  },
}));
