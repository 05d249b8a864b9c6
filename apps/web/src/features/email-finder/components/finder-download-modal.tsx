import { useState } from 'react';
import { Radio, Stack } from '@mantine/core';
import type { TDownloadFileType, TFinderDownloadFormat } from '@verilead/contracts';
import { PrepareDownloadModal } from '../../../components/prepare-download-modal';
import { usePreparedDownload, type TPreparedFile } from '../../../components/use-prepared-download';

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

  return (
    <PrepareDownloadModal
      prepared={prepared}
      opened={opened}
      onClose={onClose}
      title={title}
      size="md"
      fileType={fileType}
      onFileTypeChange={setFileType}
      progressLabel="Download progress"
      readyTestId="download-ready"
      onDownload={() => void prepared.run((signal) => start({ format, fileType }, signal))}
    >
      {withFormats ? (
        <Radio.Group label="Rows" value={format} onChange={(value) => setFormat(FORMATS.find((item) => item.value === value)?.value ?? 'all')}>
          <Stack gap="xs" mt="xs">
            {FORMATS.map((item) => (
              <Radio key={item.value} value={item.value} label={item.label} description={item.description} disabled={prepared.busy} />
            ))}
          </Stack>
        </Radio.Group>
      ) : null}
    </PrepareDownloadModal>
  );
}
