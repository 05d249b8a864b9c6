import { useEffect, useRef, useState } from 'react';
import type { TDownload } from '@verilead/contracts';
import { getErrorMessage } from '../lib/api-error';
import { getDownloadStatus, isDownloadFinal, waitForDownload } from '../lib/download-status';
import { openDownloadWindow } from '../lib/popup-download';
import { DownloadBlockedModal } from './download-blocked-modal';

/**
 * A queued file as a start call answers it: the shared download (`TDownload`), or a feature's own
 * view of it (the finder's `TFinderDownloadData`), polled through the shared status until final.
 */
export type TPreparedFile = Pick<TDownload, 'queue_id' | 'state' | 'file_name' | 'rows' | 'download_url'> & { progress?: number; error?: string | null };

/**
 * Prepares a file on the server and opens it: `run(start)` calls `start` (which queues the file),
 * polls its status until it is final, then opens the link in a new window, or shows the Download
 * Blocked modal when the browser refused the pop-up. Render `blockedModal` once.
 */
export function usePreparedDownload() {
  const [download, setDownload] = useState<TPreparedFile | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [blockedUrl, setBlockedUrl] = useState<string | null>(null);
  const abortRef = useRef<AbortController | null>(null);

  useEffect(() => () => abortRef.current?.abort(), []);

  const reset = () => {
    abortRef.current?.abort();
    setDownload(null);
    setError(null);
    setBusy(false);
  };

  const run = async (start: (signal: AbortSignal) => Promise<TPreparedFile>) => {
    abortRef.current?.abort();
    setError(null);
    setDownload(null);
    setBusy(true);
    const controller = new AbortController();
    abortRef.current = controller;
    try {
      const first = await start(controller.signal);
      setDownload(first);
      let current: TPreparedFile = first;
      if (!isDownloadFinal(first)) {
        // The first check may already find the file ready: show it, not the queued state.
        const checked = await getDownloadStatus(first.queue_id, controller.signal);
        setDownload(checked);
        current = await waitForDownload(checked, controller.signal, setDownload);
      }
      if (current.state !== 'success' || !current.download_url) {
        setError(current.error ?? `The download ended as ${current.state}.`);
        return;
      }
      if (openDownloadWindow(current.download_url) === 'blocked') setBlockedUrl(current.download_url);
    } catch (cause) {
      if (!(cause instanceof DOMException && cause.name === 'AbortError')) setError(getErrorMessage(cause));
    } finally {
      if (abortRef.current === controller) setBusy(false);
    }
  };

  const ready = download?.state === 'success' && download.download_url ? download : null;
  const blockedModal = <DownloadBlockedModal url={blockedUrl} fileName={ready?.file_name} onClose={() => setBlockedUrl(null)} />;
  return { run, reset, download, ready, busy, error, blockedModal };
}
