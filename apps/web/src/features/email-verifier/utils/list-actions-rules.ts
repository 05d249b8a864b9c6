import type { TVerifyList } from '@verilead/contracts';

type TListForActions = Pick<TVerifyList, 'state' | 'analysis' | 'counts' | 'activity'>;

/** Verify (or resume) once the file is analysed and addresses are left. */
export function canVerifyList(list: TListForActions): boolean {
  return list.analysis.state === 'ready' && (list.state === 'non_verified' || list.state === 'cancelled') && list.counts.remaining > 0;
}

export function canCancelList(list: TListForActions): boolean {
  return list.state === 'in_progress';
}

/** Results can be downloaded once some addresses were verified, or the list is done. */
export function canExportList(list: TListForActions): boolean {
  return list.analysis.state === 'ready' && list.state !== 'in_progress' && (list.counts.verified > 0 || list.state === 'verified');
}
