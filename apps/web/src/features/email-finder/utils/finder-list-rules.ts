import type { TFinderList } from '@verilead/contracts';

type TListForActions = Pick<TFinderList, 'state' | 'activity' | 'counts'>;

/** True while the search job runs or the file is read (the screens poll then). */
export function isFinderListBusy(list: Pick<TFinderList, 'state' | 'activity'>): boolean {
  return list.state === 'in_progress' || list.activity === 'find_emails' || list.activity === 'analyse';
}

/** Find (or resume) when searchable rows are left and nothing runs. */
export function canFindEmails(list: TListForActions): boolean {
  return !isFinderListBusy(list) && (list.state === 'not_processed' || list.state === 'cancelled') && list.counts.remaining > 0;
}

export function canCancelFinderList(list: TListForActions): boolean {
  return list.state === 'in_progress';
}

/** Results can be downloaded once some rows were searched, or the list is done. */
export function canDownloadFinderList(list: TListForActions): boolean {
  return !isFinderListBusy(list) && (list.counts.processed > 0 || list.state === 'processed');
}
