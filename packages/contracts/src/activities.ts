import { z } from 'zod';
import type { TJobActivityType } from './enums';

type TJobWording = { queued: string; progress: string; history: string; cancelled: string };

/**
 * What a job activity is called while queued, while it runs and once it is history (spec section 4), and once it was
 * cancelled (history too). A job that failed is history of type `failed`.
 */
export const JOB_ACTIVITY_WORDING: Readonly<Record<TJobActivityType, TJobWording>> = {
  sync: { queued: 'Sync queued', progress: 'Syncing', history: 'Synced', cancelled: 'Sync cancelled' },
  verify: { queued: 'Verification queued', progress: 'Verifying', history: 'Verified', cancelled: 'Verification cancelled' },
  analyse: { queued: 'Analysis queued', progress: 'Analysing', history: 'Analysed', cancelled: 'Analysis cancelled' },
  export: { queued: 'Export queued', progress: 'Exporting', history: 'Exported', cancelled: 'Export cancelled' },
  failed: { queued: 'Queued', progress: 'Retrying', history: 'Failed', cancelled: 'Cancelled' },
  find_emails: { queued: 'Email search queued', progress: 'Finding emails', history: 'Emails found', cancelled: 'Email search cancelled' },
  enrich: { queued: 'Enrichment queued', progress: 'Enriching', history: 'Enriched', cancelled: 'Enrichment cancelled' },
};

/** Where a job activity stands: queued or in progress (read from the job's live state), or how it ended. */
export const ZJobActivityStatus = z.enum(['queued', 'in_progress', 'completed', 'failed', 'cancelled']);
export type TJobActivityStatus = z.infer<typeof ZJobActivityStatus>;

/** The label of a job activity in a status (queued, in progress, history, cancelled), or null for account actions. */
export function getJobActivityStatusLabel(type: string, status: TJobActivityStatus | null): string | null {
  const wording = (JOB_ACTIVITY_WORDING as Record<string, TJobWording>)[type];
  if (!wording) return null;
  if (status === 'queued') return wording.queued;
  if (status === 'in_progress') return wording.progress;
  if (status === 'cancelled') return wording.cancelled;
  if (status === 'failed' && type !== 'failed') return JOB_ACTIVITY_WORDING.failed.history;
  return wording.history;
}

export type TJobPhase = 'queued' | 'progress' | 'history';

/** The label of an activity type in a phase: a job's wording, or null for account actions. */
export function getJobActivityLabel(type: string, phase: TJobPhase): string | null {
  const wording = (JOB_ACTIVITY_WORDING as Record<string, TJobWording>)[type];
  return wording ? wording[phase] : null;
}
