import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ZSupportAccess } from '@verilead/contracts';
import { requestApi } from '../../../lib/api-client';

const PATH = '/settings/support_access';
const KEY = ['settings', 'support-access'] as const;

/** GET /settings/support_access (owner): whether Verilead support may see lists and results, until when. */
export function useSupportAccess() {
  return useQuery({ queryKey: KEY, queryFn: ({ signal }) => requestApi({ path: PATH, schema: ZSupportAccess, signal }) });
}

/** POST (grant for `hours`) or DELETE (end now) /settings/support_access (owner). */
export function useSetSupportAccess() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (hours: number | null) =>
      hours === null ? requestApi({ method: 'DELETE', path: PATH, schema: ZSupportAccess }) : requestApi({ method: 'POST', path: PATH, body: { hours }, schema: ZSupportAccess }),
    onSuccess: (saved) => queryClient.setQueryData(KEY, saved),
  });
}
