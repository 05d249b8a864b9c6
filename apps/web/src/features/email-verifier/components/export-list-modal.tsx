import { useState } from 'react';
import { Checkbox, Radio, SimpleGrid, Stack, Text } from '@mantine/core';
import {
  DOWNLOAD_FORMAT_HINTS,
  DOWNLOAD_FORMAT_LABELS,
  STANDARD_RESULT_COLUMNS,
  ZDownloadFormat,
  ZResultColumn,
  type TDownloadFileType,
  type TDownloadFormat,
  type TResultColumn,
  type TVerifyList,
} from '@verilead/contracts';
import { PrepareDownloadModal } from '../../../components/prepare-download-modal';
import { usePreparedDownload } from '../../../components/use-prepared-download';
import { humanizeKey } from '../../../lib/format';
import { startListExport } from '../api/email-verifier-api';

const COLUMN_LABELS: Partial<Record<TResultColumn, string>> = {
  mx_record: 'MX record',
  smtp_provider: 'SMTP provider',
  ai_verdict: 'AI verdict',
  reason: 'Reason code',
  reason_text: 'Reason (text)',
  suggested_email_address: 'Suggested address',
};
/** Choose a format and file type, prepare the file (polling its status), then open it in a new window. */
export function ExportListModal({ list, onClose }: { list: TVerifyList | null; onClose: () => void }) {
  const [format, setFormat] = useState<TDownloadFormat>('standard');
  const [fileType, setFileType] = useState<TDownloadFileType>('csv');
  const [columns, setColumns] = useState<TResultColumn[]>(STANDARD_RESULT_COLUMNS);
  const prepared = usePreparedDownload();

  const run = () => {
    if (!list) return;
    void prepared.run((signal) => startListExport({ list_id: list.id, kind: 'result', format, file_type: fileType, columns: format === 'custom' ? columns : undefined }, signal));
  };

  const toggleColumn = (column: TResultColumn, on: boolean) =>
    setColumns((current) => (on ? ZResultColumn.options.filter((item) => item === column || current.includes(item)) : current.filter((item) => item !== column)));

  return (
    <PrepareDownloadModal
      prepared={prepared}
      opened={list !== null}
      onClose={onClose}
      title={list ? `Download results: ${list.name}` : 'Download results'}
      size="lg"
      fileType={fileType}
      onFileTypeChange={setFileType}
      progressLabel="Export progress"
      downloadDisabled={format === 'custom' && columns.length === 0}
      onDownload={run}
    >
      <Radio.Group label="Format" value={format} onChange={(value) => setFormat(ZDownloadFormat.parse(value))}>
        <Stack gap="xs" mt="xs">
          {ZDownloadFormat.options.map((option) => (
            <Radio key={option} value={option} label={DOWNLOAD_FORMAT_LABELS[option]} description={DOWNLOAD_FORMAT_HINTS[option]} disabled={prepared.busy} />
          ))}
        </Stack>
      </Radio.Group>
      {format === 'custom' ? (
        <Stack gap={6}>
          <Text size="sm" fw={500}>
            Columns
          </Text>
          <SimpleGrid cols={{ base: 2, sm: 3 }} spacing={6}>
            {ZResultColumn.options.map((column) => (
              <Checkbox
                key={column}
                size="xs"
                label={COLUMN_LABELS[column] ?? humanizeKey(column)}
                checked={columns.includes(column)}
                onChange={(event) => toggleColumn(column, event.currentTarget.checked)}
                disabled={prepared.busy}
              />
            ))}
          </SimpleGrid>
        </Stack>
      ) : null}
    </PrepareDownloadModal>
  );
}
