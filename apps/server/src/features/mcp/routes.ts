import type { FastifyInstance } from 'fastify';
import { MCP_PATH } from '@verilead/contracts';
import type { TDeps } from '../../platform/deps';
import { buildFailure } from '../../platform/errors/error-handler';
import { CLIENT_TOKEN_REFUSED, createAnonymousLimit, publicRateLimit, resolveServerAppToken, INVALID_TOKEN, PublicApiError } from '../developer';
import { registerMcpTools } from './tools';

/** The version of the tool set this server announces (raise it when a tool's input or answer changes). */
const MCP_TOOLS_VERSION = '1.0.0';

/** The MCP SDK, loaded with the first MCP call (only this use case needs it). */
let sdk: Promise<[typeof import('@modelcontextprotocol/sdk/server/mcp.js'), typeof import('@modelcontextprotocol/sdk/server/streamableHttp.js')]> | null = null;
const loadSdk = () => (sdk ??= Promise.all([import('@modelcontextprotocol/sdk/server/mcp.js'), import('@modelcontextprotocol/sdk/server/streamableHttp.js')]));

/**
 * A JSON-RPC batch (an array body) is refused: MCP removed batching in its 2025-06-18 revision (a streamable HTTP POST
 * carries one message), and one request of up to 100 tool calls would pass the app's rate limit counted once. The
 * answer is a JSON-RPC error (Invalid Request, id null), as the SDK's transport answers what it refuses.
 */
export const BATCH_REFUSED = 'Invalid Request: JSON-RPC batches are not supported (removed in MCP 2025-06-18); send one message per POST';

/**
 * The MCP server at /mcp (streamable HTTP, stateless: one server and transport per request, so any API process answers
 * any call). Authenticated as /v2 is, with a server app's bearer token (public-api/auth.ts), and counted in the same
 * per-app rate limit, one message per request (no batches), so every tool call counts; a call without a known token
 * counts in the per-IP limit /v2 applies to them. The tools (tools.ts) call the /v2 services; when the client goes away,
 * the transport closes and the tools' signal stops the work that takes one (a verification).
 */
export async function registerMcpRoutes(app: FastifyInstance, deps: TDeps): Promise<void> {
  const { verifier } = deps;
  await app.register(async (mcp) => {
    mcp.addHook('onRoute', (route) => {
      route.schema = { ...(route.schema ?? {}), hide: true };
    });
    mcp.decorateRequest('appCaller', null);
    const countAnonymous = createAnonymousLimit(mcp, deps);
    mcp.setErrorHandler((err: unknown, req, reply) => {
      if (err instanceof PublicApiError) return reply.status(err.httpStatus).send(err.body); // the rate limit's 429
      const status = (err as { statusCode?: number }).statusCode;
      if (status && status >= 400 && status < 500) return reply.status(400).send(buildFailure('validation_failed', 'The request body is not valid JSON-RPC'));
      req.log.error({ err }, 'mcp error');
      return reply.status(503).send(buildFailure('internal_error', 'The MCP server is unavailable, please try again shortly'));
    });
    mcp.addHook('onRequest', async (req, reply) => {
      const resolved = await resolveServerAppToken(deps.database.db, req.headers.authorization);
      if (resolved.refused) {
        if (resolved.refused === 'unknown') await countAnonymous(req, reply);
        reply.header('www-authenticate', 'Bearer');
        const message = resolved.refused === 'client' ? CLIENT_TOKEN_REFUSED : INVALID_TOKEN;
        return reply.status(401).send(buildFailure('invalid_token', message));
      }
      req.appCaller = resolved.caller;
    });

    mcp.post(MCP_PATH, { config: { rateLimit: publicRateLimit(deps) } }, async (req, reply) => {
      const caller = req.appCaller;
      if (!caller) return reply.status(401).send(buildFailure('invalid_token', INVALID_TOKEN));
      if (Array.isArray(req.body)) return reply.status(400).send({ jsonrpc: '2.0', error: { code: -32600, message: BATCH_REFUSED }, id: null });
      const [{ McpServer }, { StreamableHTTPServerTransport }] = await loadSdk();
      const server = new McpServer({ name: 'verilead', title: 'Verilead', version: MCP_TOOLS_VERSION });
      registerMcpTools(server, deps, verifier, caller, req.log);
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      // The client gone (the response closed before or after the answer): the transport closes, which aborts the signal
      // of every tool call still running. A client gone before this listener existed gets nothing run at all.
      reply.raw.on('close', () => {
        void transport.close();
        void server.close();
      });
      if (req.raw.socket.destroyed) return reply.hijack();
      await server.connect(transport);
      reply.hijack();
      await transport.handleRequest(req.raw, reply.raw, req.body);
    });

    // Stateless: no server-sent event stream to open and no session to end.
    const notAllowed = 'This MCP server is stateless: send JSON-RPC messages with POST';
    mcp.get(MCP_PATH, async (_req, reply) => reply.header('allow', 'POST').status(405).send(buildFailure('method_not_allowed', notAllowed)));
    mcp.delete(MCP_PATH, async (_req, reply) => reply.header('allow', 'POST').status(405).send(buildFailure('method_not_allowed', notAllowed)));
  });
}
