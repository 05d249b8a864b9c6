import { useEffect } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ZAnnouncementData } from '@verilead/contracts';
import { requestApi, subscribeAnnouncementChange } from '../../../lib/api-client';

export const announcementQueryKey = ['user', 'announcement'] as const;

/** GET /user/announcement, re-fetched whenever a response's x-co-ann-ts differs from the stored one. */
export function useAnnouncement() {
  const queryClient = useQueryClient();
  useEffect(
    () =>
      subscribeAnnouncementChange(() => {
        void queryClient.invalidateQueries({ queryKey: announcementQueryKey });
      }),
    [queryClient],
  );
  return useQuery({
    queryKey: announcementQueryKey,
    queryFn: ({ signal }) => requestApi({ path: '/user/announcement', schema: ZAnnouncementData, signal }),
    staleTime: Infinity,
  });
}
