import type { TJobActivityType } from './enums';

/** What a job activity is called while queued, while it runs and once it is history (spec section 4). */
export const JOB_ACTIVITY_WORDING: Readonly<Record<TJobActivityType, { queued: string; progress: string; history: string }>> = {
  sync: { queued: 'Sync queued', progress: 'Syncing', history: 'Synced' },
  verify: { queued: 'Verification queued', progress: 'Verifying', history: 'Verified' },
  analyse: { queued: 'Analysis queued', progress: 'Analysing', history: 'Analysed' },
  export: { queued: 'Export queued', progress: 'Exporting', history: 'Exported' },
  failed: { queued: 'Queued', progress: 'Retrying', history: 'Failed' },
  find_emails: { queued: 'Email search queued', progress: 'Finding emails', history: 'Emails found' },
  enrich: { queued: 'Enrichment queued', progress: 'Enriching', history: 'Enriched' },
};

export type TJobPhase = 'queued' | 'progress' | 'history';

/** The label of an activity type in a phase: a job's wording, or null for account actions. */
export function getJobActivityLabel(type: string, phase: TJobPhase): string | null {
  const wording = (JOB_ACTIVITY_WORDING as Record<string, { queued: string; progress: string; history: string }>)[type];
  return wording ? wording[phase] : null;
}
