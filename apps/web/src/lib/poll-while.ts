/** The longest wait between two polls while they fail, as a multiple of the usual one. */
const MAX_BACKOFF = 8;

/**
 * The app's one polling behaviour, as TanStack Query's `refetchInterval`: poll every `everyMs` while `running` says the
 * job still runs, stop once it ended (the screens refresh what the job changed when they see it end), and back off
 * while the polls fail — each failure in a row doubles the wait, up to 8× — so a server in trouble is not hammered.
 */
export function pollWhile<TData>(running: (data: TData | undefined) => boolean, everyMs: number) {
  return (query: { state: { data: TData | undefined; fetchFailureCount: number } }): number | false => {
    if (!running(query.state.data)) return false;
    return everyMs * Math.min(MAX_BACKOFF, 2 ** query.state.fetchFailureCount);
  };
}
