import { useEffect } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { ZActivitiesData, ZCreditsAndLimitsData, ZCurrentPlan, ZUserPreferences, ZUserProfile, type ZActivitiesRequest } from '@verilead/contracts';
import type { z } from 'zod';
import { requestApi } from './api-client';
import { useSessionStore } from './session-store';

/** Query keys shared by several features. */
export const userQueryKeys = {
  profile: ['user', 'profile'] as const,
  creditsAndLimits: ['user', 'credits-and-limits'] as const,
  transactions: ['user', 'credits-and-limits', 'transactions'] as const,
  activities: ['user', 'activities'] as const,
  currentPlan: ['user', 'current-plan'] as const,
  /** The settings screens wrote this key first, hence its name; the prospect settings read and write it too. */
  preferences: ['settings', 'preferences'] as const,
};

/** GET /user/profile; the session store follows the answer. */
export function useProfile() {
  const updateFromProfile = useSessionStore((state) => state.updateFromProfile);
  const query = useQuery({
    queryKey: userQueryKeys.profile,
    queryFn: ({ signal }) => requestApi({ path: '/user/profile', schema: ZUserProfile, signal }),
  });
  useEffect(() => {
    if (query.data) updateFromProfile(query.data);
  }, [query.data, updateFromProfile]);
  return query;
}

/** GET /user/credits_and_limits; keeps the session's credits and limits current. */
export function useCreditsAndLimits() {
  const setCredits = useSessionStore((state) => state.setCredits);
  const setOrgCredits = useSessionStore((state) => state.setOrgCredits);
  const setLimits = useSessionStore((state) => state.setLimits);
  const query = useQuery({
    queryKey: userQueryKeys.creditsAndLimits,
    queryFn: ({ signal }) => requestApi({ path: '/user/credits_and_limits', schema: ZCreditsAndLimitsData, signal }),
  });
  useEffect(() => {
    if (!query.data) return;
    setCredits(query.data.credits);
    setOrgCredits(query.data.org_credits);
    setLimits(query.data.limits);
  }, [query.data, setCredits, setOrgCredits, setLimits]);
  return query;
}

/** POST /user/activities: the user's actions and jobs, newest first, paged. */
export function useActivities(params: z.output<typeof ZActivitiesRequest>) {
  return useQuery({
    queryKey: [...userQueryKeys.activities, params],
    queryFn: ({ signal }) => requestApi({ method: 'POST', path: '/user/activities', body: params, schema: ZActivitiesData, signal }),
    placeholderData: keepPreviousData,
  });
}

/** GET /user/current_plan; the session's plan follows the answer. */
export function useCurrentPlan() {
  const setPlan = useSessionStore((state) => state.setPlan);
  const query = useQuery({
    queryKey: userQueryKeys.currentPlan,
    queryFn: ({ signal }) => requestApi({ path: '/user/current_plan', schema: ZCurrentPlan, signal }),
  });
  useEffect(() => {
    if (query.data) setPlan(query.data);
  }, [query.data, setPlan]);
  return query;
}

/** GET /user_preferences: every settings group of the caller (the verifier, finder and prospect settings screens). */
export function useUserPreferences() {
  return useQuery({
    queryKey: userQueryKeys.preferences,
    queryFn: ({ signal }) => requestApi({ path: '/user_preferences', schema: ZUserPreferences, signal }),
  });
}
