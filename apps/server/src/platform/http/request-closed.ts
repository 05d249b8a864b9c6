import type { FastifyReply } from 'fastify';

/**
 * A signal that aborts when the client goes away before the answer is sent (the connection closed early), so a
 * long-running handler can stop its work. It never aborts once the answer was written.
 */
export function requestClosedSignal(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  const res = reply.raw;
  const onClose = () => {
    if (!res.writableFinished) controller.abort(new Error('The request was closed by the client.'));
  };
  res.once('close', onClose);
  return controller.signal;
}
