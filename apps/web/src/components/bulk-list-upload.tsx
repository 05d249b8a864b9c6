import { useRef, useState, type ReactNode } from 'react';
import { Alert, Button, Card, Checkbox, Group, Progress, Stack, Text, TextInput, ThemeIcon, Title } from '@mantine/core';
import { IconAlertTriangle, IconFileSpreadsheet, IconUpload } from '@tabler/icons-react';
import { getErrorMessage } from '../lib/api-error';
import { BULK_FILE_KINDS, checkBulkFile, formatFileSize, type TBulkFileKind } from '../lib/bulk-file-rules';
import { readFilePreview } from '../lib/file-preview';
import type { TUploadProgress } from '../lib/upload-bulk-file';
import { FileDropZone } from './file-drop-zone';

/** The duplicate-name check; `suggested_name` (when the server gives one) is a list name no list has yet, e.g. "leads (2)". */
type TDuplicateCheck = { is_duplicate: boolean; message: string; suggested_name?: string };

/** A file picked for upload: its preview rows, the header choice, the column choice and the duplicate-name check. */
export type TChosenFile<TColumns> = { file: File; rows: string[][]; hasHeader: boolean; columns: TColumns; duplicate: TDuplicateCheck | null };

type TTransfer = { onProgress: (progress: TUploadProgress) => void; signal: AbortSignal };

function stripExtension(name: string): string {
  const dot = name.lastIndexOf('.');
  return (dot > 0 ? name.slice(0, dot) : name).slice(0, 200);
}

/** State of an add-list screen: choosing and previewing a file, naming the list, uploading with progress and cancel. */
export function useBulkListUpload<TColumns>({
  kinds = BULK_FILE_KINDS,
  checkDuplicate,
  emptyFileHint,
  detectColumns,
}: {
  kinds?: readonly TBulkFileKind[];
  checkDuplicate: (fileName: string) => Promise<TDuplicateCheck>;
  emptyFileHint: string;
  detectColumns: (rows: string[][]) => { hasHeader: boolean; columns: TColumns };
}) {
  const [refusal, setRefusal] = useState<string | null>(null);
  const [reading, setReading] = useState(false);
  const [chosen, setChosen] = useState<TChosenFile<TColumns> | null>(null);
  const [listName, setListName] = useState('');
  const [progress, setProgress] = useState<TUploadProgress | null>(null);
  const [uploadError, setUploadError] = useState<string | null>(null);
  const abortRef = useRef<AbortController | null>(null);

  const choose = async (file: File) => {
    setChosen(null);
    setUploadError(null);
    const problem = checkBulkFile(file, kinds);
    setRefusal(problem);
    if (problem) return;
    setReading(true);
    try {
      const [preview, duplicate] = await Promise.all([readFilePreview(file), checkDuplicate(file.name).catch(() => null)]);
      if (preview.rows.length === 0) {
        setRefusal(`${file.name} has no rows. ${emptyFileHint}`);
        return;
      }
      const guess = detectColumns(preview.rows);
      setChosen({ file, rows: preview.rows, hasHeader: guess.hasHeader, columns: guess.columns, duplicate });
      setListName(duplicate?.suggested_name || stripExtension(file.name));
    } catch (error) {
      setRefusal(getErrorMessage(error));
    } finally {
      setReading(false);
    }
  };

  /** Runs `send` with the chosen file and the list name (the file name when left blank); failures other than a cancel are shown. */
  const upload = async (send: (file: TChosenFile<TColumns>, listName: string, transfer: TTransfer) => Promise<void>) => {
    if (!chosen) return;
    setUploadError(null);
    setProgress({ loaded: 0, total: chosen.file.size, percent: 0 });
    const controller = new AbortController();
    abortRef.current = controller;
    try {
      await send(chosen, listName.trim() || stripExtension(chosen.file.name), { onProgress: setProgress, signal: controller.signal });
    } catch (error) {
      if (!(error instanceof DOMException && error.name === 'AbortError')) setUploadError(getErrorMessage(error));
    } finally {
      abortRef.current = null;
      setProgress(null);
    }
  };

  return {
    kinds,
    refusal,
    reading,
    chosen,
    listName,
    progress,
    uploadError,
    uploading: progress !== null,
    choose,
    upload,
    setListName,
    setChosen,
    cancelUpload: () => abortRef.current?.abort(),
    /** Replaces the column choice of the chosen file. */
    setColumns: (columns: TColumns) => setChosen((current) => (current ? { ...current, columns } : current)),
  };
}

/** The body of an add-list screen: the drop zone, the refusal, the chosen file with its fields and preview, the upload, and "How it works". */
export function BulkListUploadForm<TColumns>({
  state,
  hint,
  maw,
  howItWorks,
  canUpload,
  onUpload,
  renderFields,
  renderPreview,
}: {
  state: ReturnType<typeof useBulkListUpload<TColumns>>;
  hint: string;
  maw: number;
  howItWorks: string;
  canUpload: boolean;
  onUpload: () => void;
  /** Extra inputs between the list name and the header checkbox. */
  renderFields?: (chosen: TChosenFile<TColumns>) => ReactNode;
  /** The column choice, its warnings and the preview table. */
  renderPreview: (chosen: TChosenFile<TColumns>) => ReactNode;
}) {
  const { chosen, uploading, progress } = state;
  return (
    <Stack gap="lg" maw={maw}>
      <FileDropZone kinds={state.kinds} onFile={(file) => void state.choose(file)} disabled={uploading} loading={state.reading} hint={hint} />
      {state.refusal ? (
        <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} title="This file cannot be uploaded" role="alert" data-testid="file-refusal">
          {state.refusal}
        </Alert>
      ) : null}
      {chosen ? (
        <Card padding="lg">
          <Stack gap="md">
            <Group justify="space-between" wrap="wrap">
              <Group gap="sm" wrap="nowrap">
                <ThemeIcon size={42} radius="md" variant="light" color="teal">
                  <IconFileSpreadsheet size={24} />
                </ThemeIcon>
                <Stack gap={0}>
                  <Text fw={600}>{chosen.file.name}</Text>
                  <Text size="xs" c="dimmed">
                    {formatFileSize(chosen.file.size)} · preview of the first {chosen.hasHeader ? chosen.rows.length - 1 : chosen.rows.length} rows
                  </Text>
                </Stack>
              </Group>
              <Button variant="subtle" color="gray" onClick={() => state.setChosen(null)} disabled={uploading}>
                Choose another file
              </Button>
            </Group>
            {chosen.duplicate?.is_duplicate ? (
              <Alert color="orange" variant="light" icon={<IconAlertTriangle size={18} />} title="A file with this name was uploaded before" data-testid="duplicate-warning">
                {chosen.duplicate.message}{' '}
                {chosen.duplicate.suggested_name
                  ? `It will be uploaded as a new list named “${chosen.duplicate.suggested_name}”: change the name below if you prefer another.`
                  : 'You can still upload it as a new list.'}
              </Alert>
            ) : null}
            <Group align="flex-end" gap="md" wrap="wrap">
              <TextInput label="List name" value={state.listName} onChange={(event) => state.setListName(event.currentTarget.value)} maxLength={200} w={300} disabled={uploading} />
              {renderFields?.(chosen)}
              <Checkbox
                label="First row is a header"
                checked={chosen.hasHeader}
                onChange={(event) => state.setChosen({ ...chosen, hasHeader: event.currentTarget.checked })}
                mb={8}
                disabled={uploading}
              />
            </Group>
            {renderPreview(chosen)}
            {state.uploadError ? (
              <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} title="Upload failed" role="alert">
                {state.uploadError}
              </Alert>
            ) : null}
            {progress ? (
              <Stack gap={4}>
                <Progress value={progress.percent} size="lg" radius="xl" striped animated aria-label="Upload progress" />
                <Text size="xs" c="dimmed">
                  Uploading {formatFileSize(progress.loaded)} of {formatFileSize(progress.total)} ({progress.percent}%)
                </Text>
              </Stack>
            ) : null}
            <Group justify="flex-end">
              {uploading ? (
                <Button variant="default" onClick={state.cancelUpload}>
                  Cancel upload
                </Button>
              ) : null}
              <Button leftSection={<IconUpload size={18} />} onClick={onUpload} loading={uploading} disabled={!canUpload}>
                Upload list
              </Button>
            </Group>
          </Stack>
        </Card>
      ) : null}
      {!chosen && !state.refusal ? (
        <Card padding="lg">
          <Title order={4} fz={15} mb={6}>
            How it works
          </Title>
          <Text size="sm" c="dimmed">
            {howItWorks}
          </Text>
        </Card>
      ) : null}
    </Stack>
  );
}
