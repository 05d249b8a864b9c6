import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ZExtensionUninstallRequest,
  ZExtensionUninstallResponse,
  ZExtensionVersionQuery,
  ZExtensionVersionResponse,
  ZG2CrowdUrlResponse,
  ZIpLocationResponse,
  ZMarketingStatsResponse,
  ZPriceResponse,
  ZPublicPriceQuery,
} from '@verilead/contracts';
import type { TGuards } from '../../platform/auth/guards';
import type { TDeps } from '../../platform/deps';
import { ok, withErrorResponses } from '../../platform/http/responses';
import { rateLimitFor } from '../../platform/http/rate-limits';
import { getPublicPrice } from '../billing';
import { locateRequest } from './ip-location';
import { getExtensionVersion, getMarketingStats, recordExtensionUninstall } from './service';

export function registerPublicRoutes(app: FastifyInstance, deps: TDeps, guards: TGuards) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const limited = rateLimitFor(deps.config, 'public');
  const tags = ['public'];

  r.post(
    '/public/extension_uninstall',
    { config: limited, schema: { tags, summary: 'The browser extension uninstall survey', body: ZExtensionUninstallRequest, response: withErrorResponses({ 200: ZExtensionUninstallResponse }) } },
    async (req) => ok(await recordExtensionUninstall(deps.database.db, req.body)),
  );
  r.get(
    '/public/ip_location',
    { config: limited, schema: { tags, summary: "The visitor's country and price currency, from the request alone", response: withErrorResponses({ 200: ZIpLocationResponse }) } },
    async (req) => ok(await locateRequest(req.ip, req.headers, deps.config.trustProxy)),
  );
  r.get(
    '/public/marketing_stats',
    { config: limited, schema: { tags, summary: 'Product-wide figures for the marketing pages', response: withErrorResponses({ 200: ZMarketingStatsResponse }) } },
    async () => ok(await getMarketingStats(deps.database.db)),
  );
  r.get(
    '/public/price',
    {
      config: limited,
      schema: { tags, summary: 'The credits calculator: the price of a number of credits from the price slabs', querystring: ZPublicPriceQuery, response: withErrorResponses({ 200: ZPriceResponse }) },
    },
    async (req) => ok(await getPublicPrice(deps.database.db, req.query)),
  );
  r.get(
    '/extension/version',
    { config: limited, schema: { tags, summary: 'The newest browser extension version; whether the caller (v) must update', querystring: ZExtensionVersionQuery, response: withErrorResponses({ 200: ZExtensionVersionResponse }) } },
    async (req) => ok(getExtensionVersion(deps, req.query.v)),
  );
  r.get(
    '/g2crowd/url',
    { onRequest: guards.requireAuth, schema: { tags, summary: 'Where to review the product on G2', security: [{ bearer: [] }], response: withErrorResponses({ 200: ZG2CrowdUrlResponse }) } },
    async () => ok({ url: deps.config.g2ReviewUrl }),
  );
}
