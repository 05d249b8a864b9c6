import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZAnnouncementResponse } from '@verilead/contracts';
import { opsSecretRoute } from '../../platform/auth/ops-secret';
import type { TDeps } from '../../platform/deps';
import type { TGuards } from '../../platform/auth/guards';
import { ok, withErrorResponses } from '../../platform/http/responses';
import { clearAnnouncement, getAnnouncement, setAnnouncement } from './service';

const ZOpsAnnouncementRequest = z
  .object({ message: z.string().trim().min(1).max(5000).optional(), dismissable: z.boolean().optional(), clear: z.boolean().optional() })
  .refine((v) => v.clear || v.message, { message: 'message or clear is required', path: ['message'] });

export function registerAnnouncementRoutes(app: FastifyInstance, deps: TDeps, guards: TGuards) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/user/announcement',
    {
      onRequest: guards.requireAuth,
      schema: { tags: ['user'], summary: 'The current announcement', security: [{ bearer: [] }], response: withErrorResponses({ 200: ZAnnouncementResponse }) },
    },
    async () => ({ status: 'success' as const, data: await getAnnouncement(deps.database.db) }),
  );
}

/** Operator endpoint used by `npm run ops -- announce` while the server runs (PGlite allows one process). */
export function registerAnnouncementOpsRoute(app: FastifyInstance, deps: TDeps, onChange: () => void) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post(
    '/ops/announcement',
    {
      ...opsSecretRoute(deps.config),
      schema: { hide: true, body: ZOpsAnnouncementRequest, response: { 200: ZAnnouncementResponse } },
    },
    async (req) => {
      const data = req.body.clear
        ? await clearAnnouncement(deps.database.db)
        : await setAnnouncement(deps.database.db, { message: req.body.message ?? '', dismissable: req.body.dismissable });
      onChange();
      return ok(data);
    },
  );
}
