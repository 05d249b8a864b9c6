import { z } from 'zod';
import { ZFailure } from '@verilead/contracts';

type TJsonSchema = Record<string, unknown>;
type TRouteSchema = { response?: Record<string, unknown>; consumes?: string[]; body?: unknown; [key: string]: unknown };

const FAILURE: TJsonSchema = (() => {
  const { $schema: _drop, ...schema } = z.toJSONSchema(ZFailure, { io: 'output', unrepresentable: 'any' }) as TJsonSchema;
  return schema;
})();

const failure = (description: string): TJsonSchema => ({ ...FAILURE, description });

/**
 * Answers the server gives on any route, whatever the route's own schema says: the app-version check (418, every
 * /api/v1 route), a path part that is too long or broken (414, routes with path parameters), and a body of a type
 * the route does not read or over the body limit (415, 413, routes that take a body). Each in the failure envelope.
 */
function protocolResponses(url: string, method: string): Record<string, TJsonSchema> {
  const out: Record<string, TJsonSchema> = {
    418: failure('The app (x-app-version) is older than the minimum version: update it (additional_info.update_code)'),
  };
  if (url.includes(':')) out[414] = failure('A path part is too long or holds broken characters');
  if (method !== 'GET' && method !== 'HEAD') {
    out[413] = failure('The request body is too large');
    out[415] = failure('The request body is of a type this route does not read');
  }
  return out;
}

/** Routes that answer something other than JSON: what they take and answer, for the document. */
const NON_JSON_ROUTES: Record<string, (schema: TRouteSchema) => TRouteSchema> = {
  'GET /api/v1/sso/saml/metadata/:org_id': (schema) => ({
    ...schema,
    response: {
      200: {
        description: "The organisation's SAML 2.0 service provider metadata (entity id, assertion consumer URL)",
        content: { 'application/samlmetadata+xml': { schema: { type: 'string' } } },
      },
      400: failure('org_id is not an organisation id'),
      404: failure('The organisation has no SAML single sign-on set up'),
      429: failure('Too many requests from this address; see Retry-After'),
    },
  }),
  'GET /api/v1/audit_log/export': (schema) => ({
    ...schema,
    response: {
      200: {
        description: "The organisation's audit log entries matching the filters, as CSV (an attachment)",
        content: { 'text/csv': { schema: { type: 'string' } } },
      },
      400: failure('A filter is not valid (action, member, dates)'),
      401: failure('The session has expired'),
      403: failure('Only owners and managers read the audit log'),
      429: failure('Too many requests; see Retry-After'),
    },
  }),
  'POST /api/v1/sso/saml/acs/:org_id': (schema) => ({
    ...schema,
    // The identity provider's HTTP-POST binding: an HTML form post.
    consumes: ['application/x-www-form-urlencoded', 'application/json'],
    response: {
      303: {
        type: 'null',
        description: "Back to the app's sign-in page with a single-use `ticket`, or with `sso_error` saying why the answer was refused",
        headers: { Location: { type: 'string', description: '{PUBLIC_URL}/sso/signin?ticket=… or {PUBLIC_URL}/sso/signin?sso_error=…' } },
      },
      400: failure('The form is not valid (org_id, SAMLResponse or RelayState)'),
      404: failure('The organisation has no SAML single sign-on set up'),
      429: failure('Too many requests from this address; see Retry-After'),
    },
  }),
};

/**
 * Completes a route's OpenAPI entry (the swagger transform, after the zod schemas are converted): non-JSON routes
 * get their real media types and answers, and every /api/v1 route the answers the server gives on any route.
 */
export function completeRouteDocument(url: string, method: string, schema: TRouteSchema): TRouteSchema {
  const upper = method.toUpperCase();
  const described = NON_JSON_ROUTES[`${upper} ${url}`]?.(schema) ?? schema;
  if (!url.startsWith('/api/v1/')) return described;
  const response = described.response ?? { 200: { description: 'Default Response' } };
  return { ...described, response: { ...protocolResponses(url, upper), ...response } };
}
