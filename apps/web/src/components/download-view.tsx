import { useEffect, useState } from 'react';
import { Alert, Anchor, Button, Paper, Progress, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck, IconClockX, IconLogin } from '@tabler/icons-react';
import { Link, useLocation } from 'react-router';
import type { TDownload } from '@verilead/contracts';
import { LoadingScreen } from './loading-screen';
import { getErrorMessage } from '../lib/api-error';
import { requestDownload, getDownloadStatus, waitForDownload } from '../lib/download-status';
import { fetchDownload, saveBlob } from '../lib/fetch-download';
import { useSessionStore } from '../lib/session-store';

/**
 * Where the file comes from: an expiring token (fetched from `tokenPath`, default `/public/download`),
 * a download to poll, or a list's uploaded file.
 */
export type TDownloadSource =
  | { kind: 'token'; token: string; tokenPath?: string }
  | { kind: 'queue'; queueId: string }
  | { kind: 'input'; listId: string }
  | { kind: 'none' };

type TPhase =
  | { kind: 'preparing'; progress: number | null }
  | { kind: 'done'; fileName: string; href: string }
  | { kind: 'expired'; message: string }
  | { kind: 'failed'; message: string }
  | { kind: 'cancelled' }
  | { kind: 'login' }
  | { kind: 'missing' };

function needsLogin(source: TDownloadSource): boolean {
  return source.kind === 'queue' || source.kind === 'input';
}

async function resolveUrl(source: TDownloadSource, signal: AbortSignal, onProgress: (download: TDownload) => void): Promise<TDownload | string> {
  if (source.kind === 'token') return `/api/v1${source.tokenPath ?? '/public/download'}?${new URLSearchParams({ download_token: source.token }).toString()}`;
  const first =
    source.kind === 'queue'
      ? await getDownloadStatus(source.queueId, signal)
      : await requestDownload({ list_id: source.kind === 'input' ? source.listId : '', kind: 'input' }, signal);
  onProgress(first);
  return waitForDownload(first, signal, onProgress);
}

/** "Downloading..." while the file is prepared and fetched, then the file, or the expired / failed state. */
export function DownloadView({ source }: { source: TDownloadSource }) {
  const isLogged = useSessionStore((state) => state.isLogged);
  const location = useLocation();
  const [phase, setPhase] = useState<TPhase>({ kind: 'preparing', progress: null });
  const [attempt, setAttempt] = useState(0);
  const sourceKey = JSON.stringify(source);

  useEffect(() => {
    const current = JSON.parse(sourceKey) as TDownloadSource;
    if (current.kind === 'none') {
      setPhase({ kind: 'missing' });
      return;
    }
    if (needsLogin(current) && !isLogged) {
      setPhase({ kind: 'login' });
      return;
    }
    const controller = new AbortController();
    let objectUrl: string | null = null;
    setPhase({ kind: 'preparing', progress: null });
    void (async () => {
      try {
        const target = await resolveUrl(current, controller.signal, (download) => setPhase({ kind: 'preparing', progress: download.progress }));
        let url: string;
        if (typeof target === 'string') url = target;
        else if (target.state === 'expired') return setPhase({ kind: 'expired', message: 'This file has expired. Request the download again.' });
        else if (target.state === 'cancelled') return setPhase({ kind: 'cancelled' });
        else if (target.state !== 'success' || !target.download_url) return setPhase({ kind: 'failed', message: target.error ?? 'The file could not be prepared.' });
        else url = target.download_url;
        const fetched = await fetchDownload(url);
        if (controller.signal.aborted) return;
        if (fetched.kind !== 'file') return setPhase(fetched);
        objectUrl = saveBlob(fetched.blob, fetched.fileName);
        setPhase({ kind: 'done', fileName: fetched.fileName, href: objectUrl });
      } catch (error) {
        if (error instanceof DOMException && error.name === 'AbortError') return;
        setPhase({ kind: 'failed', message: getErrorMessage(error) });
      }
    })();
    return () => {
      controller.abort();
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [sourceKey, isLogged, attempt]);

  if (phase.kind === 'preparing') {
    return (
      <Paper withBorder p="xl" radius="lg">
        <LoadingScreen label="Downloading..." minHeight={120} />
        {phase.progress !== null ? <Progress value={Math.max(phase.progress, 5)} striped animated aria-label="Download progress" /> : null}
      </Paper>
    );
  }

  return (
    <Paper withBorder p="xl" radius="lg" data-testid="download-state" data-state={phase.kind}>
      <Stack gap="md" align="flex-start">
        {phase.kind === 'done' ? (
          <>
            <ThemeIcon color="teal" variant="light" size={48} radius="xl">
              <IconCircleCheck size={28} />
            </ThemeIcon>
            <Title order={3} fz={20}>
              Your download has started
            </Title>
            <Text size="sm" c="dimmed">
              {phase.fileName} is being saved by your browser.
            </Text>
            <Button component="a" href={phase.href} download={phase.fileName} variant="light">
              Download again
            </Button>
          </>
        ) : null}
        {phase.kind === 'expired' ? (
          <>
            <ThemeIcon color="orange" variant="light" size={48} radius="xl">
              <IconClockX size={28} />
            </ThemeIcon>
            <Title order={3} fz={20}>
              This download has expired
            </Title>
            <Text size="sm" c="dimmed">
              {phase.message}
            </Text>
          </>
        ) : null}
        {phase.kind === 'failed' || phase.kind === 'cancelled' || phase.kind === 'missing' ? (
          <>
            <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} title={phase.kind === 'cancelled' ? 'This download was cancelled' : 'The download failed'} w="100%" role="alert">
              {phase.kind === 'failed' ? phase.message : phase.kind === 'missing' ? 'This link is incomplete: it has no download token.' : 'Request the file again from the list.'}
            </Alert>
            {phase.kind === 'failed' ? (
              <Button variant="light" onClick={() => setAttempt((value) => value + 1)}>
                Try again
              </Button>
            ) : null}
          </>
        ) : null}
        {phase.kind === 'login' ? (
          <>
            <Title order={3} fz={20}>
              Log in to download
            </Title>
            <Text size="sm" c="dimmed">
              This file belongs to an account. Log in and the download starts right away.
            </Text>
            <Button component={Link} to={`/login?${new URLSearchParams({ redirect: `${location.pathname}${location.search}` }).toString()}`} leftSection={<IconLogin size={16} />}>
              Log in
            </Button>
          </>
        ) : null}
        {isLogged ? (
          <Anchor component={Link} to="/email_verifier/lists" size="sm">
            Back to your lists
          </Anchor>
        ) : null}
      </Stack>
    </Paper>
  );
}
