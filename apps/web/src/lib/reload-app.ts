import type { TAppUpdateCode } from '@verilead/contracts';

/** Reloads the app in the mode a 418 update code names. */
export async function reloadApp(code: TAppUpdateCode): Promise<void> {
  if (code === 'clear_storage_reload') {
    window.localStorage.clear();
  }
  if (code === 'hard_reload' && 'caches' in window) {
    const keys = await window.caches.keys();
    await Promise.all(keys.map((key) => window.caches.delete(key)));
  }
  window.location.reload();
}
