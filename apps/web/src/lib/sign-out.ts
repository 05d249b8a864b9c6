import { requestApi } from './api-client';
import { queryClient } from './query-client';
import { useSessionStore } from './session-store';

/** Logs out: the server revokes the token (GET /user/logout), then the session and cache are cleared. */
export async function signOutUser(): Promise<void> {
  try {
    await requestApi({ path: '/user/logout' });
  } catch {
    // The token may already be invalid; the local session is cleared either way.
  } finally {
    useSessionStore.getState().logout();
    queryClient.clear();
  }
}
