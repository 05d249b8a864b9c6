import type { TAnnouncement, TAnnouncementData } from '@verilead/contracts';
import type { TDb } from '../../platform/db/database';
import { selectAnnouncement, upsertAnnouncement } from './queries';

type TStyles = TAnnouncement['styles'];
const EMPTY_STYLES: TStyles = { top_container: {}, close_btn: {} };

/** The current announcement (null when none) and its timestamp (0 when none). */
export async function getAnnouncement(exec: TDb): Promise<TAnnouncementData> {
  const row = await selectAnnouncement(exec);
  if (!row || !row.message) return { announcement: null, timestamp: 0 };
  return {
    announcement: { message: row.message, dismissable: row.dismissable, styles: row.styles, timestamp: row.timestamp },
    timestamp: row.timestamp,
  };
}

export async function setAnnouncement(exec: TDb, input: { message: string; dismissable?: boolean; styles?: TStyles }): Promise<TAnnouncementData> {
  const message = input.message.trim();
  if (!message) throw new Error('announcement message must not be empty');
  await upsertAnnouncement(exec, { message, dismissable: input.dismissable ?? false, styles: input.styles ?? EMPTY_STYLES });
  return getAnnouncement(exec);
}

export async function clearAnnouncement(exec: TDb): Promise<TAnnouncementData> {
  await upsertAnnouncement(exec, { message: null, dismissable: false, styles: EMPTY_STYLES });
  return getAnnouncement(exec);
}

/**
 * The value of the `x-co-ann-ts` header, cached briefly so every response does not hit the database.
 * Another process (the ops command) changing it is seen within `ttlMs`.
 */
export function createAnnouncementClock(exec: TDb, ttlMs = 1000) {
  let cached: { value: number; at: number } | null = null;
  // Concurrent answers after the value expired share one read (not one query each).
  let pending: Promise<number> | null = null;
  return {
    async read(): Promise<number> {
      const now = Date.now();
      if (cached && now - cached.at < ttlMs) return cached.value;
      pending ??= getAnnouncement(exec)
        .then((a) => {
          cached = { value: a.timestamp, at: now };
          return a.timestamp;
        })
        .finally(() => (pending = null));
      return pending;
    },
    invalidate() {
      cached = null;
      pending = null;
    },
  };
}
export type TAnnouncementClock = ReturnType<typeof createAnnouncementClock>;
