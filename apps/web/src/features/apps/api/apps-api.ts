import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ZApp, ZAppListData, type TAppCreateRequest, type TAppStatus, type TAppUpdateRequest } from '@verilead/contracts';

export type TAppListQuery = { page: number; limit: number; status?: TAppStatus; search?: string };
import { requestApi } from '../../../lib/api-client';

export const appsQueryKeys = {
  all: ['apps'] as const,
  list: (q: TAppListQuery) => ['apps', 'list', q] as const,
  one: (id: string) => ['apps', 'one', id] as const,
};

/** GET /apps/list: the organisation's apps, paged. */
export function useAppsList(q: TAppListQuery) {
  return useQuery({
    queryKey: appsQueryKeys.list(q),
    queryFn: ({ signal }) => requestApi({ path: '/apps/list', query: { page: q.page, limit: q.limit, status: q.status, search: q.search }, schema: ZAppListData, signal }),
    placeholderData: keepPreviousData,
  });
}

/** GET /apps/{id}. */
export function useApp(id: string) {
  return useQuery({ queryKey: appsQueryKeys.one(id), queryFn: ({ signal }) => requestApi({ path: `/apps/${id}`, schema: ZApp, signal }), enabled: id !== '' });
}

/** POST /apps/create: answers the app with its token (shown once). */
export function useCreateApp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TAppCreateRequest) => requestApi({ method: 'POST', path: '/apps/create', body, schema: ZApp }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: appsQueryKeys.all }),
  });
}

/** POST /apps/update: settings, status, or a rotated token (answered once). */
export function useUpdateApp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TAppUpdateRequest) => requestApi({ method: 'POST', path: '/apps/update', body, schema: ZApp }),
    onSuccess: (app) => {
      queryClient.setQueryData(appsQueryKeys.one(app.id), { ...app, token: null });
      void queryClient.invalidateQueries({ queryKey: ['apps', 'list'] });
    },
  });
}
