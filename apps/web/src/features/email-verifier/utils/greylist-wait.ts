import type { TGreylistWait } from '@verilead/contracts';
import { formatNumber, formatTime } from '../../../lib/format';

/** "12 addresses wait for a greylist re-check at 14:05" (the user's time zone), or null when none waits. */
export function describeGreylistWait(wait: TGreylistWait): string | null {
  if (wait.waiting <= 0) return null;
  const subject = wait.waiting === 1 ? '1 address waits' : `${formatNumber(wait.waiting)} addresses wait`;
  return `${subject} for a greylist re-check${wait.next_recheck_at ? ` at ${formatTime(wait.next_recheck_at)}` : ''}`;
}
