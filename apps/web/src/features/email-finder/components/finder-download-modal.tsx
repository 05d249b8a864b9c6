import { useState } from 'react';
import { Alert, Button, Group, Modal, Progress, Radio, SegmentedControl, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconDownload } from '@tabler/icons-react';
import type { TDownloadFileType, TFinderDownloadFormat } from '@verilead/contracts';
import { usePreparedDownload, type TPreparedFile } from '../../../components/use-prepared-download';
import { formatNumber } from '../../../lib/format';

const FORMATS: { value: TFinderDownloadFormat; label: string; description: string }[] = [
  { value: 'all', label: 'All rows', description: 'Every row of your file with the address found (or not) and the confidence score' },
  { value: 'found', label: 'Found only', description: 'Rows where an address was found' },
  { value: 'not_found', label: 'Not found only', description: 'Rows with no address, to search another way' },
];

/**
 * Prepares a finder file (list results, or the history with `withFormats` off), polls it and opens it;
 * `start` queues the file with the chosen format and file type.
 */
export function FinderDownloadModal({
  title,
  opened,
  onClose,
  withFormats,
  start,
}: {
  title: string;
  opened: boolean;
  onClose: () => void;
  withFormats: boolean;
  start: (choice: { format: TFinderDownloadFormat; fileType: TDownloadFileType }, signal: AbortSignal) => Promise<TPreparedFile>;
}) {
  const [format, setFormat] = useState<TFinderDownloadFormat>('all');
  const [fileType, setFileType] = useState<TDownloadFileType>('csv');
  const prepared = usePreparedDownload();
  const { download, ready, busy, error } = prepared;

  const close = () => {
    prepared.reset();
    onClose();
  };

  return (
    <>
      <Modal opened={opened} onClose={close} title={title} centered size="md">
        <Stack gap="md">
          {withFormats ? (
            <Radio.Group label="Rows" value={format} onChange={(value) => setFormat(FORMATS.find((item) => item.value === value)?.value ?? 'all')}>
              <Stack gap="xs" mt="xs">
                {FORMATS.map((item) => (
                  <Radio key={item.value} value={item.value} label={item.label} description={item.description} disabled={busy} />
                ))}
              </Stack>
            </Radio.Group>
          ) : null}
          <Stack gap={6}>
            <Text size="sm" fw={500}>
              File type
            </Text>
            <SegmentedControl
              value={fileType}
              onChange={(value) => setFileType(value === 'xlsx' ? 'xlsx' : 'csv')}
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
              <Progress value={Math.max(download.progress ?? 0, 5)} striped animated aria-label="Download progress" />
              <Text size="xs" c="dimmed">
                Preparing the file... {download.progress ?? 0}%
              </Text>
            </Stack>
          ) : null}
          {ready ? (
            <Alert color="teal" variant="light" title="Your file is ready" icon={<IconDownload size={18} />}>
              <Group justify="space-between" wrap="wrap" gap="xs">
                <Text size="sm" data-testid="download-ready">
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
            <Button leftSection={<IconDownload size={16} />} loading={busy} onClick={() => void prepared.run((signal) => start({ format, fileType }, signal))}>
              Download
            </Button>
          </Group>
        </Stack>
      </Modal>
      {prepared.blockedModal}
    </>
  );
}
