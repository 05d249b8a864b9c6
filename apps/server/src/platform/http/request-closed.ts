import type { FastifyReply } from 'fastify';

/**
 * What a handler stopped by requestClosedSignal throws: the client went away before its answer. Answered 499 (the
 * status proxies log for it; nobody reads the body) and never logged as a server error.
 */
export class RequestClosedError extends Error {
  readonly statusCode = 499;
  constructor() {
    super('The request was closed by the client.');
    this.name = 'RequestClosedError';
  }
}

/**
 * A signal that aborts (with a RequestClosedError) when the client goes away before the answer is sent (the connection
 * closed early), so a long-running handler can stop its work. It never aborts once the answer was written.
 */
export function requestClosedSignal(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  const res = reply.raw;
  const onClose = () => {
    if (!res.writableFinished) controller.abort(new RequestClosedError());
  };
  res.once('close', onClose);
  return controller.signal;
}
