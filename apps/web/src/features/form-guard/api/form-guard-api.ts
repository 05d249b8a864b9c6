import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ZApp, ZAppListData, ZJsWidgetUsageData, type TAppCreateRequest, type TAppUpdateRequest, type TJsWidgetUsageRequest } from '@verilead/contracts';
import { requestApi } from '../../../lib/api-client';

/** Guards are apps: the same cache keys, so the Apps screens and these stay in step. */
export const formGuardKeys = {
  list: (page: number, limit: number) => ['apps', 'list', { form_guard: true, page, limit }] as const,
  one: (id: string) => ['apps', 'one', id] as const,
  usage: (q: TJsWidgetUsageRequest) => ['form_guard', 'usage', q] as const,
};

/** GET /apps/list?form_guard=true: the organisation's form guards. */
export function useFormGuards(page: number, limit: number) {
  return useQuery({
    queryKey: formGuardKeys.list(page, limit),
    queryFn: ({ signal }) => requestApi({ path: '/apps/list', query: { page, limit, form_guard: 'true' }, schema: ZAppListData, signal }),
    placeholderData: keepPreviousData,
  });
}

/** GET /apps/{id}. */
export function useFormGuard(id: string) {
  return useQuery({ queryKey: formGuardKeys.one(id), queryFn: ({ signal }) => requestApi({ path: `/apps/${id}`, schema: ZApp, signal }), enabled: id !== '' });
}

/** POST /apps/create with form guard settings: answers the guard with its client token (shown once). */
export function useCreateFormGuard() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TAppCreateRequest) => requestApi({ method: 'POST', path: '/apps/create', body, schema: ZApp }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['apps'] }),
  });
}

/** POST /apps/update: settings, origins, status or a rotated token. */
export function useUpdateFormGuard() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TAppUpdateRequest) => requestApi({ method: 'POST', path: '/apps/update', body, schema: ZApp }),
    onSuccess: (app) => {
      queryClient.setQueryData(formGuardKeys.one(app.id), { ...app, token: null });
      void queryClient.invalidateQueries({ queryKey: ['apps', 'list'] });
    },
  });
}

/** POST /form_guard/usage. */
export function useJsWidgetUsage(q: TJsWidgetUsageRequest) {
  return useQuery({
    queryKey: formGuardKeys.usage(q),
    queryFn: ({ signal }) => requestApi({ method: 'POST', path: '/form_guard/usage', body: q, schema: ZJsWidgetUsageData, signal }),
  });
}
