import type { ReactNode } from 'react';
import { Alert, Button, Group, Modal, Progress, SegmentedControl, Stack, Text, type ModalProps } from '@mantine/core';
import { IconAlertTriangle, IconDownload } from '@tabler/icons-react';
import type { TDownloadFileType } from '@verilead/contracts';
import { formatNumber } from '../lib/format';
import type { usePreparedDownload } from './use-prepared-download';

/**
 * A modal that prepares a file for download: the caller's choices, the file type, the preparation progress,
 * the ready file (with "Download again") or the failure, and Cancel / Download.
 */
export function PrepareDownloadModal({
  prepared,
  opened,
  onClose,
  title,
  size,
  fileType,
  onFileTypeChange,
  progressLabel,
  readyTestId,
  downloadDisabled,
  onDownload,
  children,
}: {
  prepared: ReturnType<typeof usePreparedDownload>;
  opened: boolean;
  onClose: () => void;
  title: string;
  size: ModalProps['size'];
  fileType: TDownloadFileType;
  onFileTypeChange: (fileType: TDownloadFileType) => void;
  progressLabel: string;
  readyTestId?: string;
  downloadDisabled?: boolean;
  onDownload: () => void;
  /** The choices above the file type (format, columns…). */
  children: ReactNode;
}) {
  const { download, ready, busy, error } = prepared;

  const close = () => {
    prepared.reset();
    onClose();
  };

  return (
    <>
      <Modal opened={opened} onClose={close} title={title} size={size} centered>
        <Stack gap="md">
          {children}
          <Stack gap={6}>
            <Text size="sm" fw={500}>
              File type
            </Text>
            <SegmentedControl
              value={fileType}
              onChange={(value) => onFileTypeChange(value === 'xlsx' ? 'xlsx' : 'csv')}
              data={[
                { value: 'csv', label: 'CSV' },
                { value: 'xlsx', label: 'XLSX' },
              ]}
              w={200}
              disabled={busy}
              aria-label="File type"
            />
          </Stack>
          {download && !ready && !error ? (
            <Stack gap={4}>
              <Progress value={Math.max(download.progress ?? 0, 5)} striped animated aria-label={progressLabel} />
              <Text size="xs" c="dimmed">
                Preparing the file... {download.progress ?? 0}%
              </Text>
            </Stack>
          ) : null}
          {ready ? (
            <Alert color="teal" variant="light" title="Your file is ready" icon={<IconDownload size={18} />}>
              <Group justify="space-between" wrap="wrap" gap="xs">
                <Text size="sm" data-testid={readyTestId}>
                  {ready.file_name}
                  {ready.rows !== null ? ` · ${formatNumber(ready.rows)} rows` : ''}
                </Text>
                <Button component="a" href={ready.download_url ?? undefined} download={ready.file_name} size="xs" variant="light" color="teal">
                  Download again
                </Button>
              </Group>
            </Alert>
          ) : null}
          {error ? (
            <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} title="The download could not be prepared" role="alert">
              {error}
            </Alert>
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {ready ? 'Close' : 'Cancel'}
            </Button>
            <Button leftSection={<IconDownload size={16} />} onClick={onDownload} loading={busy} disabled={downloadDisabled}>
              Download
            </Button>
          </Group>
        </Stack>
      </Modal>
      {prepared.blockedModal}
    </>
  );
}
