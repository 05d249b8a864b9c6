import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import {
  DEFAULT_USER_SESSION,
  type TAddress,
  type TCurrentPlan,
  type TLoginData,
  type TMemberLimits,
  type TUserProfile,
  type TUserSession,
} from '@verilead/contracts';

/** localStorage key of the persisted session. */
export const SESSION_STORAGE_KEY = 'verilead-session';

/** The spec's user session (contracts' TUserSession) plus two client-only flags. */
export type TSessionData = TUserSession & {
  /** Login start marks the session as logging in. */
  isLoggingIn: boolean;
  /** True after the first login of an account until the welcome modal is closed. */
  showWelcome: boolean;
};

/** Values the session starts with and returns to on failure or logout. */
export function createDefaultSession(): TSessionData {
  return { ...DEFAULT_USER_SESSION, isLoggingIn: false, showWelcome: false };
}

export type TSessionActions = {
  startLogin: () => void;
  /** Login success: fills the session from the login response. */
  fillSession: (data: TLoginData, options?: { firstLogin?: boolean }) => void;
  /** Login failure: back to the defaults. */
  failLogin: () => void;
  /** Takes a fresh profile from the server (keeps the token and client flags). */
  updateFromProfile: (profile: TUserProfile) => void;
  /** Logout: clears the whole store and its localStorage key. */
  logout: () => void;
  setEmail: (email: string) => void;
  setPendingEmail: (email: string | null) => void;
  setEmailVerified: (verified: boolean) => void;
  setName: (name: string) => void;
  setAddress: (address: TAddress | null) => void;
  setTimezone: (timezone: string) => void;
  setCredits: (credits: number) => void;
  setOrgCredits: (credits: number) => void;
  setOrgLimits: (limits: TMemberLimits) => void;
  setOrgName: (name: string) => void;
  setOrgUrl: (url: string | null) => void;
  setOrgTel: (tel: string | null) => void;
  setLocale: (locale: string) => void;
  setCardValidity: (isValid: boolean) => void;
  setIntegrations: (integrations: string[]) => void;
  setLimits: (limits: TMemberLimits) => void;
  setPlan: (plan: TCurrentPlan) => void;
  setPhone: (phone: string | null) => void;
  setHasPassword: (hasPassword: boolean) => void;
  setDashboardType: (type: TUserSession['dashboard_type']) => void;
  setMemberSeats: (seats: number) => void;
  setAnnouncementTimestamp: (timestamp: number) => void;
  dismissWelcome: () => void;
};

export type TSessionStore = TSessionData & TSessionActions;

type TSet = (update: Partial<TSessionData> | ((state: TSessionStore) => Partial<TSessionData>)) => void;

function updateOrganisation(set: TSet, patch: Partial<NonNullable<TUserSession['organisation']>>): void {
  set((state) => (state.organisation ? { organisation: { ...state.organisation, ...patch } } : {}));
}

export const useSessionStore = create<TSessionStore>()(
  persist(
    (set) => ({
      ...createDefaultSession(),
      startLogin: () => set({ isLoggingIn: true }),
      fillSession: (data, options) =>
        set({
          ...data.user,
          jwtToken: data.token,
          isLogged: true,
          isLoggingIn: false,
          showWelcome: options?.firstLogin ?? false,
        }),
      failLogin: () => set(createDefaultSession()),
      updateFromProfile: (profile) => set({ ...profile }),
      logout: () => {
        set((state) => {
          // Drop every field the profile may have added, not just the ones the defaults name.
          const cleared: Record<string, unknown> = {};
          for (const key of Object.keys(state)) {
            if (typeof state[key as keyof TSessionStore] !== 'function') cleared[key] = undefined;
          }
          return { ...cleared, ...createDefaultSession() };
        });
        useSessionStore.persist.clearStorage();
      },
      setEmail: (email) => set({ email }),
      setPendingEmail: (pending_email) => set({ pending_email }),
      setEmailVerified: (isEmailVerified) => set({ isEmailVerified }),
      setName: (name) => set({ name }),
      setAddress: (address) => set({ address }),
      setTimezone: (timezone) => set({ timezone }),
      setCredits: (credits) => set({ credits }),
      setOrgCredits: (credits) => updateOrganisation(set, { credits }),
      setOrgLimits: (limits) => updateOrganisation(set, { limits }),
      setOrgName: (name) => updateOrganisation(set, { name }),
      setOrgUrl: (org_website_url) => updateOrganisation(set, { org_website_url }),
      setOrgTel: (org_tel) => updateOrganisation(set, { org_tel }),
      setLocale: (locale) => set({ locale }),
      setCardValidity: (is_valid_card) => set({ payment: { stripe: { is_valid_card } } }),
      setIntegrations: (integrations) => set({ integrations }),
      setLimits: (limits) => set({ limits }),
      setPlan: (current_plan) => set({ current_plan }),
      setPhone: (phone_number) => set({ phone_number }),
      setHasPassword: (has_password) => set({ has_password }),
      setDashboardType: (dashboard_type) => set({ dashboard_type }),
      setMemberSeats: (user_create_limit) => updateOrganisation(set, { plan: { user_create_limit } }),
      setAnnouncementTimestamp: (announcement_timestamp) => set({ announcement_timestamp }),
      dismissWelcome: () => set({ showWelcome: false }),
    }),
    {
      name: SESSION_STORAGE_KEY,
      version: 1,
      storage: createJSONStorage(() => window.localStorage),
      partialize: (state) => {
        const data: Record<string, unknown> = {};
        for (const [key, value] of Object.entries(state)) {
          if (typeof value !== 'function' && key !== 'isLoggingIn') data[key] = value;
        }
        return data as Partial<TSessionData>;
      },
    },
  ),
);

/** The bearer token of the current session, if logged in. */
export function getSessionToken(): string | null {
  const state = useSessionStore.getState();
  return state.isLogged ? state.jwtToken : null;
}
