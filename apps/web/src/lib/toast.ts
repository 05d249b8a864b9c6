import { notifications } from '@mantine/notifications';
import { TOAST_DISMISS_MS } from '@verilead/contracts';

export type TToastKind = 'success' | 'error' | 'info' | 'warning';

const TOAST_COLORS: Record<TToastKind, string> = { success: 'teal', error: 'red', info: 'indigo', warning: 'orange' };

/** Shows a toast at the top centre, under the header, that dismisses itself after 5 s. */
export function showToast(input: { title: string; message: string; kind?: TToastKind; id?: string }): void {
  notifications.show({
    id: input.id,
    title: input.title,
    message: input.message,
    color: TOAST_COLORS[input.kind ?? 'info'],
    autoClose: TOAST_DISMISS_MS,
    withBorder: true,
  });
}
